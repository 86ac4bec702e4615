package zmachine

import "fmt"

// Memory. Dynamic memory belongs to each Machine (m.dyn); everything above
// it is read from the shared story bytes (m.static). Only dynamic memory may
// be written.

// stackSize is the capacity, in words, of the evaluation stack.
const stackSize = 1 << 15

// maxFrames bounds the call depth: deeper recursion is a stack overflow.
const maxFrames = 4096

// rb and rw are the interpreter's hottest functions, kept small enough to
// inline. A read past the end of the story is Go's index error, which run
// reports as a read beyond the end of the story.
func (m *Machine) rb(a uint32) byte {
	if a < uint32(len(m.dyn)) {
		return m.dyn[a]
	}
	return m.static[a]
}

func (m *Machine) rw(a uint32) uint16 {
	return uint16(m.rb(a))<<8 | uint16(m.rb(a+1))
}

func (m *Machine) wb(a uint32, v byte) {
	if a >= uint32(len(m.dyn)) {
		fail("write to 0x%05x, outside dynamic memory (0x00000 to 0x%05x)", a, len(m.dyn)-1)
	}
	m.dyn[a] = v
	if a == 0x11 {
		m.flags2Written()
	}
}

func (m *Machine) ww(a uint32, v uint16) {
	if a > 0x11 && a+1 < uint32(len(m.dyn)) { // neither byte is Flags 2's
		m.dyn[a], m.dyn[a+1] = byte(v>>8), byte(v)
		return
	}
	m.wb(a, byte(v>>8))
	m.wb(a+1, byte(v))
}

// PeekByte returns the byte at addr, or false if addr is outside memory.
func (m *Machine) PeekByte(addr uint32) (byte, bool) {
	if addr < uint32(len(m.dyn)) {
		return m.dyn[addr], true
	}
	if addr < uint32(len(m.static)) {
		return m.static[addr], true
	}
	return 0, false
}

// PeekWord returns the big-endian word at addr, or false if it is outside
// memory.
func (m *Machine) PeekWord(addr uint32) (uint16, bool) {
	hi, ok1 := m.PeekByte(addr)
	lo, ok2 := m.PeekByte(addr + 1)
	return uint16(hi)<<8 | uint16(lo), ok1 && ok2
}

// Global returns global variable n (0 to 239; variable 16+n in the
// Standard's numbering).
func (m *Machine) Global(n int) uint16 {
	if n < 0 || n > 239 {
		return 0
	}
	a := m.story.globals + 2*uint32(n)
	return uint16(m.dyn[a])<<8 | uint16(m.dyn[a+1])
}

// SetGlobal sets global variable n (0 to 239) to v, as a game's store
// would: for probing a forked machine (which global does a command print?),
// not for playing. It fails for a global number out of range.
func (m *Machine) SetGlobal(n int, v uint16) error {
	if n < 0 || n > 239 {
		return fmt.Errorf("zmachine: SetGlobal: global %d is out of range 0-239", n)
	}
	a := m.story.globals + 2*uint32(n)
	if int(a)+1 >= len(m.dyn) {
		return fmt.Errorf("zmachine: SetGlobal: global %d lies beyond dynamic memory", n)
	}
	m.dyn[a], m.dyn[a+1] = byte(v>>8), byte(v)
	return nil
}

// DynamicMemory returns a copy of dynamic memory.
func (m *Machine) DynamicMemory() []byte { return append([]byte(nil), m.dyn...) }

// Instructions is the number of instructions executed since New.
func (m *Machine) Instructions() uint64 { return m.count }

// Header values grue reports as an interpreter: Frotz's, so that a story
// that prints them (the Inform library's VERSION does) prints what it prints
// under dfrotz.
const (
	interpreterNumber  = 1   // DECSystem-20, as Frotz's dumb interface reports
	interpreterVersion = 'F' // Frotz's letter
)

// reset puts the machine in its starting state: dynamic memory from the
// story, an empty stack, the program counter at the story's start and the
// header fields an interpreter sets. The transcript and fixed-pitch bits of
// Flags 2 survive (as a restart must keep them).
func (m *Machine) reset() {
	keep := byte(0)
	if m.count > 0 || m.state != NotStarted {
		keep = m.dyn[0x11] & 0x03
	}
	copy(m.dyn, m.static[:len(m.dyn)])
	m.sp = 0
	m.frames = m.frames[:0]
	m.frames = append(m.frames, frame{store: -1})
	m.syncFrame()
	m.pc = m.story.initialPC
	m.out.reset()
	m.setHeader()
	m.dyn[0x11] = m.dyn[0x11]&^0x03 | keep
	m.out.transcriptOn = keep&1 != 0
}

// setHeader writes the header fields that the interpreter owns (Standard
// §11), with the values dfrotz 2.54 writes: a story can read them, and what
// it does with them must match.
func (m *Machine) setHeader() {
	d := m.dyn
	v := m.story.version
	if v <= 3 {
		// Flags 1: screen splitting available (bit 5); the status line is
		// available (bit 4 stays as the story has it, normally clear).
		d[0x01] |= 0x20
	} else {
		// Flags 1: timed input available (bit 7). Styles and fonts are
		// accepted; their text is kept, so the story need not know.
		d[0x01] |= 0x80
		d[0x1e] = interpreterNumber
		d[0x1f] = interpreterVersion
		d[0x20] = byte(m.opts.Height)
		d[0x21] = byte(m.opts.Width)
	}
	if v >= 5 {
		// Flags 2: refuse the mouse (bit 5), sound (bit 7) and menus
		// (bit 8); undo (bit 4) is granted.
		d[0x11] &^= 0x20 | 0x80
		d[0x10] &^= 0x01
		d[0x22], d[0x23] = 0, byte(m.opts.Width)
		d[0x24], d[0x25] = 0, byte(m.opts.Height)
		d[0x26] = 1 // font width in units
		d[0x27] = 1 // font height in units
		d[0x2c] = 0 // default colours: none
		d[0x2d] = 0
	}
	// Standard revision 1.1.
	d[0x32] = 1
	d[0x33] = 1
}

// flags2Written keeps output stream 2 in step with the transcript bit that a
// game sets or clears by writing Flags 2 itself (Standard §7.3, §11.1.2.1).
func (m *Machine) flags2Written() {
	m.out.transcriptOn = m.dyn[0x11]&1 != 0
}
