package workbench

import (
	"context"
	"strings"
	"testing"
)

// TestCellEpisodeGetsSessionModel: an episode a cell builds with an agent
// of agent.Defaults gets the session's model, and plays through it.
func TestCellEpisodeGetsSessionModel(t *testing.T) {
	srv := modelServer(t, "test-model", "THOUGHT: north\nTOOL: play_action\nARGS: {\"action\": \"north\"}")
	s, _ := newSessionWith(t, Options{})
	evalOK(t, s, `e2, err := harness.NewEpisode(agent.New(agent.Defaults()), "lantern", 1)`)
	if out := evalOK(t, s, `e2.Agent.Model`); out != "test-model\n" {
		t.Errorf("the cell's episode's model is %q, want the session's", out)
	}
	evalOK(t, s, `ep = e2`)
	if out := evalOK(t, s, ":step"); !strings.Contains(out, "-> Cave Mouth") {
		t.Errorf(":step on the cell's episode printed %q", out)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want 1", n)
	}
	// An agent given a policy keeps it.
	evalOK(t, s, "a := agent.New(agent.Defaults()); a.Policy = agent.NewWalkthrough([]string{\"north\"})")
	evalOK(t, s, `e3, err := harness.NewEpisode(a, "lantern", 1)`)
	if out := evalOK(t, s, `e3.Agent.LLM == nil`); out != "true\n" {
		t.Errorf("an agent with a policy got a model: %q", out)
	}
}

// TestBaselineWithoutItsTool: the explorer on an agent without the
// valid_actions tool is refused at harness.NewEpisode and at :step, and
// an agent with neither a model nor a policy gets a hint at :step.
func TestBaselineWithoutItsTool(t *testing.T) {
	noModel(t)
	s, _ := newSessionWith(t, Options{})
	out := evalOK(t, s, "a := agent.New(agent.Defaults()); a.Policy = agent.NewExplorer(1)\ne3, err := harness.NewEpisode(a, \"lantern\", 1)")
	if !strings.Contains(out, "err = harness.NewEpisode: the explorer policy needs the game tool valid_actions") {
		t.Errorf("NewEpisode of an explorer without valid_actions printed %q", out)
	}
	evalOK(t, s, "e4, _ := harness.NewEpisode(agent.New(agent.Defaults()), \"lantern\", 1)\nep = e4")
	_, err := s.Eval(context.Background(), ":step")
	if err == nil || !strings.Contains(err.Error(), "no model (LLM) and no Policy: give it a baseline, ep.Agent.Policy = agent.NewExplorer(1)") {
		t.Errorf(":step with neither model nor policy: %v", err)
	}
	evalOK(t, s, "ep.Agent.Policy = agent.NewExplorer(1)")
	_, err = s.Eval(context.Background(), ":step")
	if err == nil || !strings.Contains(err.Error(), "needs the game tool valid_actions, which this agent lacks") {
		t.Errorf(":step of an explorer without valid_actions: %v", err)
	}
}
