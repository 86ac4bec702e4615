package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"slices"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// unsafeName matches what may not go in a file name.
var unsafeName = lazyregexp.New(`[^A-Za-z0-9._-]+`)

// GamePrefix prefixes a task's ID in its [harness.EpisodeRecord]'s Game:
// "eval/hello_world".
const GamePrefix = "eval/"

// DefaultVerifyTimeout limits each command a verifier runs.
const DefaultVerifyTimeout = 2 * time.Minute

// Options are the settings of an evaluation.
type Options struct {
	// Variant names what is evaluated in the records: a model or a
	// policy. Empty: the agent's policy's name, else its model, else
	// "llm".
	Variant string `json:"variant,omitempty"`
	// Seed is the records' seed (and LLM seed): the trial's number.
	Seed int64 `json:"seed,omitempty"`
	// Trials is how many times Run runs each task, trial i (from 0)
	// with seed Seed+i, so that grue exp compare tables each task's pass
	// rate with an interval; 0 means once. RunTask runs one trial.
	Trials int `json:"trials,omitempty"`
	// MaxSteps bounds each task's episode (the agent's Limits.MaxSteps,
	// else DefaultSteps, when 0).
	MaxSteps int `json:"max_steps,omitempty"`
	// Out is the run directory that results.jsonl and the trajectory
	// files go to; empty writes none.
	Out string `json:"out,omitempty"`
	// Keep leaves each task's workspace on disk (TaskResult.Workspace
	// says where) instead of removing it: for debugging.
	Keep bool `json:"keep,omitempty"`
	// ShellTimeout limits each of the agent's run_shell commands
	// (tools.DefaultShellTimeout when 0); VerifyTimeout each command of
	// the verifier (DefaultVerifyTimeout when 0).
	ShellTimeout  time.Duration `json:"shell_timeout,omitempty"`
	VerifyTimeout time.Duration `json:"verify_timeout,omitempty"`
	// OnResult, when set, is called with each task's result as soon as
	// it is known (Run).
	OnResult func(*TaskResult) `json:"-"`
	// Version is grue's version, stored in every record
	// (TaskResult.Record); "" stores [harness.DefaultVersion]. The grue
	// command gives its own.
	Version string `json:"version,omitempty"`
}

// TaskResult is how an agent did on one task.
type TaskResult struct {
	Task    string `json:"task"`
	Variant string `json:"variant"`
	Model   string `json:"model,omitempty"`
	// Policy is what played ("llm" for a model, else the baseline);
	// BaseURL the model's endpoint, credentials masked; PriceSource
	// where Cost's price comes from (harness.PriceSourceOf: "unknown"
	// for a model with no known price, whose Cost is unknown, not 0).
	Policy      string `json:"policy,omitempty"`
	BaseURL     string `json:"base_url,omitempty"`
	PriceSource string `json:"price_source,omitempty"`
	Seed        int64  `json:"seed"`
	// Pass is the verifier's verdict; Verdict says why.
	Pass    bool    `json:"pass"`
	Verdict Verdict `json:"verdict"`
	// Steps are the agent's steps; ToolCalls every tool call it made,
	// in order, with its arguments, result and duration.
	Steps     int          `json:"steps"`
	ToolCalls []tools.Call `json:"tool_calls"`
	// Finished is true when the agent called finish; StoppedBy says why
	// its episode ended (agent.Stop*).
	Finished  bool      `json:"finished"`
	StoppedBy string    `json:"stopped_by"`
	Tokens    llm.Usage `json:"tokens"`
	Cost      float64   `json:"cost"`
	// Duration is the agent's episode; VerifyDuration the verifier's run.
	// In JSON they are duration_ms and verify_duration_ms, in
	// milliseconds, and Started is in UTC to the millisecond, as in
	// every file grue writes.
	Duration       time.Duration `json:"-"`
	VerifyDuration time.Duration `json:"-"`
	Started        time.Time     `json:"started"`
	// Error is why the episode ended early (the model could not be
	// reached): the verifier still ran on what was done.
	Error string `json:"error,omitempty"`
	// Workspace is the kept workspace (Options.Keep); "" once removed.
	Workspace string `json:"workspace,omitempty"`
	// Trajectory is the trajectory file, relative to the run directory
	// ("" when no Out was given).
	Trajectory string `json:"trajectory,omitempty"`
	// Run is the agent's whole episode: every step's prompt, reply and
	// tool result.
	Run *agent.RunResult `json:"-"`
	// GrueVersion is the grue that ran the task (Options.Version), for
	// the record.
	GrueVersion string `json:"grue_version,omitempty"`
}

// Score is 1 for a pass and 0 for a fail.
func (r *TaskResult) Score() int {
	if r.Pass {
		return 1
	}
	return 0
}

// Record returns the result as a [harness.EpisodeRecord], the experiments'
// format: game "eval/<task>", final score 1 for a pass and 0 for a fail
// out of a maximum of 1, victory a pass (so that grue exp compare counts
// passes as won), game completed when the agent called finish, moves the
// number of tool calls, and the score after every step (0 until the last,
// which has the verdict's).
func (r *TaskResult) Record() harness.EpisodeRecord {
	rec := harness.EpisodeRecord{
		Variant:        r.Variant,
		Game:           GamePrefix + r.Task,
		Seed:           r.Seed,
		LLMSeed:        r.Seed,
		Policy:         r.Policy,
		Model:          r.Model,
		BaseURL:        r.BaseURL,
		PriceSource:    r.PriceSource,
		GrueRevision:   harness.BuildRevision(),
		FinalScore:     r.Score(),
		MaxScore:       1,
		Moves:          len(r.ToolCalls),
		Steps:          r.Steps,
		GameCompleted:  r.Finished,
		Victory:        r.Pass,
		FirstPointStep: -1,
		Tokens:         r.Tokens,
		Cost:           r.Cost,
		DurationMS:     (r.Duration + r.VerifyDuration).Milliseconds(),
		Error:          r.Error,
		Attempts:       1,
		Started:        r.Started,
		Finished:       r.Started.Add(r.Duration + r.VerifyDuration),
		Trajectory:     r.Trajectory,
		GrueVersion:    r.GrueVersion,
	}
	if rec.GrueVersion == "" {
		rec.GrueVersion = harness.DefaultVersion
	}
	if r.Run != nil {
		rec.EstimatedTokens = r.Run.EstimatedTokens
		for i := range r.Run.History {
			if harness.InvalidAction(&r.Run.History[i]) {
				rec.InvalidActions++
			}
		}
	}
	if r.Steps > 0 {
		rec.ScoreByStep = make([]int, r.Steps)
		rec.ScoreByStep[r.Steps-1] = r.Score()
		if r.Pass {
			rec.FirstPointStep = r.Steps
		}
	}
	return rec
}

// Trajectory is what a task's trajectory file holds: what a
// [harness.Trajectory] holds (so [harness.ReadTrajectory] reads it), and
// the task's prompt, the verdict and every tool call with its duration.
type Trajectory struct {
	Variant   string       `json:"variant"`
	Game      string       `json:"game"`
	Seed      int64        `json:"seed"`
	LLMSeed   int64        `json:"llm_seed"`
	Task      string       `json:"task"`
	Prompt    string       `json:"prompt"`
	Verdict   Verdict      `json:"verdict"`
	ToolCalls []tools.Call `json:"tool_calls"`
	*agent.RunResult
}

// trajectoryHead is a Trajectory without its RunResult.
type trajectoryHead struct {
	Variant   string       `json:"variant"`
	Game      string       `json:"game"`
	Seed      int64        `json:"seed"`
	LLMSeed   int64        `json:"llm_seed"`
	Task      string       `json:"task"`
	Prompt    string       `json:"prompt"`
	Verdict   Verdict      `json:"verdict"`
	ToolCalls []tools.Call `json:"tool_calls"`
}

// MarshalJSON writes the trajectory as one object: its own fields, then
// the RunResult's.
func (t Trajectory) MarshalJSON() ([]byte, error) {
	return t.RunResult.JSONWith(trajectoryHead{t.Variant, t.Game, t.Seed, t.LLMSeed, t.Task, t.Prompt, t.Verdict, t.ToolCalls})
}

// UnmarshalJSON reads a trajectory file (see agent.RunResult.UnmarshalJSON).
func (t *Trajectory) UnmarshalJSON(b []byte) error {
	var h trajectoryHead
	if err := json.Unmarshal(b, &h); err != nil {
		return err
	}
	r := new(agent.RunResult)
	if err := json.Unmarshal(b, r); err != nil {
		return err
	}
	*t = Trajectory{h.Variant, h.Game, h.Seed, h.LLMSeed, h.Task, h.Prompt, h.Verdict, h.ToolCalls, r}
	return nil
}

// RunTask runs agent a, a fresh one, on task t: it makes a fresh temporary workspace,
// plants the task's files, gives a the workspace tools (TaskTools) and the
// task (a CodingPrompt gets it; a DefaultPrompt, the game prompt, is
// replaced by one), runs the episode until the agent calls finish or a
// limit stops it, then verifies a copy of the workspace with the hidden
// files planted and the agent's test files left out (Task.Check), and
// removes the workspace
// unless opts.Keep. With opts.Out it appends the record to the run
// directory's results.jsonl and writes the trajectory file. An agent with
// no seed of its own is given opts.Seed as its LLM seed, the record's.
//
// A failed episode (a model that cannot be reached) is a result with its
// Error set, verified all the same. The error is for a task that could not
// be run at all (no workspace, a setup that failed, results that cannot be
// written) or a cancelled ctx.
func RunTask(ctx context.Context, a *agent.Agent, t Task, opts Options) (*TaskResult, error) {
	if a == nil {
		return nil, fmt.Errorf("task %s: no agent", t.ID)
	}
	if t.Verify == nil {
		return nil, fmt.Errorf("task %s: no verifier", t.ID)
	}
	if n := len(a.History); n > 0 {
		return nil, fmt.Errorf("task %s: the agent has played %d steps already: give each task a fresh agent", t.ID, n)
	}
	dir, err := os.MkdirTemp("", "grue-eval-"+unsafeName.ReplaceAllString(t.ID, "_")+"-")
	if err != nil {
		return nil, fmt.Errorf("task %s: workspace: %w", t.ID, err)
	}
	res := &TaskResult{Task: t.ID, Seed: opts.Seed, Started: time.Now(), Workspace: dir, GrueVersion: opts.Version}
	if !opts.Keep {
		defer func() {
			if os.RemoveAll(dir) == nil {
				res.Workspace = ""
			}
		}()
	}
	if err := t.Setup(dir); err != nil {
		return nil, err
	}
	env := TaskEnv()
	ws := &tools.Workspace{Dir: dir, ShellTimeout: opts.ShellTimeout, Env: env}
	reg := TaskTools(ws)
	rec := tools.Record(reg)

	a.Tools = reg
	switch b := a.Builder.(type) {
	case CodingPrompt:
		b.Task = t.Prompt
		a.Builder = b
	case agent.DefaultPrompt, nil:
		a.Builder = CodingPrompt{Task: t.Prompt}
	}
	if a.Label == "" {
		a.Label = "task " + t.ID
	}
	if a.Seed == nil {
		seed := int(opts.Seed)
		a.Seed = &seed
	}
	if err := a.Begin(Listing(dir)); err != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	steps := opts.MaxSteps
	if steps <= 0 {
		steps = a.Limits.MaxSteps
	}
	if steps <= 0 {
		steps = DefaultSteps
	}
	run, err := a.Run(ctx, steps)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	res.Run = run
	res.Steps, res.StoppedBy, res.Duration = run.Steps, run.StoppedBy, run.Duration
	res.Tokens, res.Cost, res.Error = run.Tokens, run.Cost, run.Error
	res.Finished = run.GameCompleted
	res.ToolCalls = rec.Calls()
	res.Variant, res.Model = variantOf(a, opts.Variant)
	res.Policy, res.PriceSource = harness.PolicyLLM, harness.PriceNone
	if a.Policy != nil {
		res.Policy = a.Policy.Name()
	} else {
		res.BaseURL, res.PriceSource = harness.EndpointOf(a.LLM), harness.PriceSourceOf(a.LLM, a.Model)
	}

	start := time.Now()
	res.Verdict = t.Check(ctx, dir, env, opts.VerifyTimeout)
	res.VerifyDuration = time.Since(start)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("task %s: verify: %w", t.ID, ctx.Err())
	}
	res.Pass = res.Verdict.Pass

	if opts.Out != "" {
		if err := writeEvalResult(opts.Out, t, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// variantOf names what was evaluated: the option, the policy, the model.
func variantOf(a *agent.Agent, variant string) (name, model string) {
	if a.Policy == nil {
		model = a.Model
	}
	switch {
	case variant != "":
		return variant, model
	case a.Policy != nil:
		return a.Policy.Name(), model
	case a.Model != "":
		return a.Model, model
	}
	return "llm", model
}

// Listing is what a coding agent sees first, before the task's
// prompt is repeated to it every step: the workspace's files.
func Listing(dir string) string {
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			rel += "/"
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if len(files) == 0 {
		return "The workspace is empty."
	}
	const most = 50
	if len(files) > most {
		files = append(files[:most:most], fmt.Sprintf("... and %d more", len(files)-most))
	}
	return "The workspace holds:\n" + strings.Join(files, "\n")
}

// writeEvalResult writes res's trajectory file and appends its record.
func writeEvalResult(out string, t Task, res *TaskResult) error {
	res.Trajectory = filepath.ToSlash(filepath.Join(harness.TrajectoriesDir, unsafeName.ReplaceAllString(res.Variant, "_"),
		fmt.Sprintf("eval-%s_%d.json", unsafeName.ReplaceAllString(t.ID, "_"), res.Seed)))
	path := filepath.Join(out, filepath.FromSlash(res.Trajectory))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("eval results: %w", err)
	}
	rec := res.Record()
	tr := Trajectory{Variant: rec.Variant, Game: rec.Game, Seed: rec.Seed, LLMSeed: rec.LLMSeed,
		Task: t.ID, Prompt: t.Prompt, Verdict: res.Verdict, ToolCalls: res.ToolCalls, RunResult: res.Run}
	b, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return fmt.Errorf("eval results: trajectory of %s: %w", t.ID, err)
	}
	if err := atomicfile.Write(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("eval results: trajectory of %s: %w", t.ID, err)
	}
	if err := harness.AppendRecord(filepath.Join(out, harness.ResultsFile), rec); err != nil {
		return fmt.Errorf("eval results: %w", err)
	}
	return nil
}

// Run runs each task with a fresh agent from newAgent, one after the
// other, opts.Trials times (trial i with seed opts.Seed+i), and returns
// their results in order; opts.OnResult sees each as it comes. It runs
// trial by trial, every task of a trial before the next trial, so that an
// evaluation stopped early has run its tasks equally often. It stops at
// the first task that cannot be run at all, or when ctx ends, returning
// the results so far with the error.
func Run(ctx context.Context, tasks []Task, newAgent func(Task) (*agent.Agent, error), opts Options) ([]*TaskResult, error) {
	if newAgent == nil {
		return nil, errors.New("eval: no agent maker")
	}
	if opts.Trials < 0 {
		return nil, fmt.Errorf("eval: negative trials %d", opts.Trials)
	}
	if opts.Out != "" {
		if err := os.MkdirAll(opts.Out, 0o755); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	}
	var out []*TaskResult
	for trial := range max(opts.Trials, 1) {
		o := opts
		o.Seed = opts.Seed + int64(trial)
		for _, t := range tasks {
			if err := ctx.Err(); err != nil {
				return out, fmt.Errorf("eval: %w", err)
			}
			a, err := newAgent(t)
			if err != nil {
				return out, fmt.Errorf("eval: task %s: %w", t.ID, err)
			}
			r, err := RunTask(ctx, a, t, o)
			if r != nil {
				out = append(out, r)
				if opts.OnResult != nil {
					opts.OnResult(r)
				}
			}
			if err != nil {
				return out, fmt.Errorf("eval: %w", err)
			}
		}
	}
	return out, nil
}

// Summary totals an evaluation's results. Tasks counts results: a
// task run in three trials counts three times.
type Summary struct {
	Variants []string `json:"variants"`
	Tasks    int      `json:"tasks"`
	// Trials is the number of seeds the results were run with.
	Trials    int `json:"trials"`
	Passed    int `json:"passed"`
	Errors    int `json:"errors"`
	Steps     int `json:"steps"`
	ToolCalls int `json:"tool_calls"`
	// Duration is the episodes' and verifiers' wall time: duration_ms
	// in JSON, in milliseconds.
	Duration time.Duration `json:"-"`
	Tokens   llm.Usage     `json:"tokens"`
	Cost     float64       `json:"cost"`
	// CostUnknown is how many results have a model with no known price
	// (TaskResult.CostUnknown): Cost is then a lower bound.
	CostUnknown int `json:"cost_unknown,omitempty"`
}

// CostUnknown reports whether r's cost is unknown: its model has no known
// price.
func (r *TaskResult) CostUnknown() bool { return r.PriceSource == harness.PriceUnknown }

// CostString is r's cost as a person should read it: "$0.0012", or
// "cost unknown" for a model with no known price, never $0.0000.
func (r *TaskResult) CostString() string {
	if r.CostUnknown() {
		return "cost unknown"
	}
	return fmt.Sprintf("$%.4f", r.Cost)
}

// Summarize totals results.
func Summarize(results []*TaskResult) Summary {
	var s Summary
	seeds := map[int64]bool{}
	for _, r := range results {
		if r == nil {
			continue
		}
		s.Tasks++
		if !seeds[r.Seed] {
			seeds[r.Seed] = true
			s.Trials++
		}
		if r.Pass {
			s.Passed++
		}
		if r.Error != "" {
			s.Errors++
		}
		if !slices.Contains(s.Variants, r.Variant) {
			s.Variants = append(s.Variants, r.Variant)
		}
		s.Steps += r.Steps
		s.ToolCalls += len(r.ToolCalls)
		s.Duration += r.Duration + r.VerifyDuration
		s.Tokens = s.Tokens.Add(r.Tokens)
		s.Cost += r.Cost
		if r.CostUnknown() {
			s.CostUnknown++
		}
	}
	return s
}

// PassRate is the fraction of tasks passed (0 with no tasks).
func (s Summary) PassRate() float64 {
	if s.Tasks == 0 {
		return 0
	}
	return float64(s.Passed) / float64(s.Tasks)
}

// String returns the summary in one line: "2/3 passed (66.7%), 12 steps,
// 14 tool calls, 8.1s, 5230 tokens, $0.0031", with "in 3 trials" after
// the pass rate when there were several; a cost of unknown price says so
// ("cost unknown", or "at least $X" when only some are).
func (s Summary) String() string {
	trials := ""
	if s.Trials > 1 {
		trials = fmt.Sprintf(" in %d trials", s.Trials)
	}
	cost := fmt.Sprintf("$%.4f", s.Cost)
	switch {
	case s.CostUnknown == s.Tasks && s.Tasks > 0:
		cost = "cost unknown (no known price)"
	case s.CostUnknown > 0:
		cost = fmt.Sprintf("at least $%.4f (%d of unknown price)", s.Cost, s.CostUnknown)
	}
	line := fmt.Sprintf("%d/%d passed (%.1f%%)%s, %d steps, %d tool calls, %s, %d tokens, %s",
		s.Passed, s.Tasks, 100*s.PassRate(), trials, s.Steps, s.ToolCalls, s.Duration.Round(100*time.Millisecond),
		max(s.Tokens.TotalTokens, s.Tokens.PromptTokens+s.Tokens.CompletionTokens), cost)
	if s.Errors > 0 {
		line += fmt.Sprintf(", %d with errors", s.Errors)
	}
	return line
}
