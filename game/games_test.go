package game

import (
	"os"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"

	"github.com/grue-lab/grue/game/zmachine"
)

// loadTestStory loads a story from the games folder.
func loadTestStory(t testing.TB, name string) *zmachine.Story {
	t.Helper()
	s, err := loadStory(testgames.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openTest opens a story from the games folder at seed 12.
func openTest(t testing.TB, name string, opts ...Option) *Game {
	t.Helper()
	g, err := New(loadTestStory(t, name), "", append([]Option{Seed(12)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// walkthrough reads a walkthrough file, one command a line.
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
