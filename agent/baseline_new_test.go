package agent

import (
	"strings"
	"testing"
)

// TestNewBaseline: each baseline by its name; an unknown name or a game
// with no walkthrough is an error that says what there is.
func TestNewBaseline(t *testing.T) {
	for _, name := range []string{BaselineRandom, BaselineExplorer, BaselineWalkthrough, "Explorer"} {
		p, err := NewBaseline(name, 1, "lantern")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Name() != strings.ToLower(name) {
			t.Errorf("NewBaseline(%q) is %q", name, p.Name())
		}
	}
	if _, err := NewBaseline("genius", 1, "lantern"); err == nil || !strings.Contains(err.Error(), "random, walkthrough, explorer") {
		t.Errorf("unknown baseline: %v", err)
	}
	if _, err := NewBaseline(BaselineWalkthrough, 1, "nowhere"); err == nil || !strings.Contains(err.Error(), "not a game grue knows") {
		t.Errorf("walkthrough of an unknown game: %v", err)
	}
}
