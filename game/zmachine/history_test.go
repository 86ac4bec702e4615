package zmachine_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

// TestHistory plays a corpus game, pushing its state before every command,
// and checks that popping gives back each state exactly as a whole
// Snapshot took it, newest first, after Keep has forgotten the oldest; that
// a Clone made halfway goes back over its own states on another machine
// although the History it came from went on; and that Drop forgets the
// newest state.
func TestHistory(t *testing.T) {
	story := loadGame(t, "corpus/lily.z5")
	newMachine := func() *zmachine.Machine {
		m, err := zmachine.New(story, zmachine.Options{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Start(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := newMachine()
	var h zmachine.History
	var want []*zmachine.Snapshot
	var clone *zmachine.History
	const half, kept = 15, 20
	lines := randomScript(t, story, 4, 30)
	n := len(lines)
	for i, line := range lines {
		if i == half {
			clone = h.Clone()
		}
		want = append(want, m.Snapshot())
		h.Push(m)
		if _, err := m.Step(line); err != nil {
			t.Fatalf("step %d %q: %v", i, line, err)
		}
	}
	end := m.Snapshot()

	h.Push(m)
	h.Drop()
	if h.Len() != n {
		t.Fatalf("after a Push and a Drop, Len = %d; want %d", h.Len(), n)
	}
	if !reflect.DeepEqual(m.Snapshot(), end) {
		t.Fatal("Drop changed the machine")
	}

	h.Keep(kept)
	for k := n - 1; k >= n-kept; k-- {
		if err := h.Pop(m); err != nil {
			t.Fatalf("Pop to state %d: %v", k, err)
		}
		if !reflect.DeepEqual(m.Snapshot(), want[k]) {
			t.Fatalf("Pop gave back a state other than the one pushed before command %d", k)
		}
	}
	before := m.Snapshot()
	if err := h.Pop(m); !errors.Is(err, zmachine.ErrNoHistory) {
		t.Fatalf("Pop past the %d states kept: %v; want ErrNoHistory", kept, err)
	}
	if !reflect.DeepEqual(m.Snapshot(), before) {
		t.Fatal("a Pop of an empty History changed the machine")
	}

	m2 := newMachine()
	if clone.Len() != half {
		t.Fatalf("clone Len = %d; want %d", clone.Len(), half)
	}
	for k := half - 1; k >= 0; k-- {
		if err := clone.Pop(m2); err != nil {
			t.Fatalf("clone: Pop to state %d: %v", k, err)
		}
		if !reflect.DeepEqual(m2.Snapshot(), want[k]) {
			t.Fatalf("clone: Pop gave back a state other than the one pushed before command %d", k)
		}
	}
}

// TestHistoryOtherStory checks that a History refuses to restore its
// states into a machine of another story, and leaves it alone.
func TestHistoryOtherStory(t *testing.T) {
	load := func(name string) *zmachine.Machine {
		m, err := zmachine.New(loadGame(t, "corpus/"+name+".z5"), zmachine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Start(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := load("lily"), load("spot")
	var h zmachine.History
	h.Push(a)
	before := b.Snapshot()
	if err := h.Pop(b); err == nil {
		t.Fatal("a state of lily was restored into spot")
	}
	if h.Len() != 1 || !reflect.DeepEqual(b.Snapshot(), before) {
		t.Fatal("a refused Pop changed the History or the machine")
	}
}
