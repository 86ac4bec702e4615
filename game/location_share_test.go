package game

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// TestLocationMatchesHeadings measures the location grue reads against
// the room heading each reply opens with, on the three Zorks (Zork I's
// walkthrough, 80 random moves in the others), each played catalogued and
// as an unknown story, and on every corpus game (80 random moves, seed
// 7). No state may name an object by its number, and at least 95% of the
// states with a heading must agree (docs/games.md gives the figures: 64%
// before the version 3 location was global 0's room, 97% after).
func TestLocationMatchesHeadings(t *testing.T) {
	dir := testgames.Dir()
	files := []string{"zork1.z3", "zork2.z3", "zork3.z3"}
	corpus, _ := filepath.Glob(filepath.Join(dir, "corpus", "*.z5"))
	for _, c := range corpus {
		files = append(files, filepath.Join("corpus", filepath.Base(c)))
	}
	dirs := []string{"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "up", "down", "look", "in", "out"}
	players := map[string]uint16{"zork1.z3": 44, "zork2.z3": 40, "zork3.z3": 35}
	total, agree := 0, 0
	for _, f := range files {
		for _, uncat := range []bool{false, true} {
			if uncat && players[f] == 0 {
				continue
			}
			var story *zmachine.Story
			if uncat {
				story = uncatalogued(t, f, players[f], false)
			} else {
				data, err := os.ReadFile(testgames.Path(t, f))
				if err != nil {
					t.Fatal(err)
				}
				if story, err = zmachine.Load(data); err != nil {
					t.Fatal(err)
				}
			}
			var cmds []string
			seed := int64(1)
			if f == "zork1.z3" {
				cmds, seed = walkthrough(t, "zork1.walkthrough.txt"), 12
			} else {
				r := rand.New(rand.NewSource(7))
				for i := 0; i < 80; i++ {
					cmds = append(cmds, dirs[r.Intn(len(dirs))])
				}
			}
			g, err := New(story, "story", Seed(seed))
			if err != nil {
				t.Fatal(err)
			}
			n, ok := 0, 0
			for _, c := range cmds {
				if st := g.Machine().State(); st != zmachine.WaitLine && st != zmachine.WaitKey {
					break
				}
				if g.KeyExpected() {
					c = ""
				}
				r, err := g.Step(c)
				if err != nil {
					t.Fatal(err)
				}
				if loc := r.Info.Location; strings.HasPrefix(loc, "object#") {
					t.Errorf("%s (uncatalogued %v) after %q: location %q", f, uncat, c, loc)
				}
				h := roomHeading(r.Observation)
				if h == "" {
					continue
				}
				n++
				if loc := strings.ToLower(r.Info.Location); loc != "" && strings.HasPrefix(strings.ToLower(h), loc) {
					ok++
				}
			}
			t.Logf("%s (uncatalogued %v): %d of %d", f, uncat, ok, n)
			total, agree = total+n, agree+ok
		}
	}
	t.Logf("all: %d of %d states (%.1f%%)", agree, total, 100*float64(agree)/float64(max(total, 1)))
	if agree*100 < total*95 {
		t.Errorf("the location agrees with the room heading on %d of %d states, want 95%% or more", agree, total)
	}
}

// TestPlayerInsideSomething checks Sherbet, whose player rides in a
// procession of elephants at the start: the player is the library's self
// object inside it, not the procession, and it stays so when the global
// it was found in later holds something the player carries (the hand
// telescope): the inventory is the player's.
func TestPlayerInsideSomething(t *testing.T) {
	g := openCorpus(t, "sherbet")
	if name := g.Machine().ObjectName(g.Player()); name != "(self object)" {
		t.Errorf("player %d %q, want the self object", g.Player(), name)
	}
	if _, err := g.Step("inventory"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range g.Inventory() {
		names = append(names, o.Name)
	}
	if got := strings.Join(names, ", "); got != "fedora hat, hand telescope" || g.Machine().ObjectName(g.Player()) != "(self object)" {
		t.Errorf("after inventory: player %q carrying %q, want the self object carrying fedora hat, hand telescope", g.Machine().ObjectName(g.Player()), got)
	}
}
