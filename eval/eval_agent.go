package eval

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
)

// The coding agent: grue's ReAct agent with a coding prompt, the
// workspace tools and a finish tool, and the reference policy that plays a
// task's known solution through the same tools.

// DefaultSteps bounds a task's episode when neither Options nor
// the agent's limits say otherwise.
const DefaultSteps = 30

// CodingSystem is the coding agent's system prompt. The answer format and
// the tools are added by the prompt builder.
const CodingSystem = `You are a careful software engineer. You work in a workspace folder that holds a small Go module, and you solve the task you are given there.

You act only through tools, one tool call per turn:
- read_file reads a file, or lists a folder's entries ({"path": "."} lists the workspace);
- write_file creates or replaces a whole file;
- run_shell runs a shell command in the workspace (go build, go test, go run, ls, cat) and shows its output and exit status;
- finish says that the task is done.

Check your work: build it, run it and test it before you finish. Paths are relative to the workspace; nothing outside it counts. When the task is done, call finish with a one-line summary.`

// CodingTextFormat is the coding prompt's answer format for the text
// protocol; the tools' list follows it.
const CodingTextFormat = `RESPOND IN EXACTLY THIS FORMAT, with no markdown and nothing else:
THOUGHT: <your brief reasoning about what to do next>
TOOL: <one tool name>
ARGS: <the tool's arguments as one JSON object; write newlines in strings as \n>

Examples:
THOUGHT: I should see what the workspace holds.
TOOL: read_file
ARGS: {"path": "."}

THOUGHT: The tests will tell me what is wrong.
TOOL: run_shell
ARGS: {"command": "go test ./..."}`

// CodingDefaults returns the coding agent's settings: the text protocol,
// the whole conversation kept (a task is short, and the agent must
// remember what it wrote), replies up to 2000 tokens (a file fits), no
// game repairs (verbs, loops), temperature 0 and DefaultSteps steps.
func CodingDefaults() agent.Config {
	t := 0.0
	return agent.Config{
		Temperature: &t,
		MaxTokens:   2000,
		System:      CodingSystem,
		Protocol:    agent.ProtocolText,
		Memory:      "conversation",
		Limits:      agent.Limits{MaxSteps: DefaultSteps},
	}
}

// NewCodingAgent returns an agent with cfg's settings that prompts as a
// coding agent (CodingPrompt). The caller gives it an LLM or a Policy;
// RunTask gives it its tools and the task.
func NewCodingAgent(cfg agent.Config) *agent.Agent {
	a := agent.New(cfg)
	a.Builder = CodingPrompt{}
	return a
}

// CodingPrompt is the coding agent's prompt: the system prompt with the
// answer format and the tools, the remembered turns, then a user message
// with the task (repeated every step, so that no memory strategy loses
// it), the last tool result and any warning. RunTask sets Task.
type CodingPrompt struct {
	// Task is the task's prompt.
	Task string
	// TextFormat tells a text-protocol model how to answer
	// (CodingTextFormat when empty).
	TextFormat string
}

// Messages returns the system message, the context and the task message.
func (p CodingPrompt) Messages(in agent.PromptInput) []llm.Message {
	f := p.TextFormat
	if f == "" {
		f = CodingTextFormat
	}
	msgs := agent.DefaultPrompt{TextFormat: f}.Messages(in)
	msgs[len(msgs)-1].Content = p.state(in)
	return msgs
}

func (p CodingPrompt) state(in agent.PromptInput) string {
	var b strings.Builder
	if t := strings.TrimSpace(p.Task); t != "" {
		fmt.Fprintf(&b, "TASK:\n%s\n\n", t)
	}
	fmt.Fprintf(&b, "[Step %d]\n\n", in.Step)
	obs := strings.TrimSpace(in.Observation)
	shown := false
	if n := len(in.Context); n > 0 && obs != "" {
		shown = strings.HasSuffix(strings.TrimSpace(in.Context[n-1].Content), obs)
	}
	switch {
	case shown:
	case in.Step == 1:
		fmt.Fprintf(&b, "%s\n\n", obs)
	default:
		fmt.Fprintf(&b, "Last tool result:\n%s\n\n", obs)
	}
	if in.Warning != "" {
		fmt.Fprintf(&b, "WARNING: %s\n\n", in.Warning)
	}
	if in.Protocol == agent.ProtocolNative {
		b.WriteString("What do you do next? Call one tool.")
	} else {
		b.WriteString("What do you do next? Answer with THOUGHT, TOOL and ARGS.")
	}
	return b.String()
}

// Turn is DefaultPrompt's: the call, then the tool's result.
func (p CodingPrompt) Turn(s *agent.Step) []llm.Message {
	return agent.DefaultPrompt{}.Turn(s)
}

// FinishTool is finish: the agent says the task is done, which ends its
// episode (its result's structured content says "done": true).
type FinishTool struct{}

// Spec describes finish.
func (FinishTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "finish",
		Description: "Say that the task is done, with a one-line summary of what you did. This ends your work: the task is then checked.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"summary": map[string]any{"type": "string", "description": "what you did, in one line"},
			},
		},
	}
}

// Call ends the episode.
func (FinishTool) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	summary, _ := args["summary"].(string)
	text := "Finished."
	if s := strings.TrimSpace(summary); s != "" {
		text = "Finished: " + s
	}
	return tools.Result{Text: text, Structured: map[string]any{"done": true}}, nil
}

// notDone wraps a workspace tool so that its results say "done": false:
// the agent reads a game's end from a result's text when its structured
// content does not say ("GAME OVER"), and a file or a command's output
// may hold any text.
type notDone struct{ tools.Tool }

func (t notDone) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	r, err := t.Tool.Call(ctx, args)
	s := maps.Clone(r.Structured)
	if s == nil {
		s = map[string]any{}
	}
	s["done"] = false
	r.Structured = s
	return r, err
}

// TaskTools returns the registry a coding agent works with in w:
// read_file, write_file, run_shell and finish.
func TaskTools(w *tools.Workspace) *tools.Registry {
	reg := &tools.Registry{}
	for _, t := range w.Tools() {
		reg.Add(notDone{t})
	}
	reg.Add(FinishTool{})
	return reg
}

// ReferencePolicy plays a task's reference solution, then finish: a
// baseline that proves each task solvable through the agent's own tools,
// and its verifier willing to accept a right answer.
type ReferencePolicy struct {
	Actions []agent.Action
	next    int
}

// NewReferencePolicy returns the reference policy of t.
func NewReferencePolicy(t Task) *ReferencePolicy {
	acts := make([]agent.Action, 0, len(t.Reference)+1)
	acts = append(acts, t.Reference...)
	acts = append(acts, agent.Action{Thought: "the reference solution is in place", Tool: "finish",
		Args: map[string]any{"summary": "applied the reference solution of " + t.ID}})
	return &ReferencePolicy{Actions: acts}
}

// Name is "reference".
func (p *ReferencePolicy) Name() string { return "reference" }

// Next returns the next action of the solution, and agent.ErrDone after
// the last.
func (p *ReferencePolicy) Next(ctx context.Context, v agent.View) (agent.Action, error) {
	if p.next >= len(p.Actions) {
		return agent.Action{}, agent.ErrDone
	}
	a := p.Actions[p.next]
	p.next++
	a.Args = maps.Clone(a.Args)
	return a, nil
}
