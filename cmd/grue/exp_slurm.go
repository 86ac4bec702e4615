package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/harness/cluster"
	"github.com/grue-lab/grue/internal/cli"
)

// expSlurmFlags are grue exp slurm's command line: the job's options
// (package cluster's), and what to do with the job.
type expSlurmFlags struct {
	cluster.SlurmOptions
	submit bool
	wait   bool
	poll   time.Duration
}

func newExpSlurmCmd(stdout, stderr io.Writer) *cobra.Command {
	var f expSlurmFlags
	cmd := &cobra.Command{
		Use:   "slurm CONFIG.yaml --out DIR --shards N",
		Short: "Run an experiment as a Slurm job array, a shard a task",
		Long: `Write a Slurm batch script into DIR/slurm/ that runs the experiment as a job
array of N tasks: task I runs "grue exp run CONFIG --out DIR --shard I/N
--resume", playing its part of the episodes into DIR/shards/. DIR must be
on a filesystem every node sees (NFS, Lustre, GPFS): the shards never
write to the same file. Each task's log is DIR/slurm/<job>_<task>.out.

--submit submits the script with sbatch; --wait then follows the run
(progress from the shards' results) until no task is left in the queue,
names the failed tasks with their logs, and merges the shards when every
episode is recorded (grue exp merge).

--resume, on a run directory that already has shards, resubmits only the
shards that are incomplete (killed, cancelled, timed out, failed); each
plays only the episodes it lacks.

Without --submit nothing is submitted: read the script, then sbatch it.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return slurmExp(cmd.Context(), args[0], f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Out, "out", "", "the run directory, on a filesystem shared by the nodes (required)")
	fl.IntVar(&f.Shards, "shards", 0, "the number of array tasks, each a shard of the episodes (required, except with --resume)")
	fl.StringVar(&f.Partition, "partition", "", "sbatch --partition")
	fl.StringVar(&f.Time, "time", "", "sbatch --time, a task's time limit (such as 4:00:00)")
	fl.IntVar(&f.CPUs, "cpus", 0, "sbatch --cpus-per-task (default: the config's parallel)")
	fl.StringVar(&f.Mem, "mem", "", "sbatch --mem, a task's memory (such as 4G)")
	fl.StringVar(&f.Gres, "gres", "", "sbatch --gres (such as gpu:1, for a model served on the node)")
	fl.StringVar(&f.Grue, "grue", "", "the grue binary the tasks run, on the shared filesystem (default: this one)")
	fl.IntVar(&f.Parallel, "parallel", 0, "episodes at once in each task (default: the config's parallel)")
	fl.BoolVar(&f.submit, "submit", false, "submit the script with sbatch")
	fl.BoolVar(&f.wait, "wait", false, "with --submit: follow the run until it ends, then merge it")
	fl.BoolVar(&f.Resume, "resume", false, "resubmit only the incomplete shards of the run in --out")
	fl.DurationVar(&f.poll, "poll", 5*time.Second, "with --wait: how often to look at the queue and the results")
	return cmd
}

func slurmExp(ctx context.Context, path string, f expSlurmFlags, stdout, stderr io.Writer) error {
	if f.wait && !f.submit {
		return cli.UsageError{Err: errors.New("--wait goes with --submit")}
	}
	if f.poll <= 0 {
		return cli.UsageError{Err: fmt.Errorf("--poll must be positive, not %v", f.poll)}
	}
	if f.Out == "" {
		// Before the config: the first thing to say.
		return cli.UsageError{Err: errors.New("--out DIR is required: the run directory the tasks share")}
	}
	cfg, err := harness.LoadConfig(path)
	if err != nil {
		return err
	}
	job, err := cluster.NewSlurmJob(cfg, path, f.SlurmOptions)
	if err != nil {
		return usageIfOption(err)
	}
	if len(job.Tasks) == 0 {
		fmt.Fprintf(stdout, "Nothing to resubmit: every shard of %s is done.\n", job.Dir)
		return nil
	}
	script, err := job.WriteScript()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s: %d array tasks (shards %s of %d)\n", script, len(job.Tasks), job.Array, job.Shards)
	if !f.submit {
		fmt.Fprintf(stdout, "Submit it with:\n  sbatch %s\n", script)
		return nil
	}
	id, err := job.Submit(ctx, script)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Submitted job %s; logs in %s\nFollow it with: grue exp status %s\n", id, filepath.Join(job.Dir, cluster.SlurmDir), f.Out)
	if !f.wait {
		return nil
	}
	res, err := job.Follow(ctx, cfg, id, f.poll, stderr)
	if res == nil {
		return err
	}
	for _, t := range res.Unfinished {
		fmt.Fprintf(stdout, "Task %s_%d (shard %s) %s with %d of %d episodes recorded; log %s\n",
			id, t.Shard.Index, t.Shard, t.State, t.Recorded, t.Episodes, t.Log)
	}
	if err != nil {
		fmt.Fprintf(stdout, "%d/%d episodes. Resubmit the incomplete shards with:\n  grue exp slurm %s --out %s --resume --submit --wait\n",
			res.Status.Recorded, res.Status.Episodes, job.Config, job.Dir)
		return err
	}
	return mergeAndCompare(job.Dir, cfg, stdout, stderr)
}

// mergeAndCompare merges a finished sharded run and prints its comparison.
func mergeAndCompare(dir string, cfg *harness.Config, stdout, stderr io.Writer) error {
	m, err := harness.MergeShards(dir)
	if err != nil {
		return err
	}
	for _, d := range m.Duplicates {
		fmt.Fprintf(stderr, "grue exp merge: %s recorded by more than one shard: kept %s, left %v\n", d.Key, d.Kept, d.Dropped)
	}
	if err := m.Write(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Results: %s (%d of %d episodes, merged)\n\n", filepath.Join(dir, harness.ResultsFile), m.Results.Len(), len(cfg.Episodes()))
	// The baseline the run recorded (exp run's rule: the config's first
	// variant unless --baseline said otherwise), so that the merge pairs as
	// exp compare of the same folder does.
	baseline := cfg.Variants[0].Name
	if m.Manifest != nil && m.Manifest.Baseline != "" {
		baseline = m.Manifest.Baseline
	}
	c, err := harness.Compare(m.Results, baseline, harness.CompareOptions{})
	if err != nil {
		return err
	}
	return c.WriteWidth(stdout, harness.FormatTable, tableWidth(stdout))
}
