package validactions_test

import (
	"testing"
	"time"

	"github.com/grue-lab/grue/game"
)

// effect plays cmd on a fork of g and returns its outcome as ValidActions
// judges outcomes, with the objects that matter taken from g's state.
func effect(t testing.TB, g *game.Game, cmd string) uint64 {
	t.Helper()
	rel := vas(g).Relevant()
	f, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.Step(cmd)
	if err != nil {
		t.Fatal(err)
	}
	h := vas(f).Hash(rel)
	if res.Done {
		h = ^h
	}
	return h
}

func TestValidActionsFirstState(t *testing.T) {
	g := openTest(t, "zork1.z3")
	before := g.StateHash()
	va, err := g.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("valid actions at West of House: %q", va)
	if g.StateHash() != before {
		t.Fatal("ValidActions changed the game's state")
	}
	for _, want := range []string{"north", "south", "west", "open mailbox"} {
		if !contains(va, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, not := range []string{"take house", "look", "inventory", "east", "take mailbox"} {
		if contains(va, not) {
			t.Errorf("%q should not be valid", not)
		}
	}
	// The walkthrough's first command, "N", has the effect of one of them.
	want := effect(t, g, "N")
	found := false
	for _, a := range va {
		if effect(t, g, a) == want {
			found = true
		}
	}
	if !found {
		t.Error(`no valid action has the effect of the walkthrough's "N"`)
	}
	// Asked again on a fork (whose cache is empty), it finds them again.
	f, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(va) {
		t.Fatalf("not deterministic: %q then %q", va, again)
	}
	for i := range va {
		if va[i] != again[i] {
			t.Fatalf("not deterministic: %q then %q", va, again)
		}
	}
}

// TestValidActionsCoverWalkthrough plays the first states of the Zork I
// walkthrough and checks that, where the walkthrough's next command changes
// the world, some valid action has the same effect.
func TestValidActionsCoverWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("plays valid actions at 60 states")
	}
	g := openTest(t, "zork1.z3")
	cmds := walkthrough(t, "zork1.walkthrough.txt")
	const states = 60
	changing, covered := 0, 0
	for i := 0; i < states && i < len(cmds); i++ {
		before := g.StateHash()
		va, err := g.ValidActions()
		if err != nil {
			t.Fatal(err)
		}
		if g.StateHash() != before {
			t.Fatalf("state %d: ValidActions changed the game's state", i)
		}
		want := effect(t, g, cmds[i])
		if want != effect(t, g, "wait") && want != vas(g).Hash(vas(g).Relevant()) {
			changing++
			hit := false
			for _, a := range va {
				if effect(t, g, a) == want {
					hit = true
					break
				}
			}
			if hit {
				covered++
			} else {
				t.Logf("state %d: %q not covered by %q", i, cmds[i], va)
			}
		}
		if _, err := g.Step(cmds[i]); err != nil {
			t.Fatal(err)
		}
	}
	pct := 100 * float64(covered) / float64(changing)
	t.Logf("valid actions cover %d of the %d world-changing walkthrough commands (%.0f%%) in the first %d states",
		covered, changing, pct, states)
	if pct < 95 {
		t.Errorf("coverage %.0f%% below 95%%", pct)
	}
}

// BenchmarkValidActions finds the valid actions at every 10th state of the
// Zork I walkthrough (seed 12) and reports the mean time per state. It
// tries the candidates as ValidActions does, without its cache.
func BenchmarkValidActions(b *testing.B) {
	g := openTest(b, "zork1.z3")
	cmds := walkthrough(b, "zork1.walkthrough.txt")
	var states []*game.State
	for i, c := range cmds {
		if i%10 == 0 {
			states = append(states, g.Save())
		}
		if _, err := g.Step(c); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	n, actions := 0, 0
	for i := 0; i < b.N; i++ {
		for _, s := range states {
			if err := g.Restore(s); err != nil {
				b.Fatal(err)
			}
			va, err := vas(g).Run(vas(g).Candidates(true)) // not the cache
			if err != nil {
				b.Fatal(err)
			}
			n++
			actions += len(va)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(n), "ms/state")
	b.ReportMetric(float64(actions)/float64(n), "actions/state")
}

// TestBudgetCutsShort checks the time budget of a search: with a budget
// too small to try any candidate after waiting, Find returns what it
// found (nothing here) and says it was cut short, and does not remember
// the cut answer; with no budget, and with the default one, the same
// state is searched whole.
func TestBudgetCutsShort(t *testing.T) {
	g := openTest(t, "zork1.z3")
	s := g.ValidActionsSearch()
	s.Budget = time.Nanosecond
	acts, err := s.Find()
	if err != nil {
		t.Fatal(err)
	}
	if !s.CutShort || len(acts) != 0 {
		t.Errorf("a 1 ns budget: %q, cut short %v; want nothing, cut short", acts, s.CutShort)
	}
	s = g.ValidActionsSearch()
	s.Budget = -1
	acts, err = s.Find()
	if err != nil {
		t.Fatal(err)
	}
	if s.CutShort || !contains(acts, "open mailbox") {
		t.Errorf("no budget: %q, cut short %v; want the whole search", acts, s.CutShort)
	}
	if acts, err = g.ValidActions(); err != nil || g.ValidActionsCutShort() || !contains(acts, "open mailbox") {
		t.Errorf("the default budget: %q, %v, cut short %v; want the whole search (West of House takes milliseconds)", acts, err, g.ValidActionsCutShort())
	}
}
