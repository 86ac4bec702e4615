package validactions_test

import (
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/game/zmachine"
)

// twoObject matches the walkthrough commands that the two-object templates
// stand for: put X in Y, give X to Y, unlock X with Y, kill X with Y, ...
var twoObject = regexp.MustCompile(`(?i)^(put|give|tie|unlock|turn|light|dig|attack|kill)\s+\S.*\s(in|on|to|with)\s+\S`)

// covers reports whether some action in va has the effect of cmd from g's
// state, and whether cmd changes the world at all (unlike waiting).
func covers(t *testing.T, g *game.Game, va []string, cmd string) (covered, changes bool) {
	t.Helper()
	want := effect(t, g, cmd)
	if want == effect(t, g, "wait") || want == vas(g).Hash(vas(g).Relevant()) {
		return false, false
	}
	for _, a := range va {
		if effect(t, g, a) == want {
			return true, true
		}
	}
	return false, true
}

// TestValidActionsKeepWalkthrough plays the walkthroughs of Lantern and
// Zork I and, before each of their two-object commands (the pearl put in
// the crown, the apple and the crown given to Morwen, every treasure put in
// the trophy case, the coal put in the machine, the candles lit with a
// match, the bolt turned with the wrench, the rope tied to the railing, the
// troll and the thief attacked), checks that the pruned valid actions
// still hold a command with the same effect.
func TestValidActionsKeepWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two walkthroughs")
	}
	lantern, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	zork := openTest(t, "zork1.z3")
	for _, tc := range []struct {
		g    *game.Game
		cmds []string
	}{
		{lantern, stories.Walkthrough()},
		{zork, walkthrough(t, "zork1.walkthrough.txt")},
	} {
		g := tc.g
		checked, seen := 0, 0
		for i, cmd := range tc.cmds {
			// Under the race detector, a third of them.
			if twoObject.MatchString(cmd) && (!raceEnabled || seen%3 == 0 || g == lantern) {
				va, err := g.ValidActions()
				if err != nil {
					t.Fatalf("%s state %d: %v", g.Name(), i, err)
				}
				covered, changes := covers(t, g, va, cmd)
				if changes {
					checked++
					if !covered {
						t.Errorf("%s state %d: the walkthrough's %q is not among %q", g.Name(), i, cmd, va)
					}
				}
			}
			if twoObject.MatchString(cmd) {
				seen++
			}
			if _, err := g.Step(cmd); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d two-object walkthrough commands that change the world, each covered", g.Name(), checked)
		if checked < 4 {
			t.Errorf("%s: only %d two-object commands checked", g.Name(), checked)
		}
	}
}

// loseNothing runs the candidates all and the fewer kept of them from
// g's state, and reports as errors, prefixed with what, every outcome of
// all that none of fewer has. It returns the valid actions of each.
func loseNothing(t *testing.T, g *game.Game, what string, all, fewer []string) (full, kept []string) {
	t.Helper()
	full, err := vas(g).Run(all)
	if err != nil {
		t.Fatal(err)
	}
	kept, err = vas(g).Run(fewer)
	if err != nil {
		t.Fatal(err)
	}
	have := map[uint64]bool{}
	for _, a := range kept {
		have[effect(t, g, a)] = true
	}
	for _, a := range full {
		if !have[effect(t, g, a)] {
			t.Errorf("%s lost %q (valid from all %d candidates: %q; from the %d left: %q)",
				what, a, len(all), full, len(fewer), kept)
		}
	}
	return full, kept
}

// TestValidActionsPruneLosesNothing compares, in states with many things
// carried, the valid actions found from every candidate the templates make
// with those found from the pruned candidates: every outcome of the first
// must be an outcome of the second. The states include Zork I's rusty
// knife, which kills whoever attacks anything with it, held among plain
// things only.
func TestValidActionsPruneLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("tries every candidate in several states")
	}
	states := loadedStates(t)
	knife := openTest(t, "zork1.z3")
	playTo(t, knife, walkthrough(t, "zork1.walkthrough.txt")[:258])
	states["zork1-knife"] = knife
	names := []string{"lantern", "zork1", "zork1-case", "zork1-knife"}
	if raceEnabled {
		names = []string{"zork1", "zork1-knife"} // the others take minutes
	}
	for _, name := range names {
		g := states[name]
		all, pruned := vas(g).Candidates(false), vas(g).Candidates(true)
		_, kept := loseNothing(t, g, name+": pruning", all, pruned)
		t.Logf("%s: %d candidates pruned to %d, %d valid actions", name, len(all), len(pruned), len(kept))
		// The grammar adds candidates of its own (the game's verbs); of
		// the others, pruning keeps at most three in four.
		inAll := map[string]bool{}
		for _, c := range all {
			inAll[c] = true
		}
		keptOfAll := 0
		for _, c := range pruned {
			if inAll[c] {
				keptOfAll++
			}
		}
		if keptOfAll > len(all)*3/4 {
			t.Errorf("%s: pruning kept %d of %d candidates", name, keptOfAll, len(all))
		}
	}
}

// TestValidKinds: the attribute layouts are recognised where they are
// known, and what they say of objects is right.
func TestValidKinds(t *testing.T) {
	lantern, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	byName := func(g *game.Game, name string) uint16 {
		t.Helper()
		for _, o := range g.WorldObjects() {
			if o.Name == name {
				return o.ID
			}
		}
		t.Fatalf("%s: no object %q", g.Name(), name)
		return 0
	}
	for _, tc := range []struct {
		g                    *game.Game
		plain, other, animal []string
	}{
		{lantern, []string{"heavy iron key", "crystal shard", "moon pearl", "scrap of paper"},
			[]string{"battered toolbox", "Under-King's crown", "stone chest", "workbench", "iron door", "carvings"},
			[]string{"Old Morwen", "grue"}},
		{openTest(t, "zork1.z3"), []string{"sword", "crystal skull", "painting", "jade figurine"},
			[]string{"trophy case", "brown sack", "kitchen table", "basket", "magic boat", "wooden railing", "machine"},
			[]string{"troll", "thief", "cyclops"}},
		{openTest(t, "zork2.z3"), []string{"elvish sword", "lamp"},
			[]string{"steel box", "wooden bucket", "robot"}, []string{"robot", "demon"}},
		{openTest(t, "zork3.z3"), []string{"sword", "lamp", "strange key"},
			[]string{"chest", "gold machine", "pedestal"}, []string{"old man"}},
	} {
		g := tc.g
		l := vas(g).Layout()
		if !l.Known() {
			t.Errorf("%s: attribute layout not recognised", g.Name())
			continue
		}
		for _, n := range tc.plain {
			if k := l.Kind(g.Machine(), byName(g, n)); k&validactions.KindPlain == 0 {
				t.Errorf("%s: %q is not plain (kind %b)", g.Name(), n, k)
			}
		}
		for _, n := range tc.other {
			if k := l.Kind(g.Machine(), byName(g, n)); k&validactions.KindPlain != 0 {
				t.Errorf("%s: %q is plain", g.Name(), n)
			}
		}
		for _, n := range tc.animal {
			if k := l.Kind(g.Machine(), byName(g, n)); k&validactions.KindAnimate == 0 {
				t.Errorf("%s: %q is not animate (kind %b)", g.Name(), n, k)
			}
		}
	}
	// Lit: Zork I's torch burns from the start, the lamp once turned on.
	z := openTest(t, "zork1.z3")
	if k := vas(z).Layout().Kind(z.Machine(), byName(z, "torch")); k&validactions.KindLit == 0 {
		t.Error("zork1: the torch is not lit")
	}
	if k := vas(z).Layout().Kind(z.Machine(), byName(z, "brass lantern")); k&validactions.KindLit != 0 {
		t.Error("zork1: the lamp is lit before it is turned on")
	}
	// A story that is not an Inform library game nor a Zork keeps every
	// candidate.
	if l := vas(openTest(t, "praxix.z5")).Layout(); l.Known() {
		t.Errorf("praxix: a layout recognised: %+v", l)
	}
}

// TestValidGrammar: Lantern's grammar (the Inform 6.12 library's) has no
// "turn X with Y" or "attack X with Y", gives only to creatures, and puts
// in and on; Zork I's is read as an Infocom syntax table, not as Inform's.
func TestValidGrammar(t *testing.T) {
	g, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	gr := vas(g).GrammarTable()
	if gr == nil {
		t.Fatal("Lantern's grammar table was not read")
	}
	v := vas(g).Vocab()
	lookup := func(w string) uint32 { return g.Machine().LookupWord(w) }
	for _, tc := range []struct {
		t    string
		want [3]bool
	}{
		{"turn %s with %s", [3]bool{}},
		{"attack %s with %s", [3]bool{}},
		{"give %s to %s", [3]bool{true, false, true}},
		{"put %s in %s", [3]bool{true}},
		{"put %s on %s", [3]bool{true}},
		{"unlock %s with %s", [3]bool{true}},
		{"light %s with %s", [3]bool{true}},
		{"tie %s to %s", [3]bool{true}},
	} {
		if got := gr.Slots(tc.t, v, lookup); got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.t, got, tc.want)
		}
	}
	cands := vas(g).Candidates(true)
	for _, c := range cands {
		if strings.HasPrefix(c, "turn ") && strings.Contains(c, " with ") {
			t.Errorf("candidate %q, which Lantern's parser cannot understand", c)
		}
	}
	z := openTest(t, "zork1.z3")
	if gr := vas(z).GrammarTable(); gr == nil || gr.Format() != "infocom" {
		t.Errorf("zork1: grammar %+v, want the Infocom syntax table (%s)", gr, vas(z).GrammarWhy())
	}
}

// TestValidActionsRefusalsAreNotValid: from Lantern's meadow the ways that
// the nettles bar (northeast, northwest, southeast, southwest) and "in"
// (which asks which way) are refusals: they change nothing but the turn
// count and the parser's memory, as waiting does, and are not valid
// actions, whatever the player carries; the meadow's five exits are.
func TestValidActionsRefusalsAreNotValid(t *testing.T) {
	g, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		if n, _ := g.Location(); n != "Meadow" {
			t.Fatalf("%s: in %q, not the Meadow", when, n)
		}
		va, err := g.ValidActions()
		if err != nil {
			t.Fatal(err)
		}
		wait := effect(t, g, "wait")
		for _, d := range []string{"northeast", "northwest", "southeast", "southwest", "in"} {
			if slices.Contains(va, d) {
				t.Errorf("%s: %q is a valid action: %q", when, d, va)
			}
			if effect(t, g, d) != wait {
				t.Errorf("%s: %q changes the world otherwise than waiting", when, d)
			}
		}
		for _, d := range []string{"north", "south", "east", "west", "up"} {
			if !slices.Contains(va, d) {
				t.Errorf("%s: %q is not a valid action: %q", when, d, va)
			}
		}
	}
	check("at the start")
	playTo(t, g, append(append([]string(nil), lanternLoaded...), "south", "south", "south", "south", "south"))
	if len(g.Inventory()) < 7 {
		t.Fatalf("carrying %d things, want 7", len(g.Inventory()))
	}
	check("carrying seven things")
}

// TestValidActionsRemembers: asking again in the same state, or in one
// that undo brings back, answers from the game's memory without trying a
// candidate; a changed world is asked afresh, and a fork (a game of its
// own) finds the same actions by trying them.
func TestValidActionsRemembers(t *testing.T) {
	g, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	playTo(t, g, []string{"west"})
	first, err := g.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	runs := vas(g).Cache.Runs()
	again, err := g.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	if vas(g).Cache.Runs() != runs {
		t.Error("asking twice in one state tried the candidates twice")
	}
	if !slices.Equal(first, again) {
		t.Errorf("asked twice: %q then %q", first, again)
	}
	again[0] = "changed by the caller"
	if third, _ := g.ValidActions(); third[0] == again[0] {
		t.Error("a caller's change to the answer reached the cache")
	}
	f, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	forked, err := f.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	if vas(f).Cache.Runs() != 1 { // a fork's memory starts empty
		t.Errorf("a fork tried the candidates %d times, want once: it answered from its parent's memory", vas(f).Cache.Runs())
	}
	if !slices.Equal(first, forked) {
		t.Errorf("a fork found %q, the game %q", forked, first)
	}

	playTo(t, g, []string{"open toolbox"})
	opened, err := g.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(opened, "take lantern") || slices.Contains(first, "take lantern") {
		t.Errorf("after opening the toolbox: %q (before: %q); want take lantern only after", opened, first)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	runs = vas(g).Cache.Runs()
	back, err := g.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	if vas(g).Cache.Runs() != runs || !slices.Equal(back, first) {
		t.Errorf("after undo: %q (tried afresh: %v), want %q from memory", back, vas(g).Cache.Runs() != runs, first)
	}
}

// TestValidActionsForgetsTheStory: what valid actions works out about a
// story (vocabulary, grammar, layout, worker machines) is shared by a game
// and its forks, and forgotten with them: an experiment that opens
// thousands of games does not keep every story's facts for ever.
func TestValidActionsForgetsTheStory(t *testing.T) {
	var story *zmachine.Story
	// play opens a game and a fork, finds the valid actions, and returns
	// a weak pointer to the story's vocabulary, once both are gone.
	play := func() weak.Pointer[validactions.Vocabulary] {
		g, err := game.Open(stories.DefaultName, game.Seed(1))
		if err != nil {
			t.Fatal(err)
		}
		f, err := g.Fork()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.ValidActions(); err != nil {
			t.Fatal(err)
		}
		if vas(g).Vocab() != vas(f).Vocab() || vas(g).GrammarTable() != vas(f).GrammarTable() {
			t.Error("a fork worked out its story's vocabulary or grammar again")
		}
		story = g.Story()
		return weak.Make(vas(g).Vocab())
	}
	vocab := play()
	other, err := game.New(story, stories.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	if vas(other).Vocab() == vocab.Value() {
		t.Error("a game made apart shares another game's facts: they are kept somewhere global")
	}
	for i := 0; i < 10 && vocab.Value() != nil; i++ {
		runtime.GC()
	}
	if vocab.Value() != nil {
		t.Error("the story's vocabulary outlived every game that used it")
	}
}
