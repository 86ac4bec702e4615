package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/harness"
)

func task(t *testing.T, id string) Task {
	t.Helper()
	ts, err := FindTasks(id)
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// While the agent works, the hidden test files are nowhere in its
// workspace: neither a listing nor a search finds them. They appear only
// when the verifier runs, after the agent has finished.
func TestHiddenFilesAbsentWhileTheAgentRuns(t *testing.T) {
	for _, id := range []string{"fibonacci", "fix_the_bug"} {
		t.Run(id, func(t *testing.T) {
			tk := task(t, id)
			hidden := tk.HiddenFiles()
			if len(hidden) == 0 {
				t.Fatal("the task has no hidden files")
			}
			a := NewCodingAgent(CodingDefaults())
			p := &watcher{Policy: &ReferencePolicy{Actions: []agent.Action{
				{Tool: "read_file", Args: map[string]any{"path": "."}},
				{Tool: "run_shell", Args: map[string]any{"command": "ls -laR; grep -rl Hidden . || true"}},
			}}}
			a.Policy = p
			res, err := RunTask(context.Background(), a, tk, Options{Keep: true})
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(res.Workspace)
			if len(res.ToolCalls) != 2 {
				t.Fatalf("%d tool calls, want 2", len(res.ToolCalls))
			}
			seen := strings.Join(p.seen, "\n") // the first observation, then each result
			for _, c := range res.ToolCalls {
				seen += "\n" + c.Text
			}
			if !strings.Contains(seen, "go.mod") {
				t.Fatalf("the listings do not show the workspace: %s", seen)
			}
			for _, h := range hidden {
				if strings.Contains(seen, filepath.Base(h)) {
					t.Errorf("the agent saw the hidden file %s:\n%s", h, seen)
				}
				// They were planted in a copy of the workspace to verify,
				// after the agent's last step; the workspace kept is the
				// agent's, as it left it.
				if _, err := os.Stat(filepath.Join(res.Workspace, h)); err == nil {
					t.Errorf("hidden file %s is in the agent's workspace after verifying", h)
				}
			}
			if id == "fibonacci" && !strings.Contains(res.Verdict.Reason, "fib_hidden_test.go") {
				t.Errorf("verdict %q: the hidden tests did not run", res.Verdict.Reason)
			}
			if res.Pass || res.Finished || res.StoppedBy != agent.StopPolicy {
				t.Errorf("pass %v, finished %v, stopped by %s: want an unfinished failure", res.Pass, res.Finished, res.StoppedBy)
			}
		})
	}
}

// watcher is a policy that keeps every observation it is shown.
type watcher struct {
	agent.Policy
	seen []string
}

func (w *watcher) Next(ctx context.Context, v agent.View) (agent.Action, error) {
	w.seen = append(w.seen, v.Observation)
	return w.Policy.Next(ctx, v)
}

// Each task's workspace is a fresh temporary folder, removed afterwards
// unless kept.
func TestWorkspaceRemovedAfterwards(t *testing.T) {
	tk := task(t, "hello_world")
	where := func(keep bool) (*TaskResult, string) {
		a := NewCodingAgent(CodingDefaults())
		a.Policy = &ReferencePolicy{Actions: []agent.Action{{Tool: "run_shell", Args: map[string]any{"command": "pwd"}}}}
		res, err := RunTask(context.Background(), a, tk, Options{Keep: keep})
		if err != nil {
			t.Fatal(err)
		}
		return res, strings.TrimSpace(strings.Split(res.ToolCalls[0].Text, "\n")[0])
	}
	res, dir := where(false)
	if !strings.Contains(filepath.Base(dir), "grue-eval-hello_world-") {
		t.Fatalf("the workspace is %q, want a fresh temporary folder", dir)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the workspace %s is still there: %v", dir, err)
	}
	if res.Workspace != "" {
		t.Errorf("Workspace = %q for a removed workspace", res.Workspace)
	}

	// An agent is good for one task.
	a := NewCodingAgent(CodingDefaults())
	a.Policy = NewReferencePolicy(tk)
	if _, err := RunTask(context.Background(), a, tk, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := RunTask(context.Background(), a, tk, Options{}); err == nil || !strings.Contains(err.Error(), "fresh agent") {
		t.Errorf("a second task for one agent: %v", err)
	}

	res2, dir2 := where(true)
	defer os.RemoveAll(dir2)
	if dir2 == dir {
		t.Error("two runs shared a workspace")
	}
	if res2.Workspace == "" {
		t.Fatal("a kept workspace is not named")
	}
	if _, err := os.Stat(filepath.Join(res2.Workspace, "go.mod")); err != nil {
		t.Errorf("the kept workspace lacks its files: %v", err)
	}
}

// A model behind an OpenAI-compatible endpoint writes hello.go with
// write_file, runs it, and calls finish: the task passes, every tool call
// is recorded with its duration, the tokens are counted, and the result
// lands in a run directory that the experiments' tools read.
func TestEvalWithAScriptedModel(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Reply("THOUGHT: Let me see the workspace.\nTOOL: read_file\nARGS: {\"path\": \".\"}").
		Reply("this reply is not a tool call").
		Reply("THOUGHT: I write the program.\nTOOL: write_file\nARGS: {\"path\": \"hello.go\", \"content\": \"package main\\n\\nimport \\\"fmt\\\"\\n\\nfunc main() {\\n\\tfmt.Println(\\\"Hello, World!\\\")\\n}\\n\"}").
		Reply("THOUGHT: Check it.\nTOOL: run_shell\nARGS: {\"command\": \"go run hello.go\"}").
		Reply("THOUGHT: It works.\nTOOL: finish\nARGS: {\"summary\": \"wrote hello.go\"}")
	client, err := openai.New(llm.Config{Model: "scripted-model", BaseURL: srv.URL(), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var seen []*TaskResult
	results, err := Run(context.Background(), []Task{task(t, "hello_world")}, func(Task) (*agent.Agent, error) {
		a := NewCodingAgent(CodingDefaults())
		a.LLM, a.Model = client, "scripted-model"
		return a, nil
	}, Options{Out: out, OnResult: func(r *TaskResult) { seen = append(seen, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || len(seen) != 1 || seen[0] != results[0] {
		t.Fatalf("results %v, OnResult saw %v", results, seen)
	}
	r := results[0]
	if !r.Pass || !r.Finished || r.Steps != 5 {
		t.Fatalf("pass %v, finished %v, %d steps: %s", r.Pass, r.Finished, r.Steps, r.Verdict.Reason)
	}
	if r.Variant != "scripted-model" || r.Model != "scripted-model" {
		t.Errorf("variant %q, model %q", r.Variant, r.Model)
	}
	var called []string
	for _, c := range r.ToolCalls {
		called = append(called, c.Tool)
		if c.Duration <= 0 || c.Start.IsZero() {
			t.Errorf("%s: no duration recorded", c.Tool)
		}
	}
	// The unreadable reply called no tool: the model was told so.
	if got := strings.Join(called, " "); got != "read_file write_file run_shell finish" {
		t.Errorf("tool calls %s", got)
	}
	if w := r.Run.History[2].Warning; !strings.Contains(w, "could not be read as a tool call") || strings.Contains(w, "play_action") {
		t.Errorf("the warning after an unreadable reply is %q", w)
	}
	if r.Tokens.TotalTokens <= 0 {
		t.Errorf("tokens %+v, want the server's usage", r.Tokens)
	}

	// The model saw the task and its tools, never a game's.
	reqs := srv.Requests()
	sys, last := reqs[0].Messages[0].Content, reqs[0].Messages[len(reqs[0].Messages)-1].Content
	for _, want := range []string{"read_file", "write_file", "run_shell", "finish", "software engineer"} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
	if strings.Contains(sys, "play_action") || strings.Contains(last, "Score") {
		t.Errorf("the prompt speaks of games:\n%s\n%s", sys, last)
	}
	if !strings.Contains(last, "TASK:\nWrite a Go program, hello.go") || !strings.Contains(last, "go.mod") {
		t.Errorf("the first prompt lacks the task or the workspace's files:\n%s", last)
	}
	if final := reqs[len(reqs)-1].Messages; !strings.Contains(final[len(final)-1].Content, "TASK:\nWrite a Go program") {
		t.Error("the task is not repeated at the last step")
	}

	// The run directory: one record, and a trajectory file.
	rs, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 1 || len(rs.Problems) > 0 {
		t.Fatalf("results: %+v", rs)
	}
	rec := rs.Records[0]
	if rec.Game != "eval/hello_world" || rec.Variant != "scripted-model" || rec.FinalScore != 1 || rec.MaxScore != 1 ||
		rec.Steps != 5 || rec.Moves != 4 || rec.Tokens != r.Tokens || rec.InvalidActions != 1 || rec.FirstPointStep != 5 {
		t.Errorf("record %+v", rec)
	}
	if !rec.Victory {
		t.Error("a passed task is not recorded as won: grue exp compare would count it under Ended")
	}
	if rec.GrueVersion != harness.DefaultVersion {
		t.Errorf("record of grue %q, want %q: no Options.Version was given", rec.GrueVersion, harness.DefaultVersion)
	}
	// It says what ran: a model with no known price, at srv.
	if rec.Policy != harness.PolicyLLM || rec.BaseURL != srv.URL() || rec.PriceSource != harness.PriceUnknown || rec.GrueRevision == "" || rec.Seed != r.Seed {
		t.Errorf("record: policy %q, endpoint %q, price %q, revision %q, seed %d", rec.Policy, rec.BaseURL, rec.PriceSource, rec.GrueRevision, rec.Seed)
	}
	if got := r.CostString(); got != "cost unknown" {
		t.Errorf("a model with no known price costs %q, want cost unknown", got)
	}
	tr, err := harness.ReadTrajectory(out, rec)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Game != "eval/hello_world" || len(tr.History) != 5 {
		t.Errorf("trajectory: game %q, %d steps", tr.Game, len(tr.History))
	}
	var et Trajectory
	b, _ := os.ReadFile(filepath.Join(out, rec.Trajectory))
	if err := json.Unmarshal(b, &et); err != nil {
		t.Fatal(err)
	}
	if !et.Verdict.Pass || len(et.ToolCalls) != 4 || et.ToolCalls[1].Args["path"] != "hello.go" {
		t.Errorf("eval trajectory: verdict %+v, calls %+v", et.Verdict, et.ToolCalls)
	}
	c, err := harness.Compare(rs, "", harness.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	row, ok := c.Row("scripted-model", "eval/hello_world")
	if !ok || row.Episodes != 1 || row.Percent.Mean != 100 {
		t.Errorf("compare row %+v", row)
	}
}

// A model that never finishes is stopped at the step limit and judged on
// what it left; one that cannot be reached is a result with its error.
func TestEvalLimitsAndErrors(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: look again\nTOOL: read_file\nARGS: {\"path\": \".\"}")
	})
	client, _ := openai.New(llm.Config{Model: "m", BaseURL: srv.URL(), MaxRetries: -1})
	a := NewCodingAgent(CodingDefaults())
	a.LLM = client
	res, err := RunTask(context.Background(), a, task(t, "hello_world"), Options{MaxSteps: 3, Variant: "looker"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || res.Steps != 3 || res.StoppedBy != agent.StopSteps || res.Variant != "looker" {
		t.Errorf("pass %v, %d steps, stopped by %s, variant %s", res.Pass, res.Steps, res.StoppedBy, res.Variant)
	}
	if !strings.Contains(res.Verdict.Reason, "hello.go does not exist") {
		t.Errorf("reason %q", res.Verdict.Reason)
	}

	dead, _ := openai.New(llm.Config{Model: "m", BaseURL: "http://127.0.0.1:1/v1", MaxRetries: -1})
	b := NewCodingAgent(CodingDefaults())
	b.LLM = dead
	res, err = RunTask(context.Background(), b, task(t, "hello_world"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || res.Error == "" || res.StoppedBy != agent.StopError {
		t.Errorf("pass %v, error %q, stopped by %s", res.Pass, res.Error, res.StoppedBy)
	}
	if rec := res.Record(); !rec.Failed() || rec.FinalScore != 0 || rec.Victory {
		t.Errorf("record %+v", rec)
	}
}

// TestTaskResultRecordEstimates: a task whose model sent no usage keeps,
// in its record, how many of its tokens the agent estimated.
func TestTaskResultRecordEstimates(t *testing.T) {
	r := &TaskResult{Task: "hello_world", Variant: "local", Seed: 1, Pass: true, Steps: 2,
		Tokens: llm.Usage{TotalTokens: 300}, Run: &agent.RunResult{EstimatedTokens: 300}}
	rec := r.Record()
	if rec.EstimatedTokens != 300 || !rec.Victory {
		t.Errorf("record: estimated tokens %d, victory %v; want 300 and a pass as a win", rec.EstimatedTokens, rec.Victory)
	}
}

func TestSummarizeEval(t *testing.T) {
	s := Summarize([]*TaskResult{
		{Task: "a", Variant: "v", Pass: true, Steps: 3, ToolCalls: make([]tools.Call, 3), Tokens: llm.Usage{TotalTokens: 100}, Cost: 0.5},
		{Task: "b", Variant: "v", Steps: 2, ToolCalls: make([]tools.Call, 1), Tokens: llm.Usage{TotalTokens: 50}, Error: "model down"},
	})
	want := "1/2 passed (50.0%), 5 steps, 4 tool calls, 0s, 150 tokens, $0.5000, 1 with errors"
	if s.String() != want {
		t.Errorf("summary %q, want %q", s.String(), want)
	}
	// A model with no known price: its cost is unknown, not $0.0000.
	unknown := &TaskResult{Task: "c", Variant: "v", Steps: 1, PriceSource: harness.PriceUnknown}
	if got := Summarize([]*TaskResult{unknown}).String(); !strings.HasSuffix(got, "0 tokens, cost unknown (no known price)") {
		t.Errorf("summary of an unknown price: %q", got)
	}
	s = Summarize([]*TaskResult{{Task: "a", Variant: "v", Cost: 0.5, PriceSource: harness.PriceTable}, unknown})
	if got := s.String(); !strings.Contains(got, "at least $0.5000 (1 of unknown price)") {
		t.Errorf("summary with one unknown price: %q", got)
	}
}

// Trials run every task again with the next seeds, trial by trial; each
// trial's seed goes to the model and into the records, so that Compare
// gives each task a pass rate over the trials with an interval.
func TestEvalTrials(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	var mu sync.Mutex
	calls := map[int]int{}
	// The model solves hello_world when its seed is odd, and gives up
	// at once on fix_the_bug and when its seed is even.
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		mu.Lock()
		defer mu.Unlock()
		seed := -1
		if req.Seed != nil {
			seed = *req.Seed
		}
		calls[seed]++
		hello := strings.Contains(req.LastUser(), "hello.go")
		if hello && seed%2 == 1 && calls[seed] == 1 {
			return llmtest.Text("THOUGHT: write it\nTOOL: write_file\nARGS: {\"path\": \"hello.go\", \"content\": \"package main\\n\\nimport \\\"fmt\\\"\\n\\nfunc main() { fmt.Println(\\\"Hello, World!\\\") }\\n\"}")
		}
		calls[seed] = 0
		return llmtest.Text("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"done\"}")
	})
	client, err := openai.New(llm.Config{Model: "m", BaseURL: srv.URL(), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	tasks := []Task{task(t, "hello_world"), task(t, "fix_the_bug")}
	results, err := Run(context.Background(), tasks, func(Task) (*agent.Agent, error) {
		a := NewCodingAgent(CodingDefaults()) // no seed of its own: each trial's
		a.LLM, a.Model = client, "m"
		return a, nil
	}, Options{Out: out, Seed: 5, Trials: 3})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range results {
		order = append(order, fmt.Sprintf("%s/%d:%v", r.Task, r.Seed, r.Pass))
	}
	want := "hello_world/5:true fix_the_bug/5:false hello_world/6:false fix_the_bug/6:false hello_world/7:true fix_the_bug/7:false"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("results %s\nwant    %s", got, want)
	}
	seeds := map[int]bool{}
	for _, req := range srv.Requests() {
		if req.Seed != nil {
			seeds[*req.Seed] = true
		}
	}
	if len(seeds) != 3 || !seeds[5] || !seeds[6] || !seeds[7] {
		t.Errorf("seeds sent to the model: %v, want 5, 6 and 7", seeds)
	}
	if s := Summarize(results); s.Trials != 3 || s.Tasks != 6 || s.Passed != 2 || !strings.HasPrefix(s.String(), "2/6 passed (33.3%) in 3 trials, ") {
		t.Errorf("summary %+v: %s", s, s)
	}

	rs, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 6 || len(rs.Problems) > 0 {
		t.Fatalf("%d records, problems %v; want 2 tasks x 3 trials", rs.Len(), rs.Problems)
	}
	for _, r := range rs.Records {
		if r.LLMSeed != r.Seed {
			t.Errorf("%s: llm seed %d", r.Key(), r.LLMSeed)
		}
		if _, err := harness.ReadTrajectory(out, r); err != nil {
			t.Error(err)
		}
	}
	c, err := harness.Compare(rs, "", harness.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	row, ok := c.Row("m", "eval/hello_world")
	if !ok || row.Episodes != 3 || row.Percent.N != 3 || math.Abs(row.Percent.Mean-200.0/3) > 1e-9 || row.Percent.CI == nil ||
		row.Percent.CI.Lo != 0 || row.Percent.CI.Hi != 100 {
		t.Errorf("hello_world's pass rate: %+v (interval %+v); want 3 trials, 66.7%% [0, 100]", row.Percent, row.Percent.CI)
	}

	if _, err := Run(context.Background(), tasks, func(Task) (*agent.Agent, error) { return nil, nil }, Options{Trials: -1}); err == nil {
		t.Error("negative trials: no error")
	}
}
