package game

import "github.com/grue-lab/grue/game/zmachine"

// history is a Game's Undo history: the machine's states before each
// Step, kept as differences (zmachine.History), and the Game's view of
// each.
type history struct {
	states zmachine.History
	views  []view // views[i] goes with the i-th state, oldest first
}

// view is the Game's own part of a state: what it makes of the machine's.
type view struct {
	done, victory bool
	gmap          *Map
	reply         string
}

// view is the game's view now. The map is then shared: it is copied
// before it next changes.
func (g *Game) view() view {
	g.mapShared = true
	return view{done: g.done, victory: g.victory, gmap: g.gmap, reply: g.reply}
}

// setView puts the game's view back to v, a view of the machine's state
// now.
func (g *Game) setView(v view) {
	g.done, g.victory, g.reply = v.done, v.victory, v.reply
	g.followPlayer()
	if v.gmap != nil {
		g.gmap, g.mapShared = v.gmap, true
	}
}

// push saves g's state as the newest.
func (h *history) push(g *Game) {
	h.states.Push(g.m)
	h.views = append(h.views, g.view())
}

// pop puts g back in the newest state and forgets it.
func (h *history) pop(g *Game) error {
	if err := h.states.Pop(g.m); err != nil {
		return err
	}
	g.setView(h.views[len(h.views)-1])
	h.dropView()
	return nil
}

// drop forgets the newest state without going back to it.
func (h *history) drop() {
	h.states.Drop()
	h.dropView()
}

func (h *history) dropView() {
	if n := len(h.views); n > 0 {
		h.views[n-1] = view{}
		h.views = h.views[:n-1]
	}
}

// keep forgets all but the newest n states.
func (h *history) keep(n int) {
	h.states.Keep(n)
	if over := len(h.views) - max(n, 0); over > 0 {
		clear(h.views[:over])
		h.views = h.views[over:]
	}
}

// clone is a copy of h to be used apart from it.
func (h *history) clone() history {
	return history{states: *h.states.Clone(), views: append([]view(nil), h.views...)}
}
