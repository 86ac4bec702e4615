package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/harness/export"
	"github.com/grue-lab/grue/internal/cli"
)

// newExpExportCmd is grue exp export: a run directory in the formats other
// harnesses read.
func newExpExportCmd(stdout io.Writer) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export DIR --format tales|atif|inspect [-o OUT]",
		Short: "Write a run directory's results in TALES, ATIF or Inspect format",
		Long: `Write the episodes of run directory DIR (a sharded one's shards merged)
in a format other tools read, into OUT (default DIR/export/FORMAT):

  tales    TALES (microsoft/tale-suite): for each episode, the per-step
           rollout tales_VARIANT/GAME/a0_sSEED_stepsN.jsonl and its
           summary .json, as TALES's benchmark.py writes them
  atif     Harbor's Agent Trajectory Interchange Format (ATIF-v1.6): one
           trajectory VARIANT/GAME_SEED.json per episode
  inspect  Inspect's JSON eval log (inspect_ai, log version 2): one log
           per variant, a sample per episode, for inspect view

The files written are listed on stdout. See docs/experiments.md.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(export.Formats, format) {
				return cli.UsageError{Err: fmt.Errorf("--format %q: name one of %s", format, strings.Join(export.Formats, ", "))}
			}
			dir := args[0]
			if out == "" {
				out = filepath.Join(dir, "export", format)
			}
			files, err := export.Export(dir, format, out)
			for _, f := range files {
				fmt.Fprintln(stdout, f)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the format: tales, atif or inspect (required)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "the folder to write into (default DIR/export/FORMAT)")
	return cmd
}
