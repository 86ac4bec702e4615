package workbench

import (
	"strings"
	"testing"
)

// TestInterfacesFromCells: a type written in a cell implements each of
// the interfaces through which a researcher changes the agent (yaegi's
// wrapper types in bindings make it possible), and the agent uses it.
func TestInterfacesFromCells(t *testing.T) {
	noModel(t)
	for _, tc := range []struct {
		name  string
		cells []string
		check string // an expression that must print want
		want  string
	}{{
		name: "agent.Policy",
		cells: []string{`type northFirst struct{ calls int }
func (p *northFirst) Name() string { return "north-first" }
func (p *northFirst) Next(ctx context.Context, v agent.View) (agent.Action, error) {
	p.calls++
	return agent.Action{Thought: fmt.Sprintf("call %d at %s", p.calls, v.Location), Tool: "play_action", Args: map[string]any{"action": "north"}}, nil
}
p := &northFirst{}
ep.Agent.Policy = p`, ":step 2"},
		check: `fmt.Sprint(p.calls, " ", ep.Agent.History[1].Policy, " ", ep.Agent.History[1].Thought, " ", ep.Agent.Location)`,
		want:  "2 north-first call 2 at Cave Mouth Narrow Passage",
	}, {
		name: "memory.Strategy",
		cells: []string{`type lastOne struct{ seen []int }
func (m *lastOne) Name() string { return "last-one" }
func (m *lastOne) Context(ctx context.Context, turns []memory.Turn) ([]llm.Message, error) {
	m.seen = append(m.seen, len(turns))
	if len(turns) == 0 {
		return nil, nil
	}
	return []llm.Message{{Role: llm.User, Content: "REMEMBERED: " + turns[len(turns)-1].Observation}}, nil
}
m := &lastOne{}
ep.Agent.Memory = m`, ":play west", ":play open toolbox", "msgs, _ := ep.Prompt(ctx)"},
		check: `fmt.Sprint(m.seen[len(m.seen)-1], " ", len(msgs), " ", strings.HasPrefix(msgs[1].Content, "REMEMBERED: You open the battered toolbox"))`,
		want:  "2 3 true",
	}, {
		name: "agent.PromptBuilder",
		cells: []string{`type terse struct{ agent.DefaultPrompt }
func (b terse) Messages(in agent.PromptInput) []llm.Message {
	return []llm.Message{{Role: llm.System, Content: "Be terse."}, {Role: llm.User, Content: fmt.Sprintf("step %d at %s: %s", in.Step, in.Location, in.Observation)}}
}
func (b terse) Turn(s *agent.Step) []llm.Message {
	return []llm.Message{{Role: llm.User, Content: "did " + fmt.Sprint(s.Args["action"])}}
}
ep.Agent.Builder = terse{}`, ":play north", "msgs, _ := ep.Prompt(ctx)"},
		check: `fmt.Sprint(len(msgs), " | ", msgs[0].Content, " | ", strings.SplitN(msgs[1].Content, "\n", 2)[0])`,
		want:  "2 | Be terse. | step 2 at Cave Mouth: Cave Mouth",
	}, {
		name: "llm.Client",
		cells: []string{`type canned struct{ got []llm.Request }
func (c *canned) Complete(ctx context.Context, req llm.Request) (*llm.Reply, error) {
	c.got = append(c.got, req)
	return &llm.Reply{Content: "THOUGHT: east looks homely\nTOOL: play_action\nARGS: {\"action\": \"east\"}"}, nil
}
c := &canned{}
ep.Agent.Policy = nil
ep.Agent.LLM = c`, ":step"},
		check: `fmt.Sprint(len(c.got), " ", c.got[0].Messages[0].Role, " ", ep.Agent.History[0].Thought, " ", ep.Agent.Location)`,
		want:  "1 system east looks homely Morwen's Cottage",
	}, {
		name: "tools.Tool",
		cells: []string{`type echo struct{ calls int }
func (e *echo) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "echo", Description: "Say the text back.", Parameters: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"}}}
}
func (e *echo) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	e.calls++
	return tools.Result{Text: fmt.Sprint("echo: ", args["text"])}, nil
}
e := &echo{}
ep.Agent.Tools.Add(e)
ep.Agent.Policy = nil
ep.Agent.LLM = llm.NewScripted().Text("THOUGHT: test the echo\nTOOL: echo\nARGS: {\"text\": \"hello\"}")`, ":step", "msgs, _ := ep.Prompt(ctx)"},
		check: `fmt.Sprint(e.calls, " ", ep.Agent.History[0].Observation, " ", strings.Contains(msgs[0].Content, "echo(text: string): Say the text back."))`,
		want:  "1 echo: hello true",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newSessionWith(t, Options{Policy: "explorer"})
			for _, c := range tc.cells {
				evalOK(t, s, c)
			}
			if got := strings.TrimSpace(evalOK(t, s, tc.check)); got != tc.want {
				t.Errorf("%s printed %q, want %q", tc.check, got, tc.want)
			}
		})
	}
}

// TestHarnessFromCells: an experiment configured, run, loaded back and
// compared from cells, as a researcher would at the REPL.
func TestHarnessFromCells(t *testing.T) {
	noModel(t)
	s, _ := newSessionWith(t, Options{Policy: "random"})
	if err := s.Define("out", t.TempDir()); err != nil {
		t.Fatal(err)
	}
	evalOK(t, s, `cfg := &harness.Config{Name: "repl", Variants: []harness.Variant{{Name: "walk", Policy: "walkthrough"}, {Name: "rand", Policy: "random"}}, Games: []string{"lantern"}, Trials: 2, MaxSteps: 40}`)
	evalOK(t, s, `rs, err := harness.Run(ctx, cfg, harness.RunOptions{Out: out})`)
	evalOK(t, s, `loaded, err := harness.LoadResults(out)`)
	evalOK(t, s, `c, err := harness.Compare(loaded, "walk", harness.CompareOptions{})`)
	got := evalOK(t, s, `fmt.Sprint(rs.Len(), loaded.Len(), " ", c.Leaderboard[0].Variant, " ", c.Leaderboard[0].MeanPercent)`)
	if got != "4 4 walk 100\n" {
		t.Errorf("the experiment from cells: %q, want 4 episodes run and loaded, walk first at 100%%", got)
	}
	if out := evalOK(t, s, ":table --csv c.Leaderboard"); !strings.HasPrefix(out, "Rank,Variant,MeanPercent") {
		t.Errorf(":table of the leaderboard: %q", out)
	}
}
