package code

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/eval"
)

// Defaults is the agent configuration of a session: eval's coding agent
// (eval.CodingDefaults), told of a workspace folder rather than of a Go
// module, and with no step limit of its own (Session.Run counts each
// task's steps).
func Defaults() agent.Config {
	cfg := eval.CodingDefaults()
	cfg.System = strings.Replace(cfg.System, "a workspace folder that holds a small Go module", "a workspace folder", 1)
	cfg.Limits.MaxSteps = 0
	return cfg
}

// Session is the coding agent kept from task to task. Make one with
// NewSession.
type Session struct {
	cfg    agent.Config
	client llm.Client
	model  string
	steps  int
	ws     *tools.Workspace
	out    io.Writer
	// a is the agent of the conversation; nil before the first task and
	// after Reset.
	a   *agent.Agent
	rec *tools.Recorder
}

// NewSession returns a session of the agent cfg (Defaults, tuned) asking
// client, working in ws, that gives each task at most steps steps and
// streams each tool call and its result, then the final answer, to out
// (nil: nowhere).
func NewSession(cfg agent.Config, client llm.Client, ws *tools.Workspace, steps int, out io.Writer) (*Session, error) {
	switch {
	case client == nil:
		return nil, errors.New("code session: no model client")
	case ws == nil || ws.Dir == "":
		return nil, errors.New("code session: no workspace folder")
	case steps < 1:
		return nil, fmt.Errorf("code session: at least 1 step a task, not %d", steps)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("code session: %w", err)
	}
	if out == nil {
		out = io.Discard
	}
	s := &Session{cfg: cfg, client: client, steps: steps, ws: ws, out: out}
	if m, ok := client.(llm.Endpoint); ok {
		s.model = m.Model()
	}
	return s, nil
}

// Model is the model the session asks, as its endpoint names it ("" when
// the client does not say).
func (s *Session) Model() string { return s.model }

// Dir is the folder the agent works in.
func (s *Session) Dir() string { return s.ws.Dir }

// Reset starts a fresh conversation: the next task's agent remembers
// nothing of the tasks before.
func (s *Session) Reset() { s.a, s.rec = nil, nil }

// Result is what a task came to: grue code --json prints it.
type Result struct {
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

// Run gives the agent a task and runs it until it calls finish, the
// session's step limit stops it or ctx ends, streaming each tool call and
// result, then the final answer. A task stopped by ctx ends with StoppedBy
// agent.StopCancelled and no error, and the session goes on: the next
// task is told the user stopped this one. The error is for a task that
// could not start; how a task that ran ended is in the Result.
func (s *Session) Run(ctx context.Context, task string) (*Result, error) {
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
		out := s.out
		a.OnStep = func(st *agent.Step) {
			for _, rep := range st.Repairs {
				if rep.Kind == agent.RepairToolName && rep.To == "" {
					fmt.Fprintf(out, "> %s: no such tool; the tools are %s\n", rep.From, strings.Join(reg.Names(), ", "))
				}
			}
		}
		if err := a.Begin(eval.Listing(s.ws.Dir)); err != nil {
			return nil, fmt.Errorf("code session: %w", err)
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
	r := &Result{Task: task, Dir: s.ws.Dir, Model: s.model, Finished: a.Done, StoppedBy: res.StoppedBy,
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
