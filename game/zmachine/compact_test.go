package zmachine_test

import (
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

// TestCompactSnapshot: a compact snapshot restores exactly as the full one
// does, into the machine that took it or another, keeps a small part of
// the memory, and a corrupt one is refused with the machine untouched.
func TestCompactSnapshot(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	m, _ := zmachine.New(story, zmachine.Options{Seed: 3})
	steps(t, m, "open mailbox", "take leaflet", "south", "east", "open window", "enter house", "take all")
	full := m.Snapshot()
	compact := full.Compact()
	if compact.Compact() != compact {
		t.Error("Compact of a compact snapshot made another")
	}
	fullBytes, compactBytes := zmachine.SnapshotMemoryBytes(full), zmachine.SnapshotMemoryBytes(compact)
	t.Logf("Zork I after 7 moves: memory %d bytes, %d compact", fullBytes, compactBytes)
	if fullBytes != story.DynamicSize() || compactBytes*10 > fullBytes || compactBytes == 0 {
		t.Errorf("memory kept: %d bytes full (dynamic memory %d), %d compact: want under a tenth", fullBytes, story.DynamicSize(), compactBytes)
	}

	moves := []string{"west", "take sword", "take lamp", "move rug", "open trap door", "turn on lamp", "down", "score"}
	want := steps(t, m, moves...)
	status := m.StatusLine()
	for _, into := range []*zmachine.Machine{m, func() *zmachine.Machine { o, _ := zmachine.New(story, zmachine.Options{Seed: 9}); return o }()} {
		if err := into.Restore(compact); err != nil {
			t.Fatal(err)
		}
		if got := steps(t, into, moves...); got != want || into.StatusLine() != status {
			t.Errorf("after restoring the compact snapshot:\n%q\nstatus %q; want\n%q\nstatus %q", got, into.StatusLine(), want, status)
		}
	}
	// The full snapshot is unchanged by its compact copy's use.
	if err := m.Restore(full); err != nil {
		t.Fatal(err)
	}
	if got := steps(t, m, moves...); got != want {
		t.Errorf("the full snapshot replays %q, want %q", got, want)
	}

	before := m.StatusLine()
	if err := m.Restore(zmachine.CorruptCompact(compact)); err == nil {
		t.Error("a corrupt compact snapshot restored")
	}
	if m.StatusLine() != before {
		t.Errorf("a refused restore changed the machine: status %q, was %q", m.StatusLine(), before)
	}
	other, _ := zmachine.New(loadGame(t, "zork2.z3"), zmachine.Options{})
	if err := other.Restore(compact); err == nil {
		t.Error("a compact snapshot of Zork I restored into Zork II")
	}
}
