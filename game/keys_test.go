package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

// openTestStory starts one of the interpreter's test stories.
func openTestStory(t *testing.T, file string) *Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("zmachine", "testdata", "stories", file))
	if err != nil {
		t.Fatal(err)
	}
	st, err := zmachine.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(st, strings.TrimSuffix(file, filepath.Ext(file)))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestStepKeys answers a game waiting for keys ("[Please press SPACE to
// begin.]", as Curses asks) through Step: " " is SPACE, "" is Return, a
// longer action is typed key by key, and Info and ValidActions say when a
// key is expected.
func TestStepKeys(t *testing.T) {
	g := openTestStory(t, "keys.z5")
	if !g.Info().KeyExpected {
		t.Fatal("the story starts waiting for a key, but Info.KeyExpected is false")
	}
	acts, err := g.ValidActions()
	if err != nil || len(acts) != 2 || acts[0] != "" || acts[1] != " " {
		t.Fatalf("ValidActions while a key is expected = %q, %v; want Return and SPACE", acts, err)
	}
	for _, c := range []struct {
		action string
		want   []string
	}{
		{" ", []string{"key 32"}},
		{"", []string{"key 13"}},
		{"ab", []string{"key 97", "key 98"}},
		{"qz", []string{"key 113", "key 122"}},
	} {
		r, err := g.Step(c.action)
		if err != nil {
			t.Fatalf("Step(%q): %v", c.action, err)
		}
		for _, w := range c.want {
			if !strings.Contains(r.Observation, w) {
				t.Errorf("Step(%q) = %q, want it to contain %q", c.action, r.Observation, w)
			}
		}
	}
	if g.KeyExpected() {
		t.Fatal("after six keys the story reads a line, but KeyExpected is still true")
	}
	r, err := g.Step("keys")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Info.KeyExpected {
		t.Errorf("after KEYS the story waits for keys, but the step's Info says otherwise: %q", r.Observation)
	}
}
