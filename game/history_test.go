package game

import (
	"errors"
	"testing"
)

// TestUndoDepthAndForkHistory plays Zork I with an Undo depth of 10 and
// checks that Undo goes back exactly 10 steps, each to the state, map,
// score and ending it left, and no further; and that a fork keeps its own
// history: undoing in it after the game it came from went on and undid
// gives back the fork's own past.
func TestUndoDepthAndForkHistory(t *testing.T) {
	cmds := walkthrough(t, "zork1.walkthrough.txt")[:40]
	const depth = 10
	g := openTest(t, "zork1.z3", UndoDepth(depth))
	type seen struct {
		hash  uint64
		rooms string
		score int
		done  bool
		reply string
	}
	look := func(g *Game) seen {
		return seen{g.StateHash(), g.Map().String(), g.Score(), g.Done(), g.reply}
	}
	var past []seen
	for _, c := range cmds[:30] {
		past = append(past, look(g))
		if _, err := g.Step(c); err != nil {
			t.Fatal(err)
		}
	}
	fork, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	forkPast := append([]seen(nil), past...)
	for _, c := range cmds[30:] {
		forkPast = append(forkPast, look(fork))
		if _, err := fork.Step(c); err != nil {
			t.Fatal(err)
		}
	}

	for k := len(past) - 1; k >= len(past)-depth; k-- {
		if err := g.Undo(); err != nil {
			t.Fatalf("undo to before step %d: %v", k, err)
		}
		if got := look(g); got != past[k] {
			t.Fatalf("undo to before step %d: state, map, score or ending differ:\n%+v\nwant\n%+v", k, got, past[k])
		}
	}
	if err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Fatalf("undo past the depth of %d: %v; want ErrNoUndo", depth, err)
	}

	for k := len(forkPast) - 1; k >= len(forkPast)-depth; k-- {
		if err := fork.Undo(); err != nil {
			t.Fatalf("fork: undo to before step %d: %v", k, err)
		}
		if got := look(fork); got != forkPast[k] {
			t.Fatalf("fork: undo to before step %d: state, map, score or ending differ", k)
		}
	}
	if err := fork.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Fatalf("fork: undo past the depth of %d: %v; want ErrNoUndo", depth, err)
	}
}

// TestUndoDisabled checks that with Undo off (a negative depth) steps keep
// no history, and a failed step still leaves the game as it was.
func TestUndoDisabled(t *testing.T) {
	g := openTest(t, "zork1.z3", UndoDepth(-1))
	play(t, g, []string{"open mailbox", "take leaflet"})
	if err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Fatalf("Undo with the depth negative: %v; want ErrNoUndo", err)
	}
	if g.history.states.Len() != 0 || len(g.history.views) != 0 {
		t.Fatalf("history holds %d states and %d views with Undo off", g.history.states.Len(), len(g.history.views))
	}
}
