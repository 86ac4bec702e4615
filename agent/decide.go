package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
)

// Deciding: a model's reply, in the agent's protocol, made into the one
// call the step plays, with every repair on the way recorded.

// decision is a model's reply made into a call.
type decision struct {
	thought, tool string
	args          map[string]any
	callID        string
	repairs       []Repair
	warning       string
}

// decide reads the reply in the agent's protocol and repairs the call.
func (a *Agent) decide(r *llm.Reply, step int) decision {
	var p Parsed
	var callID string
	switch {
	case a.protocol() == ProtocolNative && len(r.ToolCalls) > 0:
		p, callID = parseNative(r)
		if callID == "" {
			callID = fmt.Sprintf("call_%d", step)
		}
	case a.protocol() == ProtocolNative:
		p = ParseText(r.Content)
		p.Repairs = append([]Repair{{Kind: RepairTextFallback, Detail: "no tool call in the reply: its text parsed"}}, p.Repairs...)
	case strings.TrimSpace(r.Content) == "" && len(r.ToolCalls) > 0:
		p, _ = parseNative(r)
		p.Repairs = append([]Repair{{Kind: RepairTextFallback, Detail: "a native tool call in the text protocol"}}, p.Repairs...)
	default:
		p = ParseText(r.Content)
	}
	if r.CutOff() {
		// An empty reply cut off at the token limit (a reasoning model
		// that spent its budget thinking) says so, not merely that it
		// could not be read.
		why := fmt.Sprintf("the reply was cut off at its token limit (finish_reason length) before any answer, after %d completion tokens", r.Usage.CompletionTokens)
		if r.Usage.ReasoningTokens > 0 || r.Reasoning != "" {
			why += fmt.Sprintf(" (%d of them reasoning)", r.Usage.ReasoningTokens)
		}
		why += ": raise max_tokens or lower reasoning_effort"
		p.Repairs = append([]Repair{{Kind: RepairCutOff, Detail: why}}, p.Repairs...)
	}
	d := a.resolve(p)
	d.callID = callID
	if r.CutOff() {
		d.warning = "Your last reply was cut off at its length limit before it gave any answer, so the agent looked around. Think briefly, then answer."
	}
	return d
}

// parseNative reads the first native tool call of r; more are ignored,
// and recorded.
func parseNative(r *llm.Reply) (Parsed, string) {
	c := r.ToolCalls[0]
	p := Parsed{Thought: strings.TrimSpace(r.Content), Tool: c.Name}
	for _, extra := range r.ToolCalls[1:] {
		p.repair(RepairExtra, extra.Name+" "+clip(extra.Arguments, 60), "", "a second tool call ignored")
	}
	raw := strings.TrimSpace(c.Arguments)
	if raw == "" || raw == "null" {
		return p, c.ID
	}
	switch raw[0] {
	case '{', '[', '"', '\'':
		p.readValue(raw)
	default:
		p.Bare = raw
		p.repair(RepairArgs, clip(raw, 60), "", "arguments not JSON: read as a bare command")
	}
	return p, c.ID
}

// resolve fits a parsed call to the agent's tools and the game: tool name,
// arguments, the command's spelling and verb, and loops.
func (a *Agent) resolve(p Parsed) decision {
	d := decision{thought: p.Thought, repairs: p.Repairs}
	known := a.Tools.Names()
	tool, rest, cmd, reps := fitTool(p.Tool, p.Args, p.Bare, known)
	d.repairs = append(d.repairs, reps...)
	args, bare := p.Args, p.Bare
	switch {
	case cmd != "":
		args, bare = map[string]any{"action": cmd}, ""
	case rest != "" && bare == "" && len(args) == 0:
		bare = rest
	}
	unreadable := slices.ContainsFunc(p.Repairs, func(r Repair) bool { return r.Kind == RepairDefault })
	if unreadable {
		d.warning = "Your last reply could not be read as a tool call, so the agent looked around. " + a.formatHint()
	}
	if tool == "" {
		d.warning = fmt.Sprintf("There is no tool %q. The tools are: %s.", p.Tool, strings.Join(known, ", "))
		if !slices.Contains(known, DefaultTool) {
			if unreadable {
				// Without play_action there is no look to fall back
				// on: the reply named no tool, so say that, not that
				// play_action is missing.
				d.warning = fmt.Sprintf("Your last reply could not be read as a tool call. %s The tools are: %s.", a.formatHint(), strings.Join(known, ", "))
			}
			d.tool, d.args = "", nil
			return d
		}
		tool, args, bare = DefaultTool, map[string]any{"action": DefaultAction}, ""
		d.repairs = append(d.repairs, Repair{Kind: RepairDefault, From: p.Tool, To: DefaultAction, Detail: "unknown tool: looked around instead"})
	}
	spec := llm.ToolSpec{Name: tool}
	if t, ok := a.Tools.Get(tool); ok {
		spec = t.Spec()
	}
	args, reps = fitArgs(spec, args, bare)
	d.repairs = append(d.repairs, reps...)
	d.tool, d.args = tool, args
	if tool != DefaultTool {
		return d
	}
	action, ok := args["action"].(string)
	switch v := args["action"].(type) {
	case string, nil:
	case []any:
		// ["north", "east"]: one command a step.
		if len(v) > 0 {
			action, ok = v[0].(string)
		}
		if ok {
			d.repairs = append(d.repairs, Repair{Kind: RepairArgs, From: fmt.Sprint(v), To: action, Detail: "a list of actions: the first played"})
		}
	default:
		action = fmt.Sprint(v)
		d.repairs = append(d.repairs, Repair{Kind: RepairArgs, From: action, To: action, Detail: "an action that was not a string"})
	}
	action, reps = cleanAction(action)
	d.repairs = append(d.repairs, reps...)
	if action == "" {
		action = DefaultAction
		d.repairs = append(d.repairs, Repair{Kind: RepairDefault, To: DefaultAction, Detail: "play_action without an action: looked around"})
		d.warning = "play_action needs an action, such as {\"action\": \"look\"}."
	}
	if len(a.Verbs) > 0 {
		if out, r := repairVerb(action, a.Verbs); r != nil {
			action = out
			d.repairs = append(d.repairs, *r)
		}
	}
	if a.looping(action) {
		d.repairs = append(d.repairs, Repair{Kind: RepairLoop, From: action, To: DefaultAction,
			Detail: fmt.Sprintf("the same command %d times in a row", a.LoopLimit)})
		d.warning = fmt.Sprintf("You repeated %q %d times in a row, so the agent looked around instead. Try something else.", action, a.LoopLimit)
		action = DefaultAction
	}
	if old, isStr := args["action"].(string); !isStr || old != action || len(args) != 1 {
		args = maps.Clone(args)
		if args == nil {
			args = map[string]any{}
		}
		args["action"] = action
		d.args = args
	}
	return d
}

// formatHint reminds the model of its protocol's answer format.
func (a *Agent) formatHint() string {
	if a.protocol() == ProtocolNative {
		return "Call one of the tools."
	}
	return "Answer with THOUGHT, TOOL and ARGS."
}

// looping reports whether playing action now would play it LoopLimit
// times in a row to no effect: the last LoopLimit-1 commands played (other
// tools in between do not count) were all action, and none of them took
// the player somewhere else (walking south down a long corridor is no
// loop). Looking is never a loop.
func (a *Agent) looping(action string) bool {
	if a.LoopLimit < 2 || sameCommand(action, DefaultAction) || sameCommand(action, "l") {
		return false
	}
	need := a.LoopLimit - 1
	for i := len(a.History) - 1; i >= 0 && need > 0; i-- {
		s := &a.History[i]
		if s.Error != "" || s.Tool != DefaultTool {
			continue
		}
		played, _ := s.Args["action"].(string)
		if !sameCommand(played, action) || a.locationBefore(i) != s.Location {
			return false
		}
		need--
	}
	return need == 0
}

// locationBefore is where the player was before step index i.
func (a *Agent) locationBefore(i int) string {
	for j := i - 1; j >= 0; j-- {
		if a.History[j].Error == "" {
			return a.History[j].Location
		}
	}
	return a.startLocation
}
