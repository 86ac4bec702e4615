package mcp

import (
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// A Glulx story is served like a Z-machine one: play_action, undo and
// saved states, with the score, its maximum, the moves and the room read
// from the game, the inventory from its object tree; the tools that need
// the map or the grammar say they are not available for Glulx stories
// yet, rather than answering wrong.
func TestServeGlulx(t *testing.T) {
	c, err := NewInProcessClient(WithGame(testgames.Path(t, "glulx/corpus/Advent-i641.ulx")), WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := call(t, c, "play_action", map[string]any{"action": "in"})
	s := r.Structured
	if r.IsError || s["location"] != "Inside Building" || s["score"] != 36.0 || s["max_score"] != 350.0 || s["moves"] != 1.0 || s["done"] != false {
		t.Fatalf("play_action in: %v %v", r.Text, s)
	}
	if r = call(t, c, "save_state", map[string]any{"name": "inside"}); r.IsError {
		t.Fatal(r.Text)
	}
	call(t, c, "play_action", map[string]any{"action": "out"})
	if r = call(t, c, "undo", nil); r.IsError || r.Structured["location"] != "Inside Building" {
		t.Fatalf("undo: %v %v", r.Text, r.Structured)
	}
	call(t, c, "play_action", map[string]any{"action": "out"})
	if r = call(t, c, "restore_state", map[string]any{"name": "inside"}); r.IsError || r.Structured["location"] != "Inside Building" {
		t.Fatalf("restore_state: %v %v", r.Text, r.Structured)
	}
	// The inventory is the player's children in the object tree.
	if r = call(t, c, "inventory", nil); r.IsError || r.Text != "Inventory: You are empty-handed." {
		t.Errorf("inventory inside: %v %q", r.IsError, r.Text)
	}
	call(t, c, "play_action", map[string]any{"action": "take lamp"})
	if r = call(t, c, "inventory", nil); r.IsError || r.Text != "Inventory: brass lantern" {
		t.Errorf("inventory after take lamp: %v %q", r.IsError, r.Text)
	}
	for _, tool := range []string{"get_map", "valid_actions"} {
		if r = call(t, c, tool, nil); !r.IsError || !strings.Contains(r.Text, "not available for Glulx") {
			t.Errorf("%s: error %v %q", tool, r.IsError, r.Text)
		}
	}
}

// An Inform 7 story's inventory is named by the objects' printed names.
func TestServeGlulxInform7Inventory(t *testing.T) {
	c, err := NewInProcessClient(WithGame(testgames.Path(t, "glulx/corpus/The_Dungeon.gblorb")), WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if r := call(t, c, "inventory", nil); r.IsError || r.Text != "Inventory: You are empty-handed." {
		t.Errorf("inventory at the start: %v %q", r.IsError, r.Text)
	}
	call(t, c, "play_action", map[string]any{"action": "take torch"})
	if r := call(t, c, "inventory", nil); r.IsError || r.Text != "Inventory: torch" {
		t.Errorf("inventory after take torch: %v %q", r.IsError, r.Text)
	}
}
