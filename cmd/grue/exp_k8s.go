package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/harness/cluster"
	"github.com/grue-lab/grue/internal/cli"
)

func newExpK8sCmd(stdout io.Writer) *cobra.Command {
	var f cluster.KubernetesOptions
	cmd := &cobra.Command{
		Use:   "k8s CONFIG.yaml --shards N --image IMAGE --pvc CLAIM",
		Short: "Print a Kubernetes Indexed Job that runs an experiment, a shard a pod",
		Long: `Print a ConfigMap holding the experiment's config (and the prompt files it
names) and an Indexed Job of N completions: the pod of index I runs
"grue exp run --out /data/OUT --resume" with JOB_COMPLETION_INDEX=I and
GRUE_SHARD_COUNT=N, so it plays shard I/N into /data/OUT/shards/. /data is
the PersistentVolumeClaim CLAIM (ReadWriteMany, shared by the pods); story
files are looked for in /data/games. Each index is retried on its own
(backoffLimitPerIndex, Kubernetes 1.29 or later) and resumes what it
lacks. Apply it with:

  grue exp k8s CONFIG.yaml --shards 8 --image IMAGE --pvc CLAIM | kubectl apply -f -

then follow it with grue exp status /data/OUT from any pod that mounts the
claim, and merge it with grue exp merge. --secret names a Secret whose keys
become the pods' environment (OPENAI_API_KEY, OPENAI_BASE_URL, GRUE_MODEL).`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := cluster.KubernetesManifests(args[0], f)
			if err != nil {
				return usageIfOption(err)
			}
			_, err = stdout.Write(b)
			return err
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.Shards, "shards", 0, "the Job's completions: the number of shards (required)")
	fl.StringVar(&f.Image, "image", "", "the container image with grue in it (required; see the Dockerfile)")
	fl.StringVar(&f.PVC, "pvc", "", "the PersistentVolumeClaim mounted at /data, shared by the pods (required)")
	fl.StringVar(&f.Out, "out", "", "the run directory under /data (default runs/<name>)")
	fl.StringVar(&f.Name, "name", "", "the Job's and ConfigMap's name (default grue-<name>)")
	fl.StringVar(&f.Namespace, "namespace", "", "the namespace (default: kubectl's)")
	fl.IntVar(&f.Parallelism, "parallelism", 0, "pods at once (default: all the shards)")
	fl.IntVar(&f.BackoffLimitPerIndex, "backoff-limit-per-index", 2, "retries of each index before it counts as failed")
	fl.StringVar(&f.CPUs, "cpus", "", "each pod's CPU request (default: the config's parallel)")
	fl.StringVar(&f.Memory, "memory", "", "each pod's memory request and limit (such as 2Gi)")
	fl.StringVar(&f.Secret, "secret", "", "a Secret whose keys become the pods' environment")
	return cmd
}

// usageIfOption makes an option package cluster refuses a usage error.
func usageIfOption(err error) error {
	var oe *cluster.OptionError
	if errors.As(err, &oe) {
		return cli.UsageError{Err: err}
	}
	return err
}
