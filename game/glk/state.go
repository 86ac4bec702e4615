package glk

import (
	"maps"
	"slices"
	"strings"
)

// Object classes, as the dispatch layer numbers them.
const (
	classWindow  = 0
	classStream  = 1
	classFileref = 2
	classSchan   = 3
	numClasses   = 4
)

// Window types.
const (
	wintypeAll        = 0
	wintypePair       = 1
	wintypeBlank      = 2
	wintypeTextBuffer = 3
	wintypeTextGrid   = 4
	wintypeGraphics   = 5
)

// Stream types.
const (
	strWindow = iota + 1
	strMemory
	strFile
	strResource
)

type window struct {
	id, rock uint32
	typ      uint32
	parent   uint32
	stream   uint32
	echo     uint32
	// pair windows
	child1, child2 uint32
	method, size   uint32
	key            uint32
	// text grid
	gridW, gridH int
	grid         [][]uint32
	curX, curY   int
	// input requests
	lineReq, charReq bool
	lineUni, charUni bool
	lineBuf, lineLen uint32
	lineUbuf         []uint32 // a Unicode line buffer's retained copy
	terminators      []uint32
}

type stream struct {
	id, rock            uint32
	typ                 int
	unicode, binary     bool
	readable, writable  bool
	readcount, writecnt uint32
	win                 uint32
	// memory streams: the byte array in VM memory, or the retained copy
	// of a Unicode array
	bufAddr, bufLen uint32
	ubuf            []uint32
	pos, eof        uint32
	// file and resource streams: the bytes, the position
	data     []byte
	dpos     int
	fileName string
	dirty    bool
}

type fileref struct {
	id, rock uint32
	name     string
	usage    uint32
	textmode bool
	unusable bool // a host path named at a prompt: no file of the store
}

// schannel is a sound channel; none is ever made (gestalt Sound is 0),
// but the iterate and rock functions read the table.
type schannel struct {
	rock uint32
}

type pendingInput struct {
	line  string
	key   rune
	isKey bool
	eof   bool
}

// state is everything Glk knows, copied whole by Snapshot.
type state struct {
	lastID  [numClasses]uint32
	windows map[uint32]*window
	streams map[uint32]*stream
	frefs   map[uint32]*fileref
	schans  map[uint32]*schannel
	// creation order, for the iterate functions
	winOrder, strOrder, frefOrder, schanOrder []uint32

	root      uint32
	mainWin   uint32
	current   *stream
	timer     uint32
	waiting   InputKind
	pending   *pendingInput
	out       strings.Builder
	exited    bool
	tempCount int
}

func newState() *state {
	s := &state{
		windows: map[uint32]*window{},
		streams: map[uint32]*stream{},
		frefs:   map[uint32]*fileref{},
		schans:  map[uint32]*schannel{},
	}
	for i := range s.lastID {
		// glkop.c starts class i's ids at 1+120*i (plus a number of the
		// clock that we leave out, so that ids are the same every run).
		s.lastID[i] = uint32(120 * i)
	}
	return s
}

func (s *state) clone() *state {
	c := &state{
		lastID:     s.lastID,
		windows:    make(map[uint32]*window, len(s.windows)),
		streams:    make(map[uint32]*stream, len(s.streams)),
		frefs:      make(map[uint32]*fileref, len(s.frefs)),
		schans:     make(map[uint32]*schannel, len(s.schans)),
		winOrder:   slices.Clone(s.winOrder),
		strOrder:   slices.Clone(s.strOrder),
		frefOrder:  slices.Clone(s.frefOrder),
		schanOrder: slices.Clone(s.schanOrder),
		root:       s.root,
		mainWin:    s.mainWin,
		timer:      s.timer,
		waiting:    s.waiting,
		exited:     s.exited,
		tempCount:  s.tempCount,
	}
	for id, w := range s.windows {
		w2 := *w
		w2.grid = make([][]uint32, len(w.grid))
		for i, row := range w.grid {
			w2.grid[i] = slices.Clone(row)
		}
		w2.lineUbuf = slices.Clone(w.lineUbuf)
		w2.terminators = slices.Clone(w.terminators)
		c.windows[id] = &w2
	}
	for id, st := range s.streams {
		st2 := *st
		st2.ubuf = slices.Clone(st.ubuf)
		if st.writable {
			st2.data = slices.Clone(st.data) // read-only bytes (resources, the game file) are shared
		}
		c.streams[id] = &st2
	}
	for id, f := range s.frefs {
		f2 := *f
		c.frefs[id] = &f2
	}
	maps.Copy(c.schans, s.schans)
	for id, sc := range s.schans {
		sc2 := *sc
		c.schans[id] = &sc2
	}
	if s.current != nil {
		c.current = c.streams[s.current.id]
	}
	if s.pending != nil {
		p := *s.pending
		c.pending = &p
	}
	c.out.WriteString(s.out.String())
	return c
}

// State is a copy of the whole Glk state: windows, streams, file refs,
// input requests, the main window's untaken text. Files in the
// [FileStore] are not part of it (a fork that must not share them gets
// its own store, [MemFiles.Clone]).
type State struct {
	s *state
}

// Snapshot copies the whole Glk state.
func (g *Glk) Snapshot() *State {
	return &State{s: g.st.clone()}
}

// Restore makes the Glk state a copy of st, which Snapshot took (of
// this Glk or another one of the same game). A nil st is refused.
func (g *Glk) Restore(st *State) error {
	if st == nil || st.s == nil {
		return errNilState
	}
	g.st = st.s.clone()
	return nil
}
