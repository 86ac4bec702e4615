package zmachine

import "fmt"

// Snapshot is a copy of a Machine's whole state: dynamic memory, the stack
// and call frames, the program counter, the random number generator, the
// output streams and windows, and what the machine is waiting for. It does
// not hold the story (shared) or save files (not game state). A Snapshot is
// immutable: it can be restored any number of times, into the machine that
// took it or into another machine of the same story.
type Snapshot struct {
	story  *Story
	dyn    []byte
	cmem   []byte // for a Compact snapshot, dyn's difference from the story's; dyn is then nil
	stack  []uint16
	frames []frame
	pc     uint32
	rng    rng
	state  State
	in     inputRequest
	out    outputState
}

// outputState is the part of the output that is game state.
type outputState struct {
	screenOff    bool
	transcriptOn bool
	recordOn     bool
	mem          [16]memStream
	memDepth     int
	window       int
	upperHeight  int
	upper        []rune // the upper window's rows, concatenated
	row, col     int
	font         uint16
	style        uint16
}

// Snapshot copies the machine's state.
func (m *Machine) Snapshot() *Snapshot { return m.SnapshotInto(nil) }

// SnapshotInto copies the machine's state into s, reusing its buffers, and
// returns it; with s nil it makes a new Snapshot. It is for loops that take
// many snapshots in turn (trying every action from a state, say): s must not
// be in use elsewhere, since its old contents are overwritten.
func (m *Machine) SnapshotInto(s *Snapshot) *Snapshot {
	if s == nil {
		s = &Snapshot{}
	}
	return m.snapshotInto(s, true)
}

// snapshotInto copies the machine's state into s, dynamic memory only if
// withDyn: the undo states keep theirs apart (undo.go).
func (m *Machine) snapshotInto(s *Snapshot, withDyn bool) *Snapshot {
	s.story = m.story
	s.cmem = nil
	if withDyn {
		s.dyn = append(s.dyn[:0], m.dyn...)
	}
	s.stack = append(s.stack[:0], m.stack[:m.sp]...)
	s.frames = append(s.frames[:0], m.frames...)
	s.pc, s.rng, s.state, s.in = m.pc, m.rng, m.state, m.in
	o := &m.out
	s.out = outputState{
		screenOff: o.screenOff, transcriptOn: o.transcriptOn, recordOn: o.recordOn,
		mem: o.mem, memDepth: o.memDepth, window: o.window,
		upperHeight: o.upperHeight, row: o.row, col: o.col, font: o.font,
		style: o.style, upper: s.out.upper[:0],
	}
	for _, row := range o.upper {
		s.out.upper = append(s.out.upper, row...)
	}
	return s
}

// Restore puts the machine back in the state s holds. s must come from a
// machine of the same story with the same screen width.
func (m *Machine) Restore(s *Snapshot) error {
	if s == nil {
		return fmt.Errorf("zmachine: Restore: nil snapshot")
	}
	if s.cmem != nil {
		if s.story != m.story {
			return fmt.Errorf("zmachine: Restore: the snapshot is of another story")
		}
		dyn := append([]byte(nil), m.static[:len(m.dyn)]...)
		switch err := diffDecode(dyn, s.cmem); err {
		case nil:
		case errCodeCorrupt:
			return fmt.Errorf("zmachine: Restore: the compact snapshot's memory is corrupt")
		default:
			return fmt.Errorf("zmachine: Restore: the compact snapshot's memory %v", err)
		}
		return m.restore(s, dyn)
	}
	return m.restore(s, s.dyn)
}

// restore is Restore with the dynamic memory dyn instead of s's: a
// History keeps its states' memory apart.
func (m *Machine) restore(s *Snapshot, dyn []byte) error {
	if s.story != m.story {
		return fmt.Errorf("zmachine: Restore: the snapshot is of another story")
	}
	if len(s.out.upper)%m.opts.Width != 0 {
		return fmt.Errorf("zmachine: Restore: the snapshot is of a machine with another screen width")
	}
	copy(m.dyn, dyn)
	m.sp = copy(m.stack, s.stack)
	m.frames = append(m.frames[:0], s.frames...)
	m.syncFrame()
	m.pc = s.pc
	m.rng = s.rng
	m.state = s.state
	m.in = s.in
	o := &m.out
	o.screenOff, o.transcriptOn, o.recordOn = s.out.screenOff, s.out.transcriptOn, s.out.recordOn
	o.mem, o.memDepth, o.window = s.out.mem, s.out.memDepth, s.out.window
	o.upperHeight, o.row, o.col, o.font = s.out.upperHeight, s.out.row, s.out.col, s.out.font
	o.style = s.out.style
	w := m.opts.Width
	rows := len(s.out.upper) / w
	for len(o.upper) < rows {
		o.upper = append(o.upper, make([]rune, w))
	}
	o.upper = o.upper[:rows]
	for i := range o.upper {
		copy(o.upper[i], s.out.upper[i*w:(i+1)*w])
	}
	return nil
}
