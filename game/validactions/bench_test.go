package validactions_test

import (
	"testing"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
)

// lanternLoaded is Lantern played to the Under-King's vault with seven
// things carried (lantern, toolbox, key, note, shard, pearl, crown): the
// walkthrough's route, taking everything on the way.
var lanternLoaded = []string{
	"west", "open toolbox", "take lantern", "take toolbox", "east", "south", "pick apple",
	"north", "east", "give apple to morwen", "west", "north", "turn on lantern", "north",
	"north", "take note", "north", "west", "take shard", "east", "east", "open oyster",
	"take pearl", "west", "unlock door with key", "open door", "north", "open chest",
	"take crown",
}

// zork1Loaded and zork1Case are how many commands of the Zork I
// walkthrough (seed 12) lead to a state with eight things carried in the
// temple, and to the living room with the trophy case about to be filled.
const (
	zork1Loaded = 55
	zork1Case   = 375
)

// playTo plays cmds on g, failing the test on an error.
func playTo(tb testing.TB, g *game.Game, cmds []string) {
	tb.Helper()
	for _, c := range cmds {
		if _, err := g.Step(c); err != nil {
			tb.Fatalf("%s: %v", c, err)
		}
	}
}

// loadedStates returns the big-inventory states the benchmarks and tests
// use, by name.
func loadedStates(tb testing.TB) map[string]*game.Game {
	tb.Helper()
	lan, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		tb.Fatal(err)
	}
	playTo(tb, lan, lanternLoaded)
	out := map[string]*game.Game{"lantern": lan}
	cmds := walkthrough(tb, "zork1.walkthrough.txt")
	for name, n := range map[string]int{"zork1": zork1Loaded, "zork1-case": zork1Case} {
		g := openTest(tb, "zork1.z3")
		playTo(tb, g, cmds[:n])
		out[name] = g
	}
	return out
}

// BenchmarkValidActionsLoaded finds the valid actions in states where the
// player carries many things (see loadedStates), where the two-object
// templates (put X in Y, give X to Y, ...) make the most candidates:
// "all" tries every candidate the templates make (as before pruning),
// "pruned" the candidates ValidActions tries, "cached" asks ValidActions
// again in a state it has answered.
func BenchmarkValidActionsLoaded(b *testing.B) {
	states := loadedStates(b)
	for _, name := range []string{"lantern", "zork1", "zork1-case"} {
		g := states[name]
		for _, mode := range []string{"all", "pruned", "cached"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				cands := vas(g).Candidates(mode != "all")
				if mode == "cached" {
					if _, err := g.ValidActions(); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				var va []string
				for i := 0; i < b.N; i++ {
					var err error
					if mode == "cached" {
						va, err = g.ValidActions()
					} else {
						va, err = vas(g).Run(cands)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(vas(g).Cache.Instr())/1e6, "Minstr/state")
				b.ReportMetric(float64(len(g.Inventory())), "carried")
				b.ReportMetric(float64(len(cands)), "candidates")
				b.ReportMetric(float64(len(va)), "actions")
			})
		}
	}
}
