package tools

import (
	"context"
	"strings"
	"testing"
)

func notesCall(t *testing.T, n *Notes, args map[string]any) Result {
	t.Helper()
	r, err := n.Call(context.Background(), args)
	if err != nil {
		t.Fatalf("notes %v: %v", args, err)
	}
	return r
}

func TestNotesAddListRemoveClear(t *testing.T) {
	n := NewNotes()
	if r := notesCall(t, n, map[string]any{"action": "list"}); r.IsError || r.Text != "No notes." {
		t.Errorf("empty list = %+v", r)
	}
	notesCall(t, n, map[string]any{"action": "add", "text": "the troll wants a treasure"})
	notesCall(t, n, map[string]any{"action": "add", "text": "  lamp is in the attic \n"})
	r := notesCall(t, n, map[string]any{"action": "add", "text": "north of house: window"})
	if r.IsError || !strings.Contains(r.Text, "Added note 3.") ||
		!strings.Contains(r.Text, "1. the troll wants a treasure\n2. lamp is in the attic\n3. north of house: window") {
		t.Errorf("after three adds:\n%s", r.Text)
	}
	// A model's JSON gives numbers as float64; a model may also write "1".
	r = notesCall(t, n, map[string]any{"action": "remove", "number": 2.0})
	if r.IsError || strings.Contains(r.Text, "lamp") || !strings.Contains(r.Text, "2. north of house") {
		t.Errorf("after removing 2:\n%s", r.Text)
	}
	notesCall(t, n, map[string]any{"action": "remove", "number": "1"})
	if got := n.List(); len(got) != 1 || got[0] != "north of house: window" {
		t.Errorf("List = %q", got)
	}
	r = notesCall(t, n, map[string]any{"action": "clear"})
	if r.IsError || len(n.List()) != 0 || !strings.Contains(r.Text, "No notes.") {
		t.Errorf("after clear: %+v, %q", r, n.List())
	}
}

func TestNotesRefusals(t *testing.T) {
	n := &Notes{MaxBytes: 20}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "add"}, "needs a text"},
		{map[string]any{"action": "add", "text": "   "}, "needs a text"},
		{map[string]any{"action": "remove", "number": 1.0}, "number from 1 to 0"},
		{map[string]any{"action": "remove", "number": 1.5}, "whole number"},
		{map[string]any{"action": "fly"}, `unknown action "fly"`},
		{map[string]any{"action": "add", "text": strings.Repeat("x", 21)}, "notes are full: 0 of 20 bytes"},
	} {
		if r := notesCall(t, n, tc.args); !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%v = %+v, want a tool error containing %q", tc.args, r, tc.want)
		}
	}
	notesCall(t, n, map[string]any{"action": "add", "text": "0123456789"})
	r := notesCall(t, n, map[string]any{"action": "add", "text": "abcdefghijk"})
	if !r.IsError || !strings.Contains(r.Text, "10 of 20 bytes used") {
		t.Errorf("adding past the cap = %+v", r)
	}
	if got := n.List(); len(got) != 1 {
		t.Errorf("a refused note was kept: %q", got)
	}
}

// Two agents' scratchpads are their own.
func TestNotesPerInstance(t *testing.T) {
	a, b := NewNotes(), NewNotes()
	notesCall(t, a, map[string]any{"action": "add", "text": "only in a"})
	if len(b.List()) != 0 {
		t.Errorf("b sees a's notes: %q", b.List())
	}
	if !strings.Contains(a.String(), "only in a") {
		t.Errorf("a.String() = %q", a.String())
	}
}
