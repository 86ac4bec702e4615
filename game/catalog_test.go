package game

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/stories"
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

// TestGamesLooksInFolders: Games lists the story files in the games
// folder's folders too ("corpus/candy"), two levels down, under the name
// Find takes, and skips hidden folders, folders deeper than that, links to
// folders and files that are not story files.
func TestGamesLooksInFolders(t *testing.T) {
	_, lantern := stories.Default()
	other := bytes.Clone(lantern)
	copy(other[0x12:0x18], "991231") // another serial number: a story the catalog does not know
	dir := t.TempDir()
	files := map[string][]byte{
		"top.z5":                  lantern,
		"sub/inner.z5":            other,
		"sub/deeper/deep.z5":      other,
		"sub/deeper/more/far.z5":  other,
		".hidden/secret.z5":       other,
		"sub/README.md":           []byte("not a story"),
		"sub/deeper/notes.z5.txt": []byte("not a story"),
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	t.Setenv(GamesEnv, dir)
	games, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, gf := range games {
		got = append(got, gf.Name)
	}
	want := []string{"lantern", "sub/deeper/deep", "sub/inner"}
	if !slices.Equal(got, want) {
		t.Fatalf("Games lists %q, want %q", got, want)
	}
	// Every name listed is one Find resolves.
	for _, gf := range games[1:] {
		path, err := Find(gf.Name)
		if err != nil || path != gf.Path {
			t.Errorf("Find(%q) = %q, %v; Games says %s", gf.Name, path, err, gf.Path)
		}
	}
}
