// Package cluster runs an experiment of package
// [github.com/grue-lab/grue/harness] past one machine, on a cluster's own
// engine, one shard of the episodes a task: a Slurm job array or a
// Kubernetes Indexed Job. It writes what the engine runs and, for Slurm,
// submits and follows it; the shards themselves are harness's
// ([harness.Shard], [harness.ReadStatus], [harness.MergeShards]).
//
// # Slurm
//
// [NewSlurmJob] works out what to submit (every shard, or with
// [SlurmOptions].Resume the incomplete ones of a run), [SlurmJob.WriteScript]
// writes the sbatch script into the run directory's [SlurmDir] folder,
// [SlurmJob.Submit] submits it with sbatch and records the [Submission],
// and [SlurmJob.Follow] follows the run until no task is left in the
// queue, then names the tasks that did not finish their shards
// ([UnfinishedTask]); a finished run is merged with [harness.MergeShards].
//
// # Kubernetes
//
// [KubernetesManifests] writes a ConfigMap holding the config (and the
// prompt files it names) and an Indexed Job whose pod of index I plays
// shard I, for `kubectl apply -f -`. The objects are plain Go data written
// by a YAML encoder, never by text templates.
//
// # Values from others
//
// A config may come from someone else, and a flag's value from a script.
// Every value that reaches a script or a manifest is checked first: names
// become Kubernetes names only if they are DNS-1123 names, a value with a
// control character (a newline among them) is refused rather than
// written into a script line, and every value is quoted for what reads it
// (bash, sbatch's #SBATCH lines, YAML). A value that cannot be used is an
// [*OptionError] naming the option and the value.
package cluster
