package glk

import (
	"strings"
)

// Window methods.
const (
	winmethodLeft         = 0x00
	winmethodRight        = 0x01
	winmethodAbove        = 0x02
	winmethodBelow        = 0x03
	winmethodDirMask      = 0x0f
	winmethodFixed        = 0x10
	winmethodProportional = 0x20
	winmethodDivisionMask = 0xf0
)

// maxGrid bounds a text grid's cells.
const maxGrid = 1000

func (w *window) gridPut(c uint32) {
	if w.gridW <= 0 || w.gridH <= 0 {
		return
	}
	if c == '\n' {
		w.curX = 0
		w.curY++
		return
	}
	if w.curX >= w.gridW {
		w.curX = 0
		w.curY++
	}
	if w.curY < 0 || w.curY >= w.gridH || w.curX < 0 {
		return
	}
	w.grid[w.curY][w.curX] = c
	w.curX++
}

func (w *window) gridResize(width, height int) {
	width = min(max(width, 0), maxGrid)
	height = min(max(height, 0), maxGrid)
	grid := make([][]uint32, height)
	for y := range grid {
		grid[y] = make([]uint32, width)
		for x := range grid[y] {
			grid[y][x] = ' '
			if y < len(w.grid) && x < len(w.grid[y]) {
				grid[y][x] = w.grid[y][x]
			}
		}
	}
	w.grid, w.gridW, w.gridH = grid, width, height
}

func (w *window) gridClear() {
	for _, row := range w.grid {
		for x := range row {
			row[x] = ' '
		}
	}
	w.curX, w.curY = 0, 0
}

// statusLine is the first text grid's text.
func (g *Glk) statusLine() string {
	for _, id := range g.st.winOrder {
		w := g.st.windows[id]
		if w.typ != wintypeTextGrid {
			continue
		}
		rows := make([]string, 0, len(w.grid))
		for _, row := range w.grid {
			var b strings.Builder
			for _, c := range row {
				if c < 0x20 || c > 0x10FFFF {
					c = ' '
				}
				b.WriteRune(rune(c))
			}
			rows = append(rows, strings.TrimRight(b.String(), " "))
		}
		return strings.TrimRight(strings.Join(rows, "\n"), "\n")
	}
	return ""
}

// gridSize is the size a new window of the split gets.
func (g *Glk) splitSize(method, size uint32) (int, int) {
	W, H := g.opts.Width, g.opts.Height
	vertical := method&winmethodDirMask == winmethodAbove || method&winmethodDirMask == winmethodBelow
	n := int(min(size, maxGrid))
	if method&winmethodDivisionMask == winmethodProportional {
		if vertical {
			n = H * int(min(size, 100)) / 100
		} else {
			n = W * int(min(size, 100)) / 100
		}
	}
	if vertical {
		return W, min(n, H)
	}
	return min(n, W), H
}

func (g *Glk) newWindow(typ, rock uint32) (*window, error) {
	id, err := g.newID(classWindow)
	if err != nil {
		return nil, err
	}
	w := &window{id: id, rock: rock, typ: typ}
	g.st.windows[id] = w
	g.st.winOrder = append(g.st.winOrder, id)
	if typ != wintypePair {
		s, err := g.newStream(strWindow, false, true, 0)
		if err != nil {
			delete(g.st.windows, id)
			g.st.winOrder = removeID(g.st.winOrder, id)
			return nil, err
		}
		s.win = id
		w.stream = s.id
	}
	return w, nil
}

// windowOpen opens a window as cheapglk does (one text buffer window,
// the main one), and beside it what grue keeps: text grids (the first is
// the status line), graphics and blank windows, under pair windows.
// Another text buffer window is refused (0), as cheapglk refuses it, so
// that the story prints in the main window what it would under cheapglk.
func (g *Glk) windowOpen(split, method, size, wintype, rock uint32) (uint32, error) {
	s := g.st
	if s.root == 0 {
		if split != 0 || wintype != wintypeTextBuffer {
			return 0, nil
		}
		w, err := g.newWindow(wintype, rock)
		if err != nil {
			return 0, err
		}
		s.root = w.id
		s.mainWin = w.id
		return w.id, nil
	}
	old := s.windows[split]
	if old == nil || old.typ == wintypePair || g.opts.OneWindow {
		return 0, nil
	}
	switch wintype {
	case wintypeTextGrid:
		for _, w := range s.windows {
			if w.typ == wintypeTextGrid {
				return 0, nil // one text grid, the status line; a second (a quote box) goes to the main window as under cheapglk
			}
		}
	case wintypeGraphics, wintypeBlank:
	default:
		return 0, nil
	}
	switch method & winmethodDivisionMask {
	case winmethodFixed, winmethodProportional:
	default:
		return 0, nil
	}
	pair, err := g.newWindow(wintypePair, 0)
	if err != nil {
		return 0, err
	}
	w, err := g.newWindow(wintype, rock)
	if err != nil {
		g.removeWindow(pair)
		return 0, err
	}
	pair.parent = old.parent
	pair.child1, pair.child2 = w.id, old.id
	pair.method, pair.size, pair.key = method, size, w.id
	if p := s.windows[old.parent]; p != nil {
		if p.child1 == old.id {
			p.child1 = pair.id
		} else {
			p.child2 = pair.id
		}
	} else {
		s.root = pair.id
	}
	old.parent = pair.id
	w.parent = pair.id
	if wintype == wintypeTextGrid {
		w.gridResize(g.splitSize(method, size))
	}
	return w.id, nil
}

func (g *Glk) removeWindow(w *window) {
	if st := g.st.streams[w.stream]; st != nil {
		g.deleteStream(st)
	}
	delete(g.st.windows, w.id)
	g.st.winOrder = removeID(g.st.winOrder, w.id)
	if g.st.mainWin == w.id {
		g.st.mainWin = 0
	}
	for _, o := range g.st.windows {
		if o.key == w.id {
			o.key = 0
		}
	}
}

// closeTree closes w and every window under it.
func (g *Glk) closeTree(w *window) {
	if w.typ == wintypePair {
		for _, c := range []uint32{w.child1, w.child2} {
			if cw := g.st.windows[c]; cw != nil && c != w.id {
				g.closeTree(cw)
			}
		}
	}
	g.removeWindow(w)
}

// windowClose closes w; its sibling takes its parent's place.
func (g *Glk) windowClose(w *window) {
	s := g.st
	parent := s.windows[w.parent]
	g.closeTree(w)
	if parent == nil {
		s.root = 0
		return
	}
	sib := parent.child1
	if sib == w.id {
		sib = parent.child2
	}
	grand := s.windows[parent.parent]
	if sw := s.windows[sib]; sw != nil {
		sw.parent = parent.parent
	}
	if grand != nil {
		if grand.child1 == parent.id {
			grand.child1 = sib
		} else {
			grand.child2 = sib
		}
	} else {
		s.root = sib
	}
	g.removeWindow(parent)
}

func (g *Glk) sibling(w *window) uint32 {
	p := g.st.windows[w.parent]
	if p == nil {
		return 0
	}
	if p.child1 == w.id {
		return p.child2
	}
	return p.child1
}

// windowSize is what window_get_size answers: the main window is the
// whole screen, as cheapglk says; a grid its cells.
func (g *Glk) windowSize(w *window) (uint32, uint32) {
	switch w.typ {
	case wintypeTextBuffer:
		return uint32(g.opts.Width), uint32(g.opts.Height)
	case wintypeTextGrid:
		return uint32(w.gridW), uint32(w.gridH)
	case wintypeGraphics:
		return 0, 0
	}
	return 0, 0
}

func (g *Glk) windowClear(w *window) error {
	switch w.typ {
	case wintypeTextBuffer:
		if w.lineReq {
			return g.warn("window_clear: window has pending line request")
		}
		if w.id != g.st.mainWin {
			return nil
		}
		for i := 0; i < g.opts.Height; i++ {
			if err := g.outputRune('\n'); err != nil {
				return err
			}
		}
	case wintypeTextGrid:
		w.gridClear()
	}
	return nil
}
