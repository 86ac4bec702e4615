package validactions_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
)

// openRules opens the test story of the library rules
// (testdata/rules/rules.inf): one room where each rule of rules.go
// has an object that qualifies by its attribute and one that acts by a
// before routine of its own.
func openRules(t *testing.T) *game.Game {
	t.Helper()
	return openRulesAs(t, func(story []byte) []byte { return story })
}

// openRulesAs opens the rules story as file makes it from the story's
// bytes (packaged in a Blorb file, say), at seed 1.
func openRulesAs(t *testing.T, file func(story []byte) []byte) *game.Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "rules", "rules.z5"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := zmachine.Load(file(data))
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(st, "rules", game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// rulesLoseNothing checks that in g's state every outcome of the
// candidates pruned without the library rules is an outcome of those
// pruned with them, and returns the valid actions found with them and how
// many candidates each way.
func rulesLoseNothing(t *testing.T, name string, g *game.Game) (va []string, without, with int) {
	t.Helper()
	base, ruled := vas(g).CandidatesWith(true, false), vas(g).CandidatesWith(true, true)
	_, kept := loseNothing(t, g, name+": the library rules", base, ruled)
	return kept, len(base), len(ruled)
}

// TestValidActionsRulesLoseNothing: the library rules (rules.go)
// leave out no outcome, in the rules story, where each rule has a command
// that works by the attribute and one that works by a routine of the
// object (eat the sandwich, eat the pillow; open the box, open the
// statue; unlock the cabinet with the key; put the coin on the chair, in
// the basin, on the anvil, whose before answers Push and Receive; dig the boulder, tie the rope to the post, light the candle
// with the match; push the bell, the panel, whose before prints first;
// take the static figurine, which the shelf's before lets go, the scenery
// moss, which its before takes; turn on the radio, the lever; wave the
// candle, which takes it without the after routine that TAKE runs; take
// the quill, held, which its before answers; get off the ledge, which its
// before answers though the player is not on it; take the hat worn, get
// off the armchair sat on), and
// in states of the Lantern walkthrough (a third of them, among which
// those where waving takes the lantern, the apple, the pearl or the crown
// as taking does not); and they leave out candidates.
func TestValidActionsRulesLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("tries the candidates twice in many states")
	}
	g := openRules(t)
	va, without, with := rulesLoseNothing(t, "rules", g)
	if with*2 > without {
		t.Errorf("rules: the library rules kept %d of %d candidates", with, without)
	}
	for _, cmd := range []string{"eat sandwich", "eat pillow", "wear hat", "open box", "open statue",
		"unlock cabinet with key", "enter chair", "put coin on chair", "put coin in basin", "put coin on anvil",
		"put coin in box", "dig boulder with spade", "tie rope to post", "light candle with match",
		"push bell", "push panel", "take figurine", "take moss", "turn on radio", "turn on lever", "wave candle", "take quill", "get off ledge"} {
		if covered, changes := covers(t, g, va, cmd); !changes || !covered {
			t.Errorf("rules: %q (changes the world: %v) is not among %q", cmd, changes, va)
		}
	}
	// Unlocked, the cabinet is not unlocked again, and opens.
	playTo(t, g, []string{"unlock cabinet with key"})
	va, _, _ = rulesLoseNothing(t, "rules, cabinet unlocked", g)
	if covered, changes := covers(t, g, va, "open cabinet"); !changes || !covered {
		t.Errorf("rules, cabinet unlocked: open cabinet (changes the world: %v) is not among %q", changes, va)
	}
	// Worn, the hat is taken off by TAKE; on the armchair, the player
	// gets off it.
	for _, c := range [][2]string{{"wear hat", "take hat"}, {"enter chair", "get off chair"}} {
		playTo(t, g, []string{c[0]})
		va, _, _ = rulesLoseNothing(t, "rules, "+c[0], g)
		if covered, changes := covers(t, g, va, c[1]); !changes || !covered {
			t.Errorf("rules, %s: %s (changes the world: %v) is not among %q", c[0], c[1], changes, va)
		}
	}
	if raceEnabled {
		return
	}
	lan, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	for i, cmd := range stories.Walkthrough() {
		if i%3 == 2 {
			_, without, with := rulesLoseNothing(t, "lantern state "+cmd, lan)
			if with > without {
				t.Errorf("lantern before %q: %d candidates with the rules, %d without", cmd, with, without)
			}
		}
		playTo(t, lan, []string{cmd})
	}
}

// TestValidActsRoutines: what the routine walk says of Lantern's objects:
// the chest's before only prints for Take, Push and Pull (and does nothing
// for Receive); the crown's before answers Receive (a fake action) by a
// call and only prints for Wear; the apple trees' before takes the apple
// for Take and only prints for Climb; the lantern's before and after answer
// Burn and SwitchOn, not Touch; the shard has no routine at all.
func TestValidActsRoutines(t *testing.T) {
	g, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	gr := vas(g).GrammarTable()
	v := vas(g).Vocab()
	lookup := func(w string) uint32 { return g.Machine().LookupWord(w) }
	act := func(tmpl string) []uint16 {
		t.Helper()
		a, ok := gr.Actions(tmpl, v, lookup)
		if !ok {
			t.Fatalf("%q: no actions", tmpl)
		}
		return a
	}
	id := func(name string) uint16 {
		t.Helper()
		for _, o := range g.WorldObjects() {
			if o.Name == name {
				return o.ID
			}
		}
		t.Fatalf("no object %q", name)
		return 0
	}
	for _, tc := range []struct {
		obj, tmpl string
		want      bool
	}{
		{"stone chest", "take %s", false}, // only prints
		{"stone chest", "push %s", false},
		{"stone chest", "touch %s", false},
		{"stone chest", "open %s", false},
		{"brass lantern", "light %s", true},
		{"brass lantern", "turn on %s", true},
		{"brass lantern", "touch %s", false},
		{"crystal shard", "take %s", false},
		{"Under-King's crown", "wear %s", false}, // only prints
		{"apple trees", "take %s", true},         // <<Take apple>>
		{"apple trees", "climb %s", false},
		{"Under-King's crown", "eat %s", false},
	} {
		if got := vas(g).ReactsTo(id(tc.obj), act(tc.tmpl)); got != tc.want {
			t.Errorf("%s reacts to %q: %v, want %v", tc.obj, tc.tmpl, got, tc.want)
		}
	}
	// Receive is a fake action whose number the grammar does not tell:
	// a before that does something for an action it does not name may
	// answer it, not one whose switch names real actions only.
	if !vas(g).Receives(id("Under-King's crown")) || vas(g).Receives(id("crystal shard")) ||
		vas(g).Receives(id("stone chest")) {
		t.Error("the crown's before may answer Receive; the shard (no routine) and the chest (Take, Push, Pull) do not")
	}
	if _, ok := vas(g).AroundProps(vas(g).ReactProps()); !ok {
		t.Error("Lantern's react_before and react_after are not found")
	}
}

// TestValidActsGrammarLines: which grammar lines of Lantern's library
// grammar may parse a template. LOOK INSIDE X is Search alone (the line
// LOOK UP topic IN noun cannot parse it), READ X may be anything (READ
// topic IN noun may parse it); DIG X is parsed by DIG noun before DIG
// noun WITH held is tried, so it takes nothing first, where EAT X (EAT
// held) and WEAR X (WEAR multiheld) do.
func TestValidActsGrammarLines(t *testing.T) {
	g, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	gr := vas(g).GrammarTable()
	v := vas(g).Vocab()
	lookup := func(w string) uint32 { return g.Machine().LookupWord(w) }
	search, ok := gr.Actions("search %s", v, lookup)
	if !ok {
		t.Fatalf("search %%s: no actions")
	}
	if got, ok := gr.Actions("l inside %s", v, lookup); !ok || !slices.Equal(got, search) {
		t.Errorf("l inside %%s: actions %v (ok %v), want %v, those of search %%s", got, ok, search)
	}
	if got, ok := gr.Actions("read %s", v, lookup); ok {
		t.Errorf("read %%s: actions %v, want none known (a topic line may parse it)", got)
	}
	for tmpl, want := range map[string]bool{"dig %s": false, "light %s": false, "eat %s": true,
		"wear %s": true, "take %s": false, "drop %s": true} {
		if got := gr.TakesHeld(tmpl, v, lookup); got != want {
			t.Errorf("%q takes what is not held first: %v, want %v", tmpl, got, want)
		}
	}
}

// TestValidActionsRulesLoseNothingCorpus: in every corpus game, at each
// state of the corpus's scripted play, the library rules leave out no
// outcome of the candidates pruned without them: the rules and the
// routine walk hold in games written by others, not only in the stories
// made for them.
func TestValidActionsRulesLoseNothingCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("tries the candidates twice in every state of every corpus game")
	}
	pruned := 0
	for _, name := range corpusNames() {
		g := openCorpusTB(t, name)
		if g.YesNoQuestion() { // Parc asks whether to show its introduction
			playTo(t, g, []string{"no"})
		}
		for i := 0; i <= len(corpusScript); i++ {
			if i > 0 {
				playTo(t, g, corpusScript[i-1:i])
			}
			if g.Done() || g.KeyExpected() {
				break
			}
			_, without, with := rulesLoseNothing(t, fmt.Sprintf("%s state %d", name, i), g)
			pruned += without - with
		}
	}
	if pruned == 0 {
		t.Error("the library rules left out no candidate in the corpus")
	}
}
