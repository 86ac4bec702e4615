package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/eval"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
)

// policyReference is grue eval's baseline: each task's known solution.
const policyReference = "reference"

// evalFlags are grue eval's command line.
type evalFlags struct {
	tasks    []string
	dir      string
	tags     []string
	check    string
	all      bool
	list     bool
	quiet    bool
	model    string
	baseURL  string
	out      string
	steps    int
	policy   string
	protocol string
	seed     int64
	trials   int
	keep     bool
}

func newEvalCmd(stdout, stderr io.Writer) *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval [--tasks DIR] [--task ID | --tag T | --all] [flags]",
		Short: "Evaluate a coding agent on grue's coding tasks",
		Long: `Evaluate the coding agent on coding tasks: each task plants files in a fresh
temporary workspace, the agent works there with read_file, write_file,
run_shell and finish, and a hidden verifier (tests the agent never saw)
decides whether it passed. The workspace is removed afterwards (--keep
leaves it for debugging).

For each task grue prints PASS or FAIL with the verifier's reason, the
agent's steps, tool calls, time and tokens; --quiet prints only the summary.
Results go to a run directory (--out, by default runs/eval-<time>) in the
format of experiments: results.jsonl (game eval/<task>, score 1 or 0 of 1,
variant the model or policy, seed the trial's --seed) and a trajectory file
per task with every tool call and its duration, so that grue exp compare
reads them. Running again into the same --out with another --seed adds
trials; with the same seed, the new records replace the old.

--trials N runs every task N times, trial by trial, with seeds --seed,
--seed+1, ... (each sent to the model as its seed), and prints each task's
pass rate with a bootstrap 95% interval, as grue exp compare tables it.

The model comes from --model and --base-url or the environment
(OPENAI_API_KEY, OPENAI_BASE_URL, GRUE_MODEL; HF_TOKEN alone selects the
Hugging Face router). --policy reference needs none: it applies each task's
known solution through the same tools, which shows that every task can be
solved and that every verifier accepts a right answer.

The exit status is 0 when every task ran, passed or not; 1 when a task
could not be run or its episode ended in an error (a model that could not
be reached).

--tasks DIR runs the task files of DIR (every *.yaml there) instead of the
built-in tasks; --tag T keeps the tasks tagged T. --check DIR checks the
task files of DIR: each reference solution must pass its verifier, and
each workspace as planted must fail it; the exit status is 1 when one does
not. docs/coding.md describes the task files.`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(cmd, f, stdout, stderr)
		},
	}
	// The built-in tasks' names come from parsing their YAML files, which
	// took more instructions than the rest of every grue command's
	// start-up: the help reads them when it is shown.
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long += "\n\nBuilt-in tasks: " + strings.Join(eval.TaskIDs(), ", ") + "."
		c.SetHelpFunc(nil)
		c.HelpFunc()(c, args)
	})
	fl := cmd.Flags()
	fl.StringSliceVar(&f.tasks, "task", nil, "the task to run (repeat, or separate with commas); default: all")
	fl.BoolVar(&f.all, "all", false, "run every task (the default)")
	fl.StringVar(&f.dir, "tasks", "", "run the task files (*.yaml) of this folder instead of the built-in tasks")
	fl.StringSliceVar(&f.tags, "tag", nil, "run the tasks with this tag (repeat, or separate with commas)")
	fl.StringVar(&f.check, "check", "", "check the task files of this folder: references pass, empty workspaces fail")
	fl.BoolVar(&f.list, "list", false, "list the tasks and exit")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print only the summary line")
	fl.StringVar(&f.model, "model", "", "the model (default: $GRUE_MODEL)")
	fl.StringVar(&f.baseURL, "base-url", "", "an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
	fl.StringVar(&f.out, "out", "", "the run directory for results (default runs/eval-<YYYYMMDD-HHMMSS>)")
	fl.IntVar(&f.steps, "steps", eval.DefaultSteps, "the most steps the agent may take on each task")
	fl.StringVar(&f.policy, "policy", "", "who works: llm or reference (default: llm)")
	fl.StringVar(&f.protocol, "protocol", "", "how the model answers: text (THOUGHT/TOOL/ARGS) or native (tool calls)")
	fl.Int64Var(&f.seed, "seed", 1, "the trial's number, recorded as its seed and sent to the model as its seed: run again with another to add trials")
	fl.IntVar(&f.trials, "trials", 1, "run each task this many times, with seeds --seed, --seed+1, ...")
	fl.BoolVar(&f.keep, "keep", false, "keep each task's workspace (its folder is printed)")
	return cmd
}

func runEval(cmd *cobra.Command, f evalFlags, stdout, stderr io.Writer) error {
	if f.check != "" {
		return checkTasks(cmd, f, stdout)
	}
	if f.all && len(f.tasks) > 0 {
		return cli.UsageError{Err: errors.New("--task and --all do not go together")}
	}
	if f.steps < 1 {
		return cli.UsageError{Err: fmt.Errorf("--steps must be at least 1, not %d", f.steps)}
	}
	if f.trials < 1 {
		return cli.UsageError{Err: fmt.Errorf("--trials must be at least 1, not %d", f.trials)}
	}
	tasks, err := selectTasks(f)
	if err != nil {
		return err
	}
	if f.list {
		for _, t := range tasks {
			fmt.Fprintf(stdout, "%-16s  %-20s  %s\n", t.ID, strings.Join(t.Tags, ","), t.Summary)
		}
		return nil
	}
	cfg := eval.CodingDefaults()
	if f.protocol != "" {
		cfg.Protocol = f.protocol
	}
	cfg.Limits.MaxSteps = f.steps // the model's seed is each trial's (eval.RunTask)
	if err := cfg.Validate(); err != nil {
		return cli.UsageError{Err: err}
	}

	var newAgent func(eval.Task) (*agent.Agent, error)
	variant := policyReference
	switch f.policy {
	case policyReference:
		newAgent = func(t eval.Task) (*agent.Agent, error) {
			a := eval.NewCodingAgent(cfg)
			a.Policy = eval.NewReferencePolicy(t)
			return a, nil
		}
	case "", cli.PolicyLLM:
		client, model, err := evalClient(f)
		if err != nil {
			return err
		}
		variant = model
		newAgent = func(eval.Task) (*agent.Agent, error) {
			a := eval.NewCodingAgent(cfg)
			a.LLM, a.Model = client, model
			return a, nil
		}
	default:
		return cli.UsageError{Err: fmt.Errorf("unknown --policy %q (want llm or reference)", f.policy)}
	}
	if slices.ContainsFunc(tasks, func(t eval.Task) bool { return slices.Contains(t.Tags, "go") }) {
		if _, err := eval.FindGo(); err != nil {
			return fmt.Errorf("tasks tagged go need the go command: %w", err)
		}
	}

	out := f.out
	if out == "" {
		out = harness.DefaultOut("eval", time.Now())
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	opts := eval.Options{Variant: variant, Seed: f.seed, Trials: f.trials, MaxSteps: f.steps, Out: out, Keep: f.keep,
		Version: cli.Version()}
	if !f.quiet {
		opts.OnResult = func(r *eval.TaskResult) { printTaskResult(stdout, r, f.trials > 1) }
	}
	results, err := eval.Run(ctx, tasks, newAgent, opts)
	if f.quiet && f.keep {
		// --keep promises the folders: --quiet leaves out all else.
		for _, r := range results {
			if r.Workspace != "" {
				fmt.Fprintf(stdout, "workspace of %s (seed %d): %s\n", r.Task, r.Seed, r.Workspace)
			}
		}
	}
	s := eval.Summarize(results)
	fmt.Fprintf(stdout, "%s: %s; results in %s\n", variant, s, out)
	if f.trials > 1 && !f.quiet && len(results) > 0 {
		if perr := printPassRates(stdout, results); perr != nil {
			err = errors.Join(err, perr)
		}
	}
	if err != nil {
		return err
	}
	if s.Errors > 0 {
		runs := "tasks"
		if f.trials > 1 {
			runs = "task runs"
		}
		return fmt.Errorf("%d of %d %s ended in an error (see %s)", s.Errors, s.Tasks, runs, out)
	}
	return nil
}

// selectTasks returns the tasks the flags name: the built-in ones or
// those of --tasks, kept by --task and --tag.
func selectTasks(f evalFlags) ([]eval.Task, error) {
	tasks := eval.Tasks()
	if f.dir != "" {
		var err error
		if tasks, err = eval.LoadTasks(f.dir); err != nil {
			return nil, err
		}
	}
	if len(f.tasks) > 0 {
		var err error
		if tasks, err = eval.SelectTasks(tasks, f.tasks...); err != nil {
			return nil, cli.UsageError{Err: fmt.Errorf("--task: %w", err)}
		}
	}
	if len(f.tags) > 0 {
		if tasks = eval.WithTag(tasks, f.tags...); len(tasks) == 0 {
			return nil, cli.UsageError{Err: fmt.Errorf("--tag: no task is tagged %s", strings.Join(f.tags, " or "))}
		}
	}
	return tasks, nil
}

// checkTasks is grue eval --check DIR: every task's reference must pass
// and its workspace as planted fail.
func checkTasks(cmd *cobra.Command, f evalFlags, stdout io.Writer) error {
	f.dir = f.check
	tasks, err := selectTasks(f)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	broken := 0
	for _, t := range tasks {
		c, err := eval.CheckTask(ctx, t, eval.Options{})
		if err != nil {
			return err
		}
		if c.OK() {
			fmt.Fprintf(stdout, "ok      %-16s  the reference passes; the empty workspace fails: %s\n", t.ID, clipLine(c.Empty.Reason, 200))
			continue
		}
		broken++
		fmt.Fprintf(stdout, "BROKEN  %-16s  %s\n", t.ID, clipLine(strings.Join(c.Problems, "; "), 400))
		if c.Output != "" {
			fmt.Fprintf(stdout, "        the verifier printed:\n")
			for _, l := range strings.Split(c.Output, "\n") {
				fmt.Fprintf(stdout, "        | %s\n", l)
			}
		}
	}
	if broken > 0 {
		return fmt.Errorf("%d of %d tasks in %s are broken", broken, len(tasks), f.check)
	}
	fmt.Fprintf(stdout, "%d tasks in %s are sound\n", len(tasks), f.check)
	return nil
}

// printPassRates prints each task's pass rate over the trials of results,
// with the bootstrap interval grue exp compare gives it (runs that ended
// in an error are left out, and counted).
func printPassRates(w io.Writer, results []*eval.TaskResult) error {
	var recs []harness.EpisodeRecord
	for _, r := range results {
		recs = append(recs, r.Record())
	}
	c, err := harness.Compare(harness.NewResultSet(recs...), "", harness.CompareOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Pass rate by task (mean [%.0f%% CI] over the trials, as grue exp compare tables it):\n", 100*c.Bootstrap.Level)
	for _, row := range c.Rows {
		p := row.Percent
		passed := 0
		for _, r := range recs {
			if r.Game == row.Game && !r.Failed() && r.FinalScore == r.MaxScore {
				passed++
			}
		}
		line := fmt.Sprintf("  %-12s  %d/%d passed", strings.TrimPrefix(row.Game, eval.GamePrefix), passed, p.N)
		if p.N > 0 {
			line += fmt.Sprintf("  %.1f%%", p.Mean)
			if p.CI != nil {
				line += fmt.Sprintf(" [%.1f, %.1f]", p.CI.Lo, p.CI.Hi)
			}
		}
		if row.Errors > 0 {
			line += fmt.Sprintf("  (%d with errors, left out)", row.Errors)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// evalClient builds the model's client from the flags and the
// environment, and names the model.
func evalClient(f evalFlags) (llm.Client, string, error) {
	lc := llm.ConfigFromEnv()
	if f.model != "" {
		lc.Model = f.model
	}
	if f.baseURL != "" {
		lc.BaseURL = f.baseURL
	}
	if lc.BaseURL != "" {
		// One call to /models: a server's one model is the default, and
		// a misspelt model fails before any task.
		checked, err := openai.CheckModel(context.Background(), lc)
		if errors.Is(err, openai.ErrNoModel) {
			return nil, "", fmt.Errorf("%w, or pass --model", err)
		}
		if err != nil {
			return nil, "", err
		}
		lc = checked
	}
	if !lc.Configured() {
		return nil, "", errors.New("no model is configured: set OPENAI_API_KEY, OPENAI_BASE_URL or HF_TOKEN (and GRUE_MODEL), or pass --model and --base-url; --policy reference runs the tasks' reference solutions without a model")
	}
	c, err := openai.New(lc)
	if err != nil {
		return nil, "", err
	}
	return c, lc.Model, nil
}

// printTaskResult prints one task's outcome: a line of figures, the
// verdict's reason, and the episode's error or the kept workspace.
func printTaskResult(w io.Writer, r *eval.TaskResult, seed bool) {
	mark := "FAIL"
	if r.Pass {
		mark = "PASS"
	}
	task := fmt.Sprintf("%-12s", r.Task)
	if seed {
		task += fmt.Sprintf("  seed %-3d", r.Seed)
	}
	tokens := strconv.Itoa(max(r.Tokens.TotalTokens, r.Tokens.PromptTokens+r.Tokens.CompletionTokens))
	if r.Run != nil && r.Run.EstimatedTokens > 0 {
		tokens = harness.EstimateMark + tokens // the model sent no usage: counted at an estimate
	}
	fmt.Fprintf(w, "%s  %s  %2d steps  %2d tool calls  %6s  %6s tokens  %s\n", mark, task, r.Steps, len(r.ToolCalls),
		(r.Duration + r.VerifyDuration).Round(100*time.Millisecond), tokens, r.CostString())
	fmt.Fprintf(w, "      %s\n", clipLine(r.Verdict.Reason, 300))
	if r.Error != "" {
		fmt.Fprintf(w, "      error: %s\n", clipLine(r.Error, 300))
	}
	if r.Workspace != "" {
		fmt.Fprintf(w, "      workspace: %s\n", r.Workspace)
	}
}

// clipLine makes s one line of at most n bytes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
