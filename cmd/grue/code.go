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
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/eval"
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
	cfg := eval.CodingDefaults()
	cfg.System = strings.Replace(cfg.System, "a workspace folder that holds a small Go module", "a workspace folder", 1)
	cfg.Limits.MaxSteps = 0 // each task's steps are counted by Run
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
	sess := &codeSession{cfg: cfg, client: client, steps: f.steps, out: stdout,
		ws: &tools.Workspace{Dir: dir, Env: eval.TaskEnv()}}
	if m, ok := client.(llm.Endpoint); ok {
		sess.model = m.Model()
	}
	if f.task != "" {
		return codeOnce(cmd.Context(), sess, f, stdout)
	}
	return codeLoop(cmd.Context(), sess, stdin, stdout, stderr)
}

// codeOnce is grue code --task: one task, then the exit status.
func codeOnce(ctx context.Context, sess *codeSession, f codeFlags, stdout io.Writer) error {
	if f.json {
		sess.out = io.Discard
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	r, err := sess.run(ctx, f.task)
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
func codeLoop(ctx context.Context, sess *codeSession, stdin io.Reader, stdout, stderr io.Writer) error {
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
	fmt.Fprintf(stdout, "grue code: model %s, working in %s\nType a task; :new starts afresh, Ctrl-C stops a task, Ctrl-D leaves.\n", sess.model, sess.ws.Dir)
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
			sess.a = nil
			fmt.Fprintln(stdout, "(a fresh conversation)")
			continue
		}
		r, err := sess.runInterruptible(ctx, line)
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

// codeSession is grue code's agent, kept from task to task.
type codeSession struct {
	cfg    agent.Config
	client llm.Client
	model  string
	steps  int
	ws     *tools.Workspace
	out    io.Writer
	// a is the agent of the conversation; nil before the first task and
	// after :new.
	a   *agent.Agent
	rec *tools.Recorder
}

// codeResult is what a task came to: grue code --json prints it.
type codeResult struct {
	Task      string       `json:"task"`
	Dir       string       `json:"dir"`
	Model     string       `json:"model"`
	Finished  bool         `json:"finished"`
	Answer    string       `json:"answer,omitempty"`
	StoppedBy string       `json:"stopped_by"`
	Steps     int          `json:"steps"`
	ToolCalls []tools.Call `json:"tool_calls"`
	Tokens    llm.Usage    `json:"tokens"`
	Cost      float64      `json:"cost"`
	Error     string       `json:"error,omitempty"`
}

// runInterruptible runs a task, stopping it at Ctrl-C (SIGINT).
func (s *codeSession) runInterruptible(ctx context.Context, task string) (*codeResult, error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	return s.run(ctx, task)
}

// run gives the agent a task and runs it until it calls finish, a limit
// stops it or ctx ends, streaming each tool call and result to s.out,
// then the final answer.
func (s *codeSession) run(ctx context.Context, task string) (*codeResult, error) {
	if s.a == nil {
		a := eval.NewCodingAgent(s.cfg)
		a.LLM, a.Model = s.client, s.model
		base := eval.TaskTools(s.ws)
		reg := &tools.Registry{}
		for _, name := range base.Names() {
			t, _ := base.Get(name)
			reg.Add(streamTool{Tool: t, w: s.out})
		}
		s.rec = tools.Record(reg)
		a.Tools = reg
		a.Label = "code"
		// A call of a tool that does not exist reaches no streamTool:
		// say so, or the step would print nothing.
		a.OnStep = func(st *agent.Step) {
			for _, rep := range st.Repairs {
				if rep.Kind == agent.RepairToolName && rep.To == "" {
					fmt.Fprintf(s.out, "> %s: no such tool; the tools are %s\n", rep.From, strings.Join(reg.Names(), ", "))
				}
			}
		}
		if err := a.Begin(eval.Listing(s.ws.Dir)); err != nil {
			return nil, err
		}
		s.a = a
	} else {
		// The next task of the conversation: the turns so far stay in
		// the agent's memory.
		s.a.Done = false
		s.a.Observation = "A new task. " + eval.Listing(s.ws.Dir)
	}
	a := s.a
	a.Builder = eval.CodingPrompt{Task: task}
	calls, usage, cost := s.rec.Len(), a.Usage, a.Cost
	first := len(a.History)
	res, err := a.Run(ctx, s.steps)
	if res == nil {
		return nil, err
	}
	r := &codeResult{Task: task, Dir: s.ws.Dir, Model: s.model, Finished: a.Done, StoppedBy: res.StoppedBy,
		Steps: len(a.History) - first, ToolCalls: s.rec.Calls()[calls:], Tokens: subUsage(a.Usage, usage), Cost: a.Cost - cost, Error: res.Error}
	if res.StoppedBy == agent.StopCancelled {
		r.Error = ""
		// The cancelled step's call never got its answer: the next task
		// starts from a clean state.
		a.Warning = "The user stopped the last task."
	}
	if n := len(a.History); n > first && a.History[n-1].Tool == "finish" {
		r.Answer, _ = a.History[n-1].Args["summary"].(string)
	}
	if r.Finished {
		fmt.Fprintf(s.out, "\n%s\n", strings.TrimSpace("Done. "+r.Answer))
	}
	return r, nil
}

// subUsage returns u less v: the tokens one task used.
func subUsage(u, v llm.Usage) llm.Usage {
	return llm.Usage{PromptTokens: u.PromptTokens - v.PromptTokens, CompletionTokens: u.CompletionTokens - v.CompletionTokens,
		TotalTokens: u.TotalTokens - v.TotalTokens, ReasoningTokens: u.ReasoningTokens - v.ReasoningTokens}
}

// streamTool prints each call of its tool as it starts, and its result
// when it comes.
type streamTool struct {
	tools.Tool
	w io.Writer
}

func (t streamTool) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	name := t.Spec().Name
	if name != "finish" {
		fmt.Fprintf(t.w, "> %s %s\n", name, describeArgs(name, args))
	}
	r, err := t.Tool.Call(ctx, args)
	if name == "finish" {
		return r, err
	}
	text := r.Text
	if err != nil {
		text = "error: " + err.Error()
	}
	fmt.Fprintln(t.w, cli.Indent(clipLines(strings.TrimRight(text, "\n"), 20), "  "))
	return r, err
}

// describeArgs shows a call's arguments in a line: a file's path and
// size rather than its whole text.
func describeArgs(tool string, args map[string]any) string {
	if tool == "write_file" {
		p, _ := args["path"].(string)
		c, _ := args["content"].(string)
		return fmt.Sprintf("%s (%d bytes)", p, len(c))
	}
	if c, ok := args["command"].(string); ok {
		return c
	}
	if p, ok := args["path"].(string); ok {
		return p
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// clipLines keeps the first n lines of s and says how many more there
// were.
func clipLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n[%d more lines]", len(lines)-n)
}
