package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
)

// scriptAgent returns an agent whose policy plays commands in order.
func scriptAgent(commands ...string) *agent.Agent {
	cfg := agent.Defaults()
	cfg.Tools = nil // every game tool
	a := agent.New(cfg)
	a.Policy = agent.NewWalkthrough(commands)
	return a
}

// lanternWalkthrough is the built-in story's solution.
func lanternWalkthrough(t *testing.T) []string {
	t.Helper()
	cmds, err := agent.Walkthrough("lantern")
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

// gameState asks the game itself (not the agent) where it stands.
func gameState(t *testing.T, e *Episode) string {
	t.Helper()
	res, err := e.Client.CallTool(context.Background(), "memory", nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Text
}

func TestEpisodeRecord(t *testing.T) {
	ctx := context.Background()
	wt := lanternWalkthrough(t)
	// Two commands the parser refuses, then the walkthrough's first ten.
	cmds := append([]string{"frobnicate the lamp", "xyzzy"}, wt[:10]...)
	ep, err := NewEpisode(scriptAgent(cmds...), "lantern", 3)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	if _, err := ep.Step(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := ep.Run(ctx, 11)
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps != 12 || res.StoppedBy != agent.StopSteps {
		t.Fatalf("played %d steps, stopped by %s; want 12 by steps", res.Steps, res.StoppedBy)
	}
	rec := ep.Record()
	if rec.Game != "lantern" || rec.Seed != 3 || rec.Steps != 12 || len(rec.ScoreByStep) != 12 {
		t.Errorf("record: %+v", rec)
	}
	if rec.GrueVersion != DefaultVersion {
		t.Errorf("an episode with no Version recorded grue %q, want %q", rec.GrueVersion, DefaultVersion)
	}
	ep.Version = "1.2.3"
	if v := ep.Record().GrueVersion; v != "1.2.3" {
		t.Errorf("an episode of grue 1.2.3 recorded grue %q", v)
	}
	if rec.InvalidActions != 2 {
		for _, s := range ep.Agent.History[:3] {
			t.Logf("step %d %v: %q", s.Step, s.Args, s.Observation)
		}
		t.Errorf("invalid actions = %d, want the 2 the parser refused", rec.InvalidActions)
	}
	if rec.FinalScore == 0 || rec.FinalScore != rec.ScoreByStep[11] || rec.MaxScore != 60 {
		t.Errorf("final score %d of %d, by step %v", rec.FinalScore, rec.MaxScore, rec.ScoreByStep)
	}
	// The first point is the first step whose score is above the one before.
	first := -1
	for i, s := range rec.ScoreByStep {
		if s > 0 {
			first = i + 1
			break
		}
	}
	if rec.FirstPointStep != first || first < 3 {
		t.Errorf("first point at step %d, score by step %v", rec.FirstPointStep, rec.ScoreByStep)
	}
	if rec.LocationsVisited < 2 || rec.LocationsVisited != len(rec.Locations) || rec.Moves < 10 {
		t.Errorf("rooms %d %v, moves %d", rec.LocationsVisited, rec.Locations, rec.Moves)
	}
	if rec.Failed() || rec.Attempts != 1 || rec.DurationMS < 0 || rec.Finished.Before(rec.Started) {
		t.Errorf("record: %+v", rec)
	}
	if _, err := NewEpisode(scriptAgent("look"), "no-such-game", 1); err == nil || !strings.Contains(err.Error(), "no-such-game") {
		t.Errorf("a game that is not there: %v", err)
	}
}

// TestEpisodeRecordVictory: a won game and a death both end the game, and
// only the win is a victory.
func TestEpisodeRecordVictory(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		commands []string
		victory  bool
	}{
		{"won", lanternWalkthrough(t), true},
		{"died", []string{"up", "jump"}, false},
	} {
		ep, err := NewEpisode(scriptAgent(c.commands...), "lantern", 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ep.Run(ctx, len(c.commands)+5); err != nil {
			t.Fatal(err)
		}
		rec := ep.Record()
		ep.Close()
		if !rec.GameCompleted || rec.Victory != c.victory {
			t.Errorf("%s: game completed %v, victory %v; want completed, victory %v (last reply %q)",
				c.name, rec.GameCompleted, rec.Victory, c.victory, ep.Agent.Observation)
		}
	}
}

func TestInvalidAction(t *testing.T) {
	cases := []struct {
		step agent.Step
		want bool
	}{
		{agent.Step{Tool: "play_action", Observation: "That's not a verb I recognise."}, true},
		{agent.Step{Tool: "play_action", Observation: "I don't know the word \"frob\".\n\n[Score: 0 | Moves: 3]"}, true},
		{agent.Step{Tool: "play_action", Observation: "You can't go that way."}, false},
		{agent.Step{Tool: "play_action", Observation: "Taken."}, false},
		{agent.Step{Tool: "teleport", ToolError: true, Observation: "no such tool"}, true},
		{agent.Step{Tool: "memory", Observation: "Current State: ... That's not a verb I recognise."}, false},
		{agent.Step{Tool: "play_action", Error: "model: connection refused"}, false},
	}
	for _, c := range cases {
		if got := InvalidAction(&c.step); got != c.want {
			t.Errorf("InvalidAction(%s %q, tool error %v, error %q) = %v", c.step.Tool, c.step.Observation, c.step.ToolError, c.step.Error, got)
		}
	}
}

func TestEpisodeFork(t *testing.T) {
	ctx := context.Background()
	wt := lanternWalkthrough(t)
	ep, err := NewEpisode(scriptAgent(wt...), "lantern", 7)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	var reported int
	ep.Agent.OnStep = func(*agent.Step) { reported++ }
	if _, err := ep.Run(ctx, 14); err != nil {
		t.Fatal(err)
	}
	alt, err := ep.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer alt.Close()
	if alt.Agent.OnStep != nil {
		t.Error("the fork kept the original's OnStep: its steps would be reported as the original's")
	}

	a, b := ep.Agent, alt.Agent
	if b.Observation != a.Observation || b.Score != a.Score || b.Moves != a.Moves || b.Location != a.Location || len(b.History) != len(a.History) {
		t.Fatalf("fork: observation %q score %d moves %d at %q (%d steps); original: %q %d %d %q (%d steps)",
			b.Observation, b.Score, b.Moves, b.Location, len(b.History), a.Observation, a.Score, a.Moves, a.Location, len(a.History))
	}
	if got, want := gameState(t, alt), gameState(t, ep); got != want {
		t.Fatalf("the forked game is elsewhere:\n%s\nthe original:\n%s", got, want)
	}

	// The fork goes its own way; the original goes on as before.
	alt.Agent.Policy = agent.NewWalkthrough([]string{"south", "south", "inventory"})
	if _, err := alt.Run(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Run(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if len(a.History) != 17 || len(b.History) != 17 {
		t.Fatalf("histories: %d and %d steps, want 17 each", len(a.History), len(b.History))
	}
	if reported != 17 {
		t.Errorf("the original's OnStep saw %d steps, want its own 17 and none of the fork's", reported)
	}
	for i := 0; i < 14; i++ {
		if a.History[i].Observation != b.History[i].Observation {
			t.Fatalf("step %d of the shared history differs", i+1)
		}
	}
	if a.History[14].Args["action"] == b.History[14].Args["action"] {
		t.Errorf("both played %v after the fork", a.History[14].Args)
	}
	if gameState(t, alt) == gameState(t, ep) {
		t.Error("after different commands the two games are in the same state")
	}
	// The walkthrough of the original went on from where it was.
	if got, want := a.History[14].Args["action"], wt[14]; got != want {
		t.Errorf("the original's 15th command is %v, want the walkthrough's %q", got, want)
	}

	// A fork of a walkthrough continues it, on its own copy.
	ep2, err := NewEpisode(scriptAgent(wt...), "lantern", 7)
	if err != nil {
		t.Fatal(err)
	}
	defer ep2.Close()
	if _, err := ep2.Run(ctx, 5); err != nil {
		t.Fatal(err)
	}
	f2, err := ep2.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	// Forks are labelled, so that a table of an episode and its forks
	// tells them apart; the original keeps its own label.
	ep2.Variant = "walk"
	f3, err := ep2.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer f3.Close()
	f4, err := f3.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer f4.Close()
	if alt.Variant != "fork1" || f2.Variant != "fork1" || f3.Variant != "walk/fork2" || f4.Variant != "walk/fork2/fork1" || ep2.Variant != "walk" {
		t.Errorf("fork labels %q, %q, %q, %q (original %q); want fork1, fork1, walk/fork2, walk/fork2/fork1 (walk)",
			alt.Variant, f2.Variant, f3.Variant, f4.Variant, ep2.Variant)
	}
	if r := f3.Record(); r.Variant != "walk/fork2" {
		t.Errorf("the fork's record names variant %q", r.Variant)
	}
	s1, _ := ep2.Step(ctx)
	s2, _ := f2.Step(ctx)
	if s1 == nil || s2 == nil || s1.Args["action"] != wt[5] || s2.Args["action"] != wt[5] || s1.Observation != s2.Observation {
		t.Errorf("after the fork both should play %q with the same result: %+v / %+v", wt[5], s1, s2)
	}
}

func TestEpisodePrompt(t *testing.T) {
	ctx := context.Background()
	client := llm.NewScripted().
		Text("THOUGHT: look around\nTOOL: play_action\nARGS: {\"action\": \"look\"}").
		Text("THOUGHT: go west\nTOOL: play_action\nARGS: {\"action\": \"west\"}")
	cfg := agent.Defaults()
	a := agent.New(cfg)
	a.LLM = client
	ep, err := NewEpisode(a, "lantern", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	msgs, err := ep.Prompt(ctx)
	if err != nil || len(msgs) == 0 {
		t.Fatalf("prompt: %v, %d messages", err, len(msgs))
	}
	if s, err := ep.Step(ctx); err != nil || s.Tool != "play_action" {
		t.Fatalf("step: %v %+v", err, s)
	}
	next, err := ep.Prompt(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, m := range next {
		all.WriteString(m.Content + "\n")
	}
	if obs := strings.TrimSpace(ep.Agent.Observation); obs == "" || !strings.Contains(all.String(), obs[:20]) {
		t.Errorf("the next prompt does not show the last observation %q:\n%s", obs, all.String())
	}
	if _, err := ep.Step(ctx); err != nil {
		t.Fatal(err)
	}
	// The script is spent: the next step fails, and the record says so.
	if _, err := ep.Step(ctx); err == nil {
		t.Fatal("a step with no answer left succeeded")
	}
	rec := ep.Record()
	if !rec.Failed() || !strings.Contains(rec.Error, "no answers left") || rec.Steps != 3 || len(rec.ScoreByStep) != 3 {
		t.Errorf("record after a failed step: error %q, %d steps, %v", rec.Error, rec.Steps, rec.ScoreByStep)
	}
}
