package game

import (
	"os"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// uncatalogued loads an Infocom story from the games folder as a story
// the catalog does not know: its serial number is changed (nothing the
// game runs reads it), and, when rename is set, the player object's short
// name is rewritten to "player" so that grue cannot know it by its name
// ("cretin") either. Such a story stands for the Infocom games grue has no
// catalog entry for.
func uncatalogued(t testing.TB, file string, player uint16, rename bool) *zmachine.Story {
	t.Helper()
	data, err := os.ReadFile(testgames.Path(t, file))
	if err != nil {
		t.Fatal(err)
	}
	data[0x12] = 'X'
	if rename {
		table := int(data[0x0a])<<8 | int(data[0x0b])
		entry := table + 31*2 + 9*(int(player)-1)
		props := int(data[entry+7])<<8 | int(data[entry+8])
		if data[props] != 2 {
			t.Fatalf("object %d's short name is %d words long, not 2", player, data[props])
		}
		// "player" in Z-characters: p=21 l=17 a=6, y=30 e=10 r=23.
		w1 := 21<<10 | 17<<5 | 6
		w2 := 1<<15 | 30<<10 | 10<<5 | 23
		data[props+1], data[props+2] = byte(w1>>8), byte(w1)
		data[props+3], data[props+4] = byte(w2>>8), byte(w2)
	}
	s, err := zmachine.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, known := Lookup(s); known {
		t.Fatalf("%s with its serial changed is still in the catalog", file)
	}
	return s
}

// TestInfocomLocationUncatalogued checks the player and the location on
// the Zork games as grue sees an Infocom game it does not know: the
// location is global 0's room (the one the status line names), never the
// ROOMS object that holds the rooms ("object#39"), and the player is found
// by moving it even when its name says nothing.
func TestInfocomLocationUncatalogued(t *testing.T) {
	for _, c := range []struct {
		file          string
		player        uint16
		start, second string // the first room, and the room after cmd
		cmd           string
	}{
		{"zork1.z3", 44, "West of House", "North of House", "north"},
		{"zork2.z3", 40, "Inside the Barrow", "Narrow Tunnel", "south"},
		{"zork3.z3", 35, "Endless Stair", "", ""},
	} {
		for _, rename := range []bool{false, true} {
			name := c.file
			if rename {
				name += "/renamed"
			}
			t.Run(name, func(t *testing.T) {
				g, err := New(uncatalogued(t, c.file, c.player, rename), "story", Seed(12))
				if err != nil {
					t.Fatal(err)
				}
				if g.Player() != c.player {
					t.Errorf("player %d (%s), want %d", g.Player(), g.Machine().ObjectName(g.Player()), c.player)
				}
				if loc, id := g.Location(); loc != c.start || id != g.Machine().Global(0) {
					t.Errorf("location %q (%d), want %q, global 0's %d", loc, id, c.start, g.Machine().Global(0))
				}
				if r := g.Report(); r.Location != c.start {
					t.Errorf("report location %q (%s), want %q", r.Location, r.LocationFrom, c.start)
				}
				if c.cmd == "" {
					return
				}
				r, err := g.Step(c.cmd)
				if err != nil {
					t.Fatal(err)
				}
				if r.Info.Location != c.second {
					t.Errorf("after %q: location %q, want %q", c.cmd, r.Info.Location, c.second)
				}
			})
		}
	}
}

// TestInfocomEndingUncatalogued plays the Zork I walkthrough on the story
// as an unknown game: no catalog texts and no Inform deadflag, so the win
// is seen from the machine (the final score, then the RESTART, RESTORE or
// QUIT question, at the maximum score), and on no step before the last.
func TestInfocomEndingUncatalogued(t *testing.T) {
	g, err := New(uncatalogued(t, "zork1.z3", 44, false), "story", Seed(12))
	if err != nil {
		t.Fatal(err)
	}
	cmds := walkthrough(t, "zork1.walkthrough.txt")
	for i, cmd := range cmds {
		r, err := g.Step(cmd)
		if err != nil {
			t.Fatal(err)
		}
		last := i == len(cmds)-1
		if r.Done != last || r.Victory != last {
			t.Fatalf("command %d of %d (%q): done %v, victory %v; want both %v\n%s", i+1, len(cmds), cmd, r.Done, r.Victory, last, r.Observation)
		}
	}
	if g.Score() != 350 || g.MaxScore() != 350 {
		t.Errorf("score %d of %d, want 350 of 350", g.Score(), g.MaxScore())
	}
}
