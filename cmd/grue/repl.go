package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/repl"
	"github.com/grue-lab/grue/repl/workbench"
)

// replOptions are the flags of grue itself, which starts the REPL.
type replOptions struct {
	game    string
	seed    int64
	noColor bool
	model   string
	baseURL string
	policy  string
	// trustEndpoint lets a notebook's header choose the endpoint (grue
	// run --trust-endpoint).
	trustEndpoint bool
	// checkOutputs compares a notebook's outputs with the saved ones
	// (grue run --check).
	checkOutputs bool
}

// agentFlags adds the flags that choose who plays the session's episode.
func (o *replOptions) agentFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.model, "model", "", "the model of the session's agent (default: $GRUE_MODEL)")
	f.StringVar(&o.baseURL, "base-url", "", "an OpenAI-compatible endpoint for the session's agent (default: $OPENAI_BASE_URL)")
	f.StringVar(&o.policy, "policy", "", "who plays the episode ep: one of "+strings.Join(harness.PolicyNames(), ", ")+" (default: llm when a model is configured, else explorer)")
}

// setupREPL makes grue without a subcommand start the notebook REPL, with
// its flags, and adds grue run.
func setupREPL(root *cobra.Command, stdin io.Reader, stdout, stderr io.Writer) {
	var o replOptions
	f := root.Flags()
	f.StringVar(&o.game, "game", "", "the session's game g: a story name or path (default: the built-in story)")
	f.Int64Var(&o.seed, "seed", 1, "seed of the game's random numbers")
	f.BoolVar(&o.noColor, "no-color", false, "print errors without colour")
	o.agentFlags(root)
	root.RunE = func(cmd *cobra.Command, args []string) error {
		return o.run(cmd.Context(), stdin, stdout, stderr)
	}
	root.AddCommand(newRunCmd(stdin, stdout, stderr))
}

// check refuses a --policy that is not one, as a usage error.
func (o replOptions) check() error {
	if o.policy != "" && !slices.Contains(harness.PolicyNames(), o.policy) {
		return cli.UsageError{Err: fmt.Errorf("unknown --policy %q (want %s)", o.policy, strings.Join(harness.PolicyNames(), ", "))}
	}
	return nil
}

// run starts a session and reads cells: from a terminal with prompts, line
// editing and history, or from anything else as a notebook that stops at
// the first error (see repl.RunPipe), with the banner on stderr.
func (o replOptions) run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	quietInterpreterLog()
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := workbench.New(o.workbench(stdin, stdout, stderr))
	if err != nil {
		return err
	}
	defer s.Close()
	in, isFile := stdin.(*os.File)
	out, outFile := stdout.(*os.File)
	if isFile && outFile && term.IsTerminal(int(in.Fd())) && term.IsTerminal(int(out.Fd())) {
		hist, err := repl.HistoryFile()
		if err != nil {
			hist = "" // no history rather than no REPL
		}
		return s.RunTerminal(ctx, repl.TerminalOptions{
			Stdin: in, Stdout: stdout, Stderr: stderr,
			HistoryFile: hist,
			Banner:      banner(s),
			NoColor:     o.noColor || os.Getenv("NO_COLOR") != "",
		})
	}
	// Not a terminal: the banner goes to stderr, so that a notebook's log
	// says who played, and stdout holds only the cells.
	fmt.Fprintf(stderr, "grue %s — %s\n", cli.Version(), s.Banner())
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	return s.RunPipe(ctx, stdin)
}

// workbench is the session's options: the game, who plays its episode,
// and its output and input.
func (o replOptions) workbench(stdin io.Reader, stdout, stderr io.Writer) workbench.Options {
	return workbench.Options{
		REPL: repl.Options{Stdout: stdout, Stderr: stderr, Stdin: stdin, CheckOutputs: o.checkOutputs},
		Game: o.game, Seed: o.seed, Model: o.model, BaseURL: o.baseURL, Policy: o.policy,
		Version: cli.Version(), TrustEndpoint: o.trustEndpoint,
	}
}

// banner is what the terminal REPL starts with: the version, the game,
// who plays the agent's episode, and the names a session starts with.
func banner(s *workbench.Session) string {
	return fmt.Sprintf("grue %s — %s\n%s; :help for help, Ctrl-D to leave.", cli.Version(), s.Banner(), workbench.SessionNames)
}

// quietInterpreterLog drops the line that yaegi's compiler logs through
// the standard logger before it panics on code it does not support
// ("nil type" for a range over an integer); the REPL reports the panic
// itself, in words. Other log lines pass.
func quietInterpreterLog() {
	log.SetOutput(logFilter{os.Stderr})
}

type logFilter struct{ w io.Writer }

func (f logFilter) Write(p []byte) (int, error) {
	if bytes.HasSuffix(p, []byte(" nil type\n")) || bytes.Equal(p, []byte("nil type\n")) {
		return len(p), nil
	}
	return f.w.Write(p)
}
