package main

import (
	"errors"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/repl"
	"github.com/grue-lab/grue/repl/workbench"
)

func newRunCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var o replOptions
	cmd := &cobra.Command{
		Use:   "run [--game STORY] [--seed N] [--model M] [--base-url URL] FILE.go|FILE.md [ARGS]",
		Short: "Run a Go script, or a saved notebook, with the REPL's bindings",
		Long: `Run a Go script with the REPL's bindings: FILE.go is a file of package
main whose func main runs, interpreted, with os.Args set to FILE.go and ARGS.
It imports grue's packages by their import paths. The exit status is the
script's os.Exit status, 1 when it fails to compile or panics, 0 otherwise.

FILE.md is a notebook that :save wrote: its go code blocks run in turn in a
fresh session set up as the notebook's header says (its game, seed,
policy, model and endpoint; --game, --seed, --policy, --model and
--base-url override them), stopping at the first cell that fails, which
the error names. Only the go blocks a reader of the rendered Markdown sees
run (not one inside an HTML comment). A header's base_url, which would
receive your API key, is used only when it is your own $OPENAI_BASE_URL
or with --trust-endpoint; otherwise grue run refuses and says so. With
--check, each cell's output must be the one saved below it in the
notebook (magics' aside): the first that differs fails the run, showing
both, so that a notebook in CI catches a changed result.

A script or a notebook is Go code, and runs with your full rights: it can
read and write your files, run programs, read your API keys from the
environment and send them anywhere. Run only scripts and notebooks you
have read or whose author you trust, as you would a program.

--model and --base-url reach a script as the environment variables
GRUE_MODEL and OPENAI_BASE_URL, which llm.ConfigFromEnv reads.`,
		Example: `  grue run scripts/memory_ab.go
  grue run notes.md`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.UsageError{Err: errors.New("missing FILE.go")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			quietInterpreterLog()
			if o.model != "" {
				os.Setenv("GRUE_MODEL", o.model)
			}
			if o.baseURL != "" {
				os.Setenv("OPENAI_BASE_URL", o.baseURL)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			wo := o.workbench(stdin, stdout, stderr)
			if !cmd.Flags().Changed("seed") {
				wo.Seed = 0 // a notebook's own, or 1
			}
			err := workbench.RunFile(ctx, args[0], args[1:], wo)
			if code, ok := repl.ExitStatus(err); ok {
				return cli.ExitStatus{Code: code}
			}
			return err
		},
	}
	f := cmd.Flags()
	f.SetInterspersed(false) // flags after FILE are the script's
	f.StringVar(&o.game, "game", "", "a notebook's game: a story name or path (default: the built-in story)")
	f.Int64Var(&o.seed, "seed", 1, "seed of a notebook game's random numbers")
	o.agentFlags(cmd)
	f.BoolVar(&o.trustEndpoint, "trust-endpoint", false, "let a notebook's header choose the endpoint (base_url) that receives your API key")
	f.BoolVar(&o.checkOutputs, "check", false, "a notebook's cells must print the outputs saved in it (as nbval checks a Jupyter notebook)")
	return cmd
}
