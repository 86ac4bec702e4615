package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/eval"
	"github.com/grue-lab/grue/eval/code"
	"github.com/grue-lab/grue/internal/cli"
)

// codeFlags are grue code's command line: its own, and grue agent's
// model flags.
type codeFlags struct {
	cli.ModelFlags
	dir      string
	task     string
	json     bool
	steps    int
	protocol string
}

// codePrompt is grue code's prompt.
const codePrompt = "code> "

func newCodeCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f codeFlags
	cmd := &cobra.Command{
		Use:   "code [--dir DIR] [--task TEXT] [flags]",
		Short: "Work with the coding agent: type a task, watch it read, write and run",
		Long: `grue code runs the coding agent (the agent of grue eval) on tasks you type.
Each line is a task; the agent works in DIR (--dir, by default created_files
in the current folder, made if missing) with read_file, write_file and
run_shell, confined as in grue eval (tools.Workspace: paths stay inside DIR,
commands run without secrets in the environment, with time and resource
limits, in their own namespaces where the system allows). Each tool call
and its result are printed as they happen, then the agent's final answer.

The conversation carries over from task to task: the agent remembers what
it did. :new starts afresh; Ctrl-C stops the task running and keeps the
session; Ctrl-D (or :quit) leaves. Lines are kept in a history.

--task TEXT runs one task and exits: status 0 when the agent finished, 1
when it did not (an error, or the step limit); --json prints the result as
JSON instead of the stream.

The model comes from --model and --base-url or the environment
(OPENAI_API_KEY, OPENAI_BASE_URL, GRUE_MODEL; HF_TOKEN alone selects the
Hugging Face router).`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCode(cmd, f, stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.dir, "dir", "created_files", "the folder the agent works in (made if missing)")
	fl.StringVar(&f.task, "task", "", "run this one task and exit")
	fl.BoolVar(&f.json, "json", false, "with --task: print the result as JSON")
	fl.IntVar(&f.steps, "steps", eval.DefaultSteps, "the most steps the agent may take on each task")
	fl.StringVar(&f.protocol, "protocol", "", "how the model answers: text (THOUGHT/TOOL/ARGS) or native (tool calls)")
	f.ModelFlags.AddFlags(cmd, eval.CodingDefaults().MaxTokens)
	cli.CompleteWords(cmd, "protocol", agent.ProtocolText, agent.ProtocolNative)
	return cmd
}

func runCode(cmd *cobra.Command, f codeFlags, stdin io.Reader, stdout, stderr io.Writer) error {
	if f.steps < 1 {
		return cli.UsageError{Err: fmt.Errorf("--steps must be at least 1, not %d", f.steps)}
	}
	if f.json && f.task == "" {
		return cli.UsageError{Err: errors.New("--json goes with --task")}
	}
	cfg := code.Defaults()
	if f.protocol != "" {
		cfg.Protocol = f.protocol
	}
	if cmd.Flags().Changed("temperature") {
		t := f.Temperature
		cfg.Temperature = &t
	}
	s := f.LLMSeed
	cfg.Seed = &s
	if f.MaxTokens > 0 {
		cfg.MaxTokens = f.MaxTokens
	}
	cfg.ReasoningEffort = f.ReasoningEffort
	extra, err := cli.ParseExtraBody(f.ExtraBody)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	cfg.ExtraBody = extra
	if err := cfg.Validate(); err != nil {
		return cli.UsageError{Err: err}
	}
	client, err := f.ModelFlags.Client(cmd)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	dir, err := filepath.Abs(f.dir)
	if err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	out := stdout
	if f.json {
		out = io.Discard // the result instead of the stream
	}
	sess, err := code.NewSession(cfg, client, &tools.Workspace{Dir: dir, Env: eval.TaskEnv()}, f.steps, out)
	if err != nil {
		return err
	}
	if f.task != "" {
		return codeOnce(cmd.Context(), sess, f, stdout)
	}
	return codeLoop(cmd.Context(), sess, stdin, stdout, stderr)
}

// codeOnce is grue code --task: one task, then the exit status.
func codeOnce(ctx context.Context, sess *code.Session, f codeFlags, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	r, err := sess.Run(ctx, f.task)
	if err != nil {
		return err
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	switch {
	case r.Error != "":
		return fmt.Errorf("the task ended in an error: %s", r.Error)
	case !r.Finished:
		return fmt.Errorf("the agent did not finish (stopped by %s)", r.StoppedBy)
	}
	return nil
}

// codeLoop is interactive grue code: a task per line.
func codeLoop(ctx context.Context, sess *code.Session, stdin io.Reader, stdout, stderr io.Writer) error {
	var history string
	if d, err := os.UserConfigDir(); err == nil {
		if os.MkdirAll(filepath.Join(d, "grue"), 0o755) == nil {
			history = filepath.Join(d, "grue", "code_history")
		}
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt: codePrompt, HistoryFile: history, HistorySearchFold: true, InterruptPrompt: "^C", EOFPrompt: "",
		Stdin: io.NopCloser(stdin), Stdout: stdout, Stderr: stderr,
	})
	if err != nil {
		return fmt.Errorf("start the terminal: %w", err)
	}
	defer rl.Close()
	fmt.Fprintf(stdout, "grue code: model %s, working in %s\nType a task; :new starts afresh, Ctrl-C stops a task, Ctrl-D leaves.\n", sess.Model(), sess.Dir())
	for {
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("read a line: %w", err)
		}
		line = strings.TrimSpace(line)
		switch line {
		case "":
			continue
		case ":quit", ":q":
			return nil
		case ":new":
			sess.Reset()
			fmt.Fprintln(stdout, "(a fresh conversation)")
			continue
		}
		r, err := runInterruptible(ctx, sess, line)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "error: %v\n", err)
		case r.StoppedBy == agent.StopCancelled:
			fmt.Fprintln(stdout, "(stopped; the session goes on)")
		case r.Error != "":
			fmt.Fprintf(stderr, "error: %s\n", r.Error)
		case !r.Finished:
			fmt.Fprintf(stdout, "(the agent did not finish: stopped by %s)\n", r.StoppedBy)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// runInterruptible runs a task, stopping it at Ctrl-C (SIGINT).
func runInterruptible(ctx context.Context, sess *code.Session, task string) (*code.Result, error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	return sess.Run(ctx, task)
}
