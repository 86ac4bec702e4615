package validactions_test

import (
	"strings"
	"testing"
	"time"
)

// TestValidActionsEndlessLoop puts Zork I in a state where every command
// loops forever (the sack inside the nest inside the sack): ValidActions
// must say so at once instead of running each candidate to the budget.
func TestValidActionsEndlessLoop(t *testing.T) {
	g := openTest(t, "zork1.z3")
	for _, cmd := range []string{
		"north", "north", "up", "take nest", "down", "south", "east",
		"open window", "west", "take sack", "open sack", "take all from sack",
		"take egg", "put nest in sack", "put sack in nest",
	} {
		if _, err := g.Step(cmd); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	start := time.Now()
	_, err := g.ValidActions()
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "does not come back") {
		t.Fatalf("ValidActions in a looping state: err = %v, want one saying the game does not come back", err)
	}
	t.Logf("ValidActions gave up after %v: %v", took, err)
}
