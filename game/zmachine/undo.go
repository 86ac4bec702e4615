package zmachine

import (
	"bytes"
	"encoding/binary"
)

// The undo states of save_undo and restore_undo.
//
// An Inform game saves an undo state every turn, and Frotz keeps 500 of
// them. Kept whole, they would cost a heavy game's dynamic memory (18 to
// 26 KB in the corpus) every turn: megabytes of fresh pages over a few
// hundred turns, each page faulted in and cleared by the kernel, then
// filled by a copy. A turn changes a few hundred bytes of that memory, so,
// as Frotz does, only the newest state's memory is kept whole, and each
// older state as its difference from the state after it.

// undoStack is the machine's save_undo states, oldest first.
type undoStack struct {
	// states holds each state with its dyn left nil.
	states []undoState
	// top is the newest state's dynamic memory; its capacity stays
	// when the stack empties.
	top []byte
	// scratch is where a difference is made before it is copied to a
	// slice of its own size.
	scratch []byte
}

// undoState is one save_undo state.
type undoState struct {
	s *Snapshot // all of the state but dynamic memory
	// older is the difference (appendDelta) between this state's dynamic
	// memory and the state's before it; empty for the oldest state.
	older []byte
}

// saveUndo implements save_undo: the state is kept with the program
// counter on the store byte, so that restore_undo can store 2 there.
func (m *Machine) saveUndo() {
	if m.opts.UndoSlots < 0 {
		m.store(0xffff)
		return
	}
	u := &m.undo
	if len(u.states) >= m.opts.UndoSlots {
		// Forget the oldest state; the next one becomes the oldest and
		// needs no difference.
		copy(u.states, u.states[1:])
		u.states[len(u.states)-1] = undoState{}
		u.states = u.states[:len(u.states)-1]
		if len(u.states) > 0 {
			u.states[0].older = nil
		}
	}
	st := undoState{s: m.snapshotInto(&Snapshot{}, false)}
	if len(u.states) > 0 {
		u.scratch = appendDelta(u.scratch[:0], m.dyn, u.top)
		st.older = append([]byte(nil), u.scratch...)
		applyDelta(u.top, st.older) // top is now m.dyn, for the bytes changed only
	} else {
		u.top = append(u.top[:0], m.dyn...)
	}
	u.states = append(u.states, st)
	m.store(1)
}

// restoreUndo implements restore_undo: back to the latest save_undo, which
// is then forgotten, so that repeated undos go further back. The random
// number generator is not rolled back, as in Frotz.
func (m *Machine) restoreUndo() {
	if m.opts.UndoSlots < 0 {
		m.store(0xffff)
		return
	}
	u := &m.undo
	if len(u.states) == 0 {
		m.store(0)
		return
	}
	st := u.states[len(u.states)-1]
	u.states[len(u.states)-1] = undoState{}
	u.states = u.states[:len(u.states)-1]
	keep := m.dyn[0x11] & 0x03
	// Frotz's undo restores memory, stack and program counter only: the
	// random number generator runs on, so random events after an undo
	// differ from those the undone turn drew.
	rng := m.rng
	st.s.dyn = u.top
	err := m.Restore(st.s)
	st.s.dyn = nil
	if err != nil {
		fail("restore_undo: %v", err)
	}
	// top becomes the state before: the new newest.
	if len(u.states) > 0 {
		applyDelta(u.top, st.older)
	}
	m.rng = rng
	m.dyn[0x11] = m.dyn[0x11]&^0x03 | keep
	m.state = running
	m.store(2)
}

// appendDelta appends to dst the difference between a and b, which have
// the same length, and returns the extended slice: for each run of bytes
// that differ, the count of equal bytes before it and the run's length
// (both unsigned varints), then the run's bytes of a XOR b. applyDelta of
// it turns a into b and b into a.
func appendDelta(dst, a, b []byte) []byte {
	n := len(a)
	b = b[:n]
	last, i := 0, 0
	for {
		if i = mismatch(a, b, i); i == n {
			return dst
		}
		start := i
		for i < n && a[i] != b[i] {
			i++
		}
		dst = binary.AppendUvarint(dst, uint64(start-last))
		dst = binary.AppendUvarint(dst, uint64(i-start))
		for j := start; j < i; j++ {
			dst = append(dst, a[j]^b[j])
		}
		last = i
	}
}

// mismatch returns the first index from i on where a and b differ, or
// len(a) if none: a turn changes a few hundred bytes of many kilobytes, so
// it compares blocks (bytes.Equal is the runtime's vectorised memequal),
// then words, then bytes.
func mismatch(a, b []byte, i int) int {
	const block = 256
	n := len(a)
	b = b[:n]
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// applyDelta applies a difference made by appendDelta to mem, in place.
// The difference is the machine's own, so a malformed one is a bug: it
// panics rather than leave memory half restored unnoticed.
func applyDelta(mem, delta []byte) {
	pos := 0
	for len(delta) > 0 {
		skip, k := binary.Uvarint(delta)
		if k <= 0 {
			fail("restore_undo: bad undo difference")
		}
		delta = delta[k:]
		run, k := binary.Uvarint(delta)
		if k <= 0 || uint64(len(delta)-k) < run || uint64(len(mem)-pos) < skip+run {
			fail("restore_undo: bad undo difference")
		}
		delta = delta[k:]
		pos += int(skip)
		for j, x := range delta[:run] {
			mem[pos+j] ^= x
		}
		pos += int(run)
		delta = delta[run:]
	}
}
