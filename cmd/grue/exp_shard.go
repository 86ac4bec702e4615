package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
)

// runShard is the shard grue exp run plays: --shard, else the one the
// environment names (a Slurm array task, a Kubernetes Indexed Job's pod),
// else nil (all the episodes).
func runShard(f expRunFlags) (*harness.Shard, error) {
	if f.shard != "" {
		sh, err := harness.ParseShard(f.shard)
		if err != nil {
			return nil, fmt.Errorf("--shard: %w", err)
		}
		return &sh, nil
	}
	sh, ok, err := harness.ShardFromEnv(os.Getenv)
	if err != nil || !ok {
		return nil, err
	}
	return &sh, nil
}

// runDir is the directory a run into out writes: out, or the shard's
// folder in it.
func runDir(out string, shard *harness.Shard) string {
	if shard == nil {
		return out
	}
	return filepath.Join(out, shard.Dir())
}

// stopOnTerm cancels ctx on SIGTERM, which is how Slurm (scancel, a time
// limit) and Kubernetes stop a task: the episodes in flight are abandoned
// and the manifest says the run stopped, before the SIGKILL that follows.
func stopOnTerm(ctx context.Context, cancel context.CancelFunc, stderr io.Writer) {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		defer signal.Stop(term)
		select {
		case <-term:
			fmt.Fprintln(stderr, "grue exp run: terminated: stopping now; --resume plays what is left")
			cancel()
		case <-ctx.Done():
		}
	}()
}

func newExpStatusCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	var limit int
	cmd := &cobra.Command{
		Use:   "status DIR",
		Short: "Say where a run directory stands, shard by shard",
		Long: `Read the manifests, heartbeats and results of every shard of the run
directory DIR (or of an unsharded run) and say, for each shard, whether it
is done, running, failed (stopped or killed with episodes left) or pending
(never started), on which host and for how long; then the whole run as
N/M episodes and the episodes still missing. It reads files only, so it
works from any host that sees DIR. The exit status is 0 when every episode
has a record, 1 when some are missing.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := harness.ReadStatus(args[0], time.Now())
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(st); err != nil {
					return err
				}
			} else if err := st.WriteWidth(stdout, limit, tableWidth(stdout)); err != nil {
				return err
			}
			if !st.Done() {
				return fmt.Errorf("%s: %d of %d episodes missing", args[0], len(st.Missing), st.Episodes)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	cmd.Flags().IntVar(&limit, "missing", 20, "name at most this many missing episodes (0: all)")
	return cmd
}

func newExpMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var partial bool
	cmd := &cobra.Command{
		Use:   "merge DIR",
		Short: "Merge the shards of a run directory into one results file",
		Long: `Merge the shards of the run directory DIR (DIR/shards/*) into
DIR/results.jsonl and DIR/manifest.json, so that any tool that reads a run
directory reads the whole run. Shards of another config (another hash) are
refused. An episode recorded by two shards (a run directory played with
two shard counts, a shard restarted by hand) is kept once, the same one
whatever the order: a record that did not fail over one that failed, then
the shard whose folder sorts first; each is reported. A run with missing
episodes is refused unless --partial.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if !harness.IsSharded(dir) {
				return fmt.Errorf("merge: %s holds no %s folder: it is not a sharded run", dir, harness.ShardsDir)
			}
			st, err := harness.ReadStatus(dir, time.Now())
			if err != nil {
				return err
			}
			if !st.Done() && !partial {
				_ = st.Write(stderr, 20)
				return fmt.Errorf("merge %s: %d of %d episodes are missing: finish the run (grue exp slurm --resume, or grue exp run --shard I/N --resume), or merge what there is with --partial",
					dir, len(st.Missing), st.Episodes)
			}
			m, err := harness.MergeShards(dir)
			if err != nil {
				return err
			}
			for _, p := range m.Problems {
				fmt.Fprintf(stderr, "grue exp merge: %s\n", p)
			}
			for _, d := range m.Duplicates {
				fmt.Fprintf(stderr, "grue exp merge: %s recorded by more than one shard: kept %s, left %v\n", d.Key, d.Kept, d.Dropped)
			}
			if err := m.Write(); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Merged %d shards into %s: %d of %d episodes, %d duplicates resolved\n",
				len(st.Shards), filepath.Join(dir, harness.ResultsFile), m.Results.Len(), st.Episodes, len(m.Duplicates))
			return nil
		},
	}
	cmd.Flags().BoolVar(&partial, "partial", false, "merge even when episodes are missing")
	return cmd
}
