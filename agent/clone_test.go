package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game/mcp"
)

// forkOf clones a and gives the clone the tools of a new in-process game
// brought to a's state by replaying its history's game-changing calls, as
// harness.Episode.Fork does.
func forkOf(t testing.TB, a *Agent) *Agent {
	t.Helper()
	ctx := context.Background()
	c, err := mcp.NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, s := range a.History {
		if s.Error == "" && slices.Contains([]string{"play_action", "undo"}, s.Tool) {
			if _, err := c.CallTool(ctx, s.Tool, s.Args); err != nil {
				t.Fatal(err)
			}
		}
	}
	f := a.Clone()
	if f.Tools, err = tools.NewGameRegistry(ctx, c, a.Tools.Names()...); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestForkedBaselinesPlayOn: a fork of an agent playing a baseline and
// its original each play on as the un-forked agent would have, and the
// fork's steps do not move the original's policy.
func TestForkedBaselinesPlayOn(t *testing.T) {
	if testing.Short() {
		t.Skip("plays baselines with valid_actions before and after a fork (half a minute)")
	}
	// valid_actions, which random and explorer ask at each step, is some
	// 40 times slower under the race detector.
	before, after := 10, 10
	if raceEnabled {
		before, after = 2, 3
	}
	for _, tc := range []struct {
		name string
		make func() Policy
	}{
		{"random", func() Policy { return NewRandom(7) }}, // alive after 20 steps
		{"explorer", func() Policy { return NewExplorer(3) }},
		{"walkthrough", func() Policy { p, _ := NewWalkthroughFor("lantern"); return p }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			ref, err := policyAgent(t, tc.make()).Run(ctx, before+after)
			if err != nil || ref.Steps != before+after {
				t.Fatalf("reference run: %v, %d steps", err, ref.Steps)
			}
			want := commands(ref)[before:]

			a := policyAgent(t, tc.make())
			if _, err := a.Run(ctx, before); err != nil {
				t.Fatal(err)
			}
			f := forkOf(t, a)
			if f.Policy == a.Policy {
				t.Fatal("the fork shares the original's policy")
			}
			// The fork plays first: were the policy's state shared, the
			// original would then go on from where the fork left it.
			forked, err := f.Run(ctx, after)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := a.Run(ctx, after)
			if err != nil {
				t.Fatal(err)
			}
			if got := commands(forked)[before:]; !slices.Equal(got, want) {
				t.Errorf("the fork played\n%v\nwant\n%v", got, want)
			}
			if got := commands(orig)[before:]; !slices.Equal(got, want) {
				t.Errorf("after the fork's steps the original played\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// TestRandomCloneDrawsTheSame: a cloned random policy makes the same
// choices as its original from the point of the clone, whichever draws
// first.
func TestRandomCloneDrawsTheSame(t *testing.T) {
	va := &cannedTool{name: "valid_actions", res: tools.Result{Text: "Valid actions: a, b, c, d, e, f, g"}}
	v := View{Tools: tools.NewRegistry(va)}
	ctx := context.Background()
	draw := func(p Policy, n int) []string {
		var out []string
		for range n {
			act, err := p.Next(ctx, v)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, act.Args["action"].(string))
		}
		return out
	}
	ref := draw(NewRandom(9), 30)
	p := NewRandom(9)
	draw(p, 10)
	c := p.Clone()
	if got := draw(c, 20); !slices.Equal(got, ref[10:]) {
		t.Errorf("the clone drew %v, want %v", got, ref[10:])
	}
	if got := draw(p, 20); !slices.Equal(got, ref[10:]) {
		t.Errorf("after the clone's draws the original drew %v, want %v", got, ref[10:])
	}
}

// TestCloneHasNoOnStep: the hook set on an agent reports its steps, not a
// fork's; a fork given its own hook reports to that one.
func TestCloneHasNoOnStep(t *testing.T) {
	s := llm.NewScripted()
	s.Fallback = func(llm.Request) (*llm.Reply, error) { return &llm.Reply{Content: textCall("wait")}, nil }
	cfg := Defaults()
	cfg.LoopLimit = 0
	a := lanternAgent(t, cfg, s)
	var orig, fork []int
	a.OnStep = func(st *Step) { orig = append(orig, st.Step) }
	ctx := context.Background()
	if _, err := a.Run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	f := forkOf(t, a)
	if f.OnStep != nil {
		t.Fatal("the clone kept the original's OnStep")
	}
	if _, err := f.Run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(orig, []int{1, 2}) {
		t.Errorf("the original's hook saw steps %v; want 1 and 2, none of the fork's", orig)
	}
	f.OnStep = func(st *Step) { fork = append(fork, st.Step) }
	if _, err := f.Run(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fork, []int{5}) || len(orig) != 2 {
		t.Errorf("the fork's own hook saw %v, the original's %v; want [5] and 2 steps", fork, orig)
	}
}

// TestCloneSummarisesWithItsLLM: the memory strategy New builds (shared by
// a clone) writes the clone's summaries with the clone's LLM, once the
// clone is given another, and the original's with the original's.
func TestCloneSummarisesWithItsLLM(t *testing.T) {
	answer := func(cmd string) *llm.Scripted {
		s := llm.NewScripted()
		s.Fallback = func(req llm.Request) (*llm.Reply, error) {
			if strings.HasPrefix(req.Label, "memory summary") {
				return &llm.Reply{Content: "Went " + cmd + "."}, nil
			}
			return &llm.Reply{Content: textCall(cmd)}, nil
		}
		return s
	}
	summaries := func(s *llm.Scripted) int {
		n := 0
		for _, r := range s.Requests() {
			if strings.HasPrefix(r.Label, "memory summary") {
				n++
			}
		}
		return n
	}
	cfg := Defaults()
	cfg.Memory, cfg.Window, cfg.LoopLimit = "summary", 1, 0
	orig, other := answer("west"), answer("north")
	a := lanternAgent(t, cfg, orig)
	ctx := context.Background()
	if _, err := a.Run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	f := forkOf(t, a)
	f.LLM = other
	had := summaries(orig)
	if _, err := f.Run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if n := summaries(other); n == 0 {
		t.Error("the clone's LLM wrote no summary")
	}
	if n := summaries(orig); n != had {
		t.Errorf("the original's LLM wrote %d summaries for the clone", n-had)
	}
	p := f.History[len(f.History)-1].Prompt
	if !strings.Contains(p[1].Content, "Went north.") {
		t.Errorf("the clone's prompt lacks its own summary: %+v", p[1])
	}
	// The original plays on, and summarises with its own LLM the steps
	// the clone never played.
	if _, err := a.Run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if summaries(orig) == had {
		t.Error("the original's LLM wrote no summary once the clone had its own")
	}
}
