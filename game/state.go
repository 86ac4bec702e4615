package game

import (
	"errors"
	"fmt"

	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/game/zmachine"
)

// State is a saved game: the machine's whole state and the Game's view of
// it (whether the game is over, and the map explored so far). It is immutable and may be restored any
// number of times, into the game that saved it or into another game of the
// same story and screen width.
type State struct {
	story   *zmachine.Story
	snap    *zmachine.Snapshot
	gstory  *GlulxStory     // a Glulx game's story, with gsnap
	gsnap   *glulx.Snapshot // a Glulx game's machine
	done    bool
	victory bool
	gmap    *Map
	reply   string // the game's last reply, to tell a question from a prompt
}

// ErrNoUndo is returned by Undo when there is no step to go back over.
var ErrNoUndo = errors.New("nothing to undo")

// Save captures the game's state. It costs a copy of dynamic memory.
func (g *Game) Save() *State {
	if g.gx != nil {
		return g.saveGlulx()
	}
	g.mapShared = true
	return &State{story: g.story, snap: g.m.Snapshot(), done: g.done, victory: g.victory, gmap: g.gmap, reply: g.reply}
}

// Compact returns s with the machine's memory kept as its difference from
// the story's (zmachine.Snapshot.Compact): for states kept for long and
// in numbers, as an MCP server's save_state keeps them. It restores as s
// does.
func (s *State) Compact() *State {
	if s == nil {
		return nil
	}
	c := *s
	if s.snap == nil {
		return &c // a Glulx state keeps RAM as differences already
	}
	c.snap = s.snap.Compact()
	return &c
}

// Restore puts the game back in state s, which Save made on a game of the
// same story. The Undo history is kept: Undo goes back over the steps played
// before the Restore as well.
func (g *Game) Restore(s *State) error {
	if s != nil && g.gx != nil {
		return g.restoreGlulx(s)
	}
	if s == nil || s.snap == nil {
		return fmt.Errorf("%s: restoring: no state", g.name)
	}
	if s.story != g.story && !sameStory(s.story, g.story) {
		return fmt.Errorf("%s: restoring: the state comes from another story (release %d, serial %s)",
			g.name, s.story.Release(), s.story.Serial())
	}
	if err := g.m.Restore(s.snap); err != nil {
		return fmt.Errorf("%s: restoring: %w", g.name, err)
	}
	g.setView(view{done: s.done, victory: s.victory, gmap: s.gmap, reply: s.reply})
	return nil
}

func sameStory(a, b *zmachine.Story) bool {
	return a.Release() == b.Release() && a.Serial() == b.Serial() &&
		a.Checksum() == b.Checksum() && a.Size() == b.Size()
}

// Undo goes back one Step. It can go back as many steps as UndoDepth allows
// (DefaultUndoDepth), and returns ErrNoUndo when there are none left.
func (g *Game) Undo() error {
	if g.gx != nil {
		if err := g.glulxPop(); err != nil {
			if errors.Is(err, ErrNoUndo) {
				return fmt.Errorf("%s: %w", g.name, ErrNoUndo)
			}
			return fmt.Errorf("%s: undo: %w", g.name, err)
		}
		return nil
	}
	if g.history.states.Len() == 0 {
		return fmt.Errorf("%s: %w", g.name, ErrNoUndo)
	}
	if err := g.history.pop(g); err != nil {
		return fmt.Errorf("%s: undo: %w", g.name, err)
	}
	return nil
}

// Fork returns an independent copy of the game: a new machine of the same
// story in the same state, with the same Undo history. The two may then be
// played apart, and in different goroutines.
func (g *Game) Fork() (*Game, error) {
	if g.gx != nil {
		return g.forkGlulx()
	}
	g.mapShared = true
	g.vaShared() // the fork shares what valid actions knows of the story
	f := *g
	m, err := f.newMachine()
	if err != nil {
		return nil, fmt.Errorf("%s: fork: %w", g.name, err)
	}
	if err := m.Restore(g.m.Snapshot()); err != nil {
		return nil, fmt.Errorf("%s: fork: %w", g.name, err)
	}
	f.m = m
	f.history = g.history.clone()
	f.va = nil // the fork remembers its own states
	return &f, nil
}
