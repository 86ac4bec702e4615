package game

import (
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// TestCatalogFacts checks the catalog's object numbers against the story
// files: the player is the "cretin" that starts in the first room (global 0),
// the rooms' parent is that room's parent, and the player moves as it walks.
func TestCatalogFacts(t *testing.T) {
	files := map[string]string{"zork1": "zork1.z3", "zork2": "zork2.z3", "zork3": "zork3.z3"}
	for _, e := range Catalog() {
		if e.Builtin {
			continue // see TestLantern
		}
		t.Run(e.Name, func(t *testing.T) {
			g := openTest(t, files[e.Name])
			got, ok := g.Entry()
			if !ok || got.Name != e.Name {
				t.Fatalf("story not recognised as %s (got %q, %v)", e.Name, got.Name, ok)
			}
			m := g.Machine()
			if name := m.ObjectName(e.Player); name != "cretin" {
				t.Errorf("player object %d is %q, want the cretin", e.Player, name)
			}
			parent, _, _ := m.Object(e.Player)
			if parent != m.Global(0) {
				t.Errorf("player's parent %d, global 0 (location) %d", parent, m.Global(0))
			}
			rooms, _, _ := m.Object(parent)
			if rooms != e.Rooms {
				t.Errorf("first room's parent %d, catalog says rooms are under %d", rooms, e.Rooms)
			}
			if g.MaxScore() != e.MaxScore {
				t.Errorf("MaxScore %d, want %d", g.MaxScore(), e.MaxScore)
			}
		})
	}

	g := openTest(t, "zork1.z3")
	if name, _ := g.Location(); name != "West of House" {
		t.Fatalf("Zork I starts in %q", name)
	}
	if _, err := g.Step("north"); err != nil {
		t.Fatal(err)
	}
	if name, _ := g.Location(); name != "North of House" {
		t.Fatalf("after north, player is in %q", name)
	}
}

func TestGames(t *testing.T) {
	dir := testgames.Dir()
	testgames.Path(t, "zork1.z3")
	t.Setenv(GamesEnv, dir)
	games, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]GameFile{}
	for _, gf := range games {
		names[gf.Name] = gf
	}
	for _, want := range []string{"zork1", "zork2", "zork3"} {
		gf, ok := names[want]
		if !ok || !gf.Known || gf.Version != 3 {
			t.Errorf("Games: %s missing or not recognised: %+v", want, gf)
		}
	}
	if gf, ok := names["praxix"]; ok && gf.Known {
		t.Errorf("praxix should not be in the catalog: %+v", gf)
	}

	// Open by catalog name, through Find's lookup in GRUE_GAMES.
	g, err := Open("zork1", Seed(12))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Intro(), "West of House") || g.MaxScore() != 350 {
		t.Errorf("Open(zork1): intro %q, max score %d", g.Intro(), g.MaxScore())
	}
	if _, err := Open("no-such-game"); err == nil {
		t.Error("Open of a missing game succeeded")
	}
}
