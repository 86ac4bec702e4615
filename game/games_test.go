package game

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

// gamesDir is the folder of story files for tests: $GRUE_GAMES (relative
// to the module root if it is relative) or ../shared/games from the root.
func gamesDir() string {
	root := moduleRoot()
	dir := os.Getenv(GamesEnv)
	if dir == "" {
		return filepath.Join(root, "..", "shared", "games")
	}
	if filepath.IsAbs(dir) {
		return dir
	}
	if p := filepath.Join(root, dir); isDir(p) {
		return p
	}
	return dir
}

// moduleRoot finds the directory holding go.mod, walking up from the
// package directory the test runs in.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// inCI reports whether missing test inputs must fail rather than skip.
func inCI() bool {
	ok, _ := strconv.ParseBool(os.Getenv("CI"))
	return ok
}

// gameFile returns the path of a file in the games folder, skipping the
// test (failing it in CI) when it is missing.
func gameFile(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(gamesDir(), name)
	if _, err := os.Stat(p); err != nil {
		if inCI() {
			t.Fatalf("test input missing: %v", err)
		}
		t.Skipf("test input missing (set %s): %v", GamesEnv, err)
	}
	return p
}

// loadTestStory loads a story from the games folder.
func loadTestStory(t testing.TB, name string) *zmachine.Story {
	t.Helper()
	s, err := loadStory(gameFile(t, name))
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
	data, err := os.ReadFile(gameFile(t, name))
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
