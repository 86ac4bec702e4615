package zmachine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// History is a stack of a machine's past states, newest last, for undo:
// the states of save_undo, and a game's states before each command.
//
// A turn changes a few hundred bytes of a game's dynamic memory (18 to
// 26 KB in heavy Inform games), so, as Frotz keeps its undo states, only
// the newest state's memory is kept whole and each older one as its
// difference from the state after it. A state costs a few hundred bytes
// where a [Snapshot] costs the whole memory: a Snapshot a turn came to
// megabytes over a few hundred turns, each page of it faulted in and
// cleared by the kernel.
//
// The zero History is empty and ready to use. A History holds the states
// of one story; it is not safe for use by several goroutines at once, but
// a [History.Clone] may be used apart from the History it was made from.
type History struct {
	states []historyState
	// top is the newest state's dynamic memory; its capacity stays when
	// the History empties.
	top []byte
	// scratch is where a difference is made before it is copied to a
	// slice of its own size.
	scratch []byte
}

// historyState is one state of a History. Neither part changes once made,
// so clones share them.
type historyState struct {
	s *Snapshot // all of the state but dynamic memory (dyn is nil)
	// older is the difference (appendDelta) between this state's dynamic
	// memory and the state's before it; empty for the oldest state.
	older []byte
}

// ErrNoHistory is returned by [History.Pop] when the History is empty.
var ErrNoHistory = errors.New("zmachine: no state to go back to")

// Len is the number of states the History holds.
func (h *History) Len() int { return len(h.states) }

// Push saves m's state as the newest.
func (h *History) Push(m *Machine) {
	st := historyState{s: m.snapshotInto(&Snapshot{}, false)}
	if len(h.states) > 0 && len(h.top) == len(m.dyn) {
		h.scratch = appendDelta(h.scratch[:0], m.dyn, h.top)
		st.older = append([]byte(nil), h.scratch...)
		applyDelta(h.top, st.older) // top is now m.dyn, for the bytes changed only
	} else {
		h.Keep(0) // a History of another story's machine starts again
		h.top = append(h.top[:0], m.dyn...)
	}
	h.states = append(h.states, st)
}

// Pop puts m back in the newest state and forgets that state. m must be a
// machine of the story the states came from, with the same screen width;
// on an error m and the History are left as they were.
func (h *History) Pop(m *Machine) error {
	if len(h.states) == 0 {
		return ErrNoHistory
	}
	if len(h.top) != len(m.dyn) {
		return fmt.Errorf("zmachine: History.Pop: the states are of another story")
	}
	if err := m.restore(h.states[len(h.states)-1].s, h.top); err != nil {
		return err
	}
	h.Drop()
	return nil
}

// Drop forgets the newest state without restoring it.
func (h *History) Drop() {
	n := len(h.states)
	if n == 0 {
		return
	}
	st := h.states[n-1]
	h.states[n-1] = historyState{}
	h.states = h.states[:n-1]
	if n > 1 {
		applyDelta(h.top, st.older) // top becomes the state before
	}
}

// Keep forgets all but the newest n states.
func (h *History) Keep(n int) {
	over := len(h.states) - max(n, 0)
	if over <= 0 {
		return
	}
	clear(h.states[:over])
	// Slicing from the front, not copying down, costs nothing a push:
	// append copies what is left once the slice's capacity runs out.
	h.states = h.states[over:]
	if len(h.states) > 0 {
		h.states[0].older = nil // the oldest needs no difference
	}
}

// Clone returns a History holding the same states, to be used apart from
// h (by a forked game, say).
func (h *History) Clone() *History {
	return &History{
		states: append([]historyState(nil), h.states...),
		top:    bytes.Clone(h.top),
	}
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
// The difference is the History's own, so a malformed one is a bug: it
// panics rather than leave memory half restored unnoticed.
func applyDelta(mem, delta []byte) {
	pos := 0
	for len(delta) > 0 {
		skip, k := binary.Uvarint(delta)
		if k <= 0 {
			fail("undo: bad state difference")
		}
		delta = delta[k:]
		run, k := binary.Uvarint(delta)
		if k <= 0 || uint64(len(delta)-k) < run || uint64(len(mem)-pos) < skip+run {
			fail("undo: bad state difference")
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
