package validactions_test

import (
	"slices"
	"testing"

	"github.com/grue-lab/grue/game"
)

// TestValidActionsPreferTake: eating a thing one does not hold takes it
// first and then refuses (the Inform library and Zork both do), so "eat
// lantern" and "take lantern" have one outcome; the valid action that
// stands for it is "take lantern", the command a player would type.
func TestValidActionsPreferTake(t *testing.T) {
	g, err := game.Open("lantern", game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"west", "open toolbox"} {
		if _, err := g.Step(c); err != nil {
			t.Fatal(err)
		}
	}
	va, err := g.ValidActions()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(va, "take lantern") || slices.Contains(va, "eat lantern") {
		t.Errorf("valid actions = %v, want take lantern and not eat lantern", va)
	}
}
