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
		Use:   "export DIR --format " + strings.Join(export.FormatNames(), "|") + " [-o OUT]",
		Short: "Write a run directory's results in TALES, ATIF or Inspect format",
		Long: `Write the episodes of run directory DIR (a sharded one's shards merged)
in a format other tools read, into OUT (default DIR/export/FORMAT):

` + formatHelp() + `
The files written are listed on stdout. See docs/experiments.md.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(export.FormatNames(), format) {
				return cli.UsageError{Err: fmt.Errorf("--format %q: name one of %s", format, strings.Join(export.FormatNames(), ", "))}
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
	cmd.Flags().StringVar(&format, "format", "", "the format: "+strings.Join(export.FormatNames(), ", ")+" (required)")
	cli.CompleteWords(cmd, "format", export.FormatNames()...)
	cmd.Flags().StringVarP(&out, "out", "o", "", "the folder to write into (default DIR/export/FORMAT)")
	return cmd
}

// formatHelp lists export's formats with what each writes, for the help.
func formatHelp() string {
	var b strings.Builder
	for _, f := range export.Formats() {
		fmt.Fprintf(&b, "  %-8s %s\n", f.Name, strings.ReplaceAll(f.Doc, "\n", "\n           "))
	}
	return b.String()
}
