package validactions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// vas is the search of g's current state.
func vas(g *game.Game) *validactions.Search { return g.ValidActionsSearch() }

// openTest opens a story from the games folder at seed 12.
func openTest(t testing.TB, name string) *game.Game {
	t.Helper()
	st, _, err := game.LoadStory(testgames.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(st, "", game.Seed(12))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// walkthrough reads a walkthrough file of the games folder, one command a
// line.
func walkthrough(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(testgames.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// openCorpusTB opens corpus/NAME.z5 and presses Return through any "press
// a key" screens before the first prompt.
func openCorpusTB(t testing.TB, name string) *game.Game {
	t.Helper()
	g, err := game.Open(testgames.Path(t, filepath.Join("corpus", name+".z5")))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5 && g.Machine().State() == zmachine.WaitKey; i++ {
		if _, err := g.Step(""); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
