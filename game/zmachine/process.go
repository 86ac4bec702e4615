package zmachine

import (
	"fmt"
	"runtime"
	"strings"
)

// The instruction loop (Standard §4): fetch an opcode, decode its operands,
// execute it; until the game asks for input, quits or fails.

// running is the State of a machine inside run; callers never see it.
const running State = -1

// Opcode numbering used by exec: 2OP opcodes are 0x00-0x1f, 1OP 0x80-0x8f,
// 0OP 0xb0-0xbf, VAR 0xe0-0xff and EXT 0x100-0x1ff.
const (
	op1  = 0x80
	op0  = 0xb0
	opV  = 0xe0
	opEX = 0x100
)

// run executes instructions until the machine stops for input or halts.
// A fault inside an instruction (or a Go run-time error caused by a broken
// story) is turned into an *Error and halts the machine.
// A non-nil input is first handed to the instruction that waits for it.
func (m *Machine) run(input *string) (err error) {
	m.state = running
	defer func() {
		if r := recover(); r != nil {
			var msg string
			switch v := r.(type) {
			case fault:
				msg = v.msg
			case runtime.Error:
				msg = v.Error()
				if strings.Contains(msg, "index out of range") {
					msg = "memory access beyond the end of the story (" + msg + ")"
				} else {
					msg = "story file broke the interpreter: " + msg
				}
			default:
				msg = fmt.Sprint(v)
			}
			m.state = Halted
			m.out.capture = nil
			err = &Error{PC: m.opPC, Msg: msg}
		}
	}()
	if input != nil {
		m.supply(*input)
	}
	m.left = m.opts.Budget
	for m.state == running {
		if m.left <= 0 {
			m.state = Halted
			return &Error{PC: m.pc, Msg: fmt.Sprintf("no input request after %d instructions: the story seems to be in an endless loop", m.opts.Budget)}
		}
		m.left--
		m.exec()
	}
	return nil
}

// charge takes n bytes of work by one instruction (copying or scanning a
// table, say) out of the budget, one instruction's worth per 8 bytes, so
// that the budget bounds time and not just instructions.
func (m *Machine) charge(n int) { m.left -= n / 8 }

// fetch reads the byte at the program counter and advances it.
func (m *Machine) fetch() byte {
	b := m.rb(m.pc)
	m.pc++
	return b
}

func (m *Machine) fetchWord() uint16 {
	w := m.rw(m.pc)
	m.pc += 2
	return w
}

// operand reads one operand of type t (0 large constant, 1 small
// constant, 2 variable).
func (m *Machine) operand(t byte) uint16 {
	switch t {
	case 0:
		return m.fetchWord()
	case 1:
		return uint16(m.fetch())
	default:
		return m.getVar(m.fetch())
	}
}

// operandTypes decodes a types byte into m.ops, appending operands until
// the first "omitted" type. It reports whether all four were present. The
// operand reads are written out here rather than calling operand: this is
// the interpreter's hottest loop.
func (m *Machine) operandTypes(types byte) bool {
	for shift := 6; shift >= 0; shift -= 2 {
		switch types >> uint(shift) & 3 {
		case 0:
			m.ops[m.nops] = m.rw(m.pc)
			m.pc += 2
		case 1:
			m.ops[m.nops] = uint16(m.rb(m.pc))
			m.pc++
		case 2:
			v := m.rb(m.pc)
			m.pc++
			m.ops[m.nops] = m.getVar(v)
		default:
			return false
		}
		m.nops++
	}
	return true
}

// exec decodes and executes one instruction.
func (m *Machine) exec() {
	m.opPC = m.pc
	m.count++
	m.nops = 0
	b := m.fetch()
	var code int
	switch {
	case b < 0x80: // long form, 2OP: small constants or variables
		code = int(b & 0x1f)
		x := uint16(m.rb(m.pc))
		y := uint16(m.rb(m.pc + 1))
		m.pc += 2
		if b&0x40 != 0 {
			x = m.getVar(byte(x))
		}
		if b&0x20 != 0 {
			y = m.getVar(byte(y))
		}
		m.ops[0], m.ops[1] = x, y
		m.nops = 2
	case b < 0xc0: // short form
		t := b >> 4 & 3
		if t == 3 {
			if b == 0xbe && m.story.version >= 5 {
				code = opEX + int(m.fetch())
				m.operandTypes(m.fetch())
				break
			}
			code = op0 + int(b&0x0f)
		} else {
			code = op1 + int(b&0x0f)
			m.ops[0] = m.operand(t)
			m.nops = 1
		}
	default: // variable form
		if b&0x20 == 0 {
			code = int(b & 0x1f)
		} else {
			code = opV + int(b&0x1f)
		}
		if b == 0xec || b == 0xfa { // call_vs2, call_vn2: two types bytes
			t1, t2 := m.fetch(), m.fetch()
			if m.operandTypes(t1) {
				m.operandTypes(t2)
			}
		} else {
			m.operandTypes(m.fetch())
		}
	}
	m.dispatch(code)
}

// needOps fails unless the instruction has at least n operands.
func (m *Machine) needOps(n int, name string) {
	if m.nops < n {
		fail("%s needs %d operands, got %d", name, n, m.nops)
	}
}

// getVar reads variable v: 0 pops the stack, 1-15 are the current
// routine's locals, 16-255 globals.
func (m *Machine) getVar(v byte) uint16 {
	if v >= 16 {
		a := m.globals + 2*uint32(v-16)
		return uint16(m.dyn[a])<<8 | uint16(m.dyn[a+1])
	}
	if v > 0 {
		return m.fp.locals[v-1]
	}
	return m.pop()
}

// setVar writes variable v; 0 pushes.
func (m *Machine) setVar(v byte, x uint16) {
	if v >= 16 {
		a := m.globals + 2*uint32(v-16)
		m.dyn[a] = byte(x >> 8)
		m.dyn[a+1] = byte(x)
		return
	}
	if v > 0 {
		m.fp.locals[v-1] = x
		return
	}
	m.push(x)
}

// peekVar and pokeVar read and write a variable "indirectly" (Standard
// §6.3.4): variable 0 is the top of the stack, read or replaced in place.
func (m *Machine) peekVar(v byte) uint16 {
	if v == 0 {
		if m.sp == 0 {
			fail("stack underflow")
		}
		return m.stack[m.sp-1]
	}
	return m.getVar(v)
}

func (m *Machine) pokeVar(v byte, x uint16) {
	if v == 0 {
		if m.sp == 0 {
			fail("stack underflow")
		}
		m.stack[m.sp-1] = x
		return
	}
	m.setVar(v, x)
}

func (m *Machine) push(x uint16) {
	if m.sp >= len(m.stack) {
		stackFault("stack overflow")
	}
	m.stack[m.sp] = x
	m.sp++
}

func (m *Machine) pop() uint16 {
	if m.sp <= m.fp.base {
		stackFault("stack underflow")
	}
	m.sp--
	return m.stack[m.sp]
}

// stackFault is kept out of line so that push and pop inline.
//
//go:noinline
func stackFault(msg string) { panic(fault{msg}) }

// syncFrame points m.fp at the current (last) frame; every change to
// m.frames is followed by it.
func (m *Machine) syncFrame() { m.fp = &m.frames[len(m.frames)-1] }

// store reads the store byte at the program counter and writes x there.
func (m *Machine) store(x uint16) {
	m.setVar(m.fetch(), x)
}

// branch reads the branch data at the program counter and branches if
// cond matches its sense.
func (m *Machine) branch(cond bool) {
	b := m.fetch()
	var off int32
	if b&0x40 != 0 {
		off = int32(b & 0x3f)
	} else {
		off = int32(b&0x3f)<<8 | int32(m.fetch())
		if off&0x2000 != 0 {
			off -= 0x4000
		}
	}
	if cond != (b&0x80 != 0) {
		return
	}
	switch off {
	case 0:
		m.ret(0)
	case 1:
		m.ret(1)
	default:
		m.pc = uint32(int32(m.pc) + off - 2)
	}
}

// call calls the routine at packed address p with args; store is the
// variable for the result, or -1 to throw it away.
func (m *Machine) call(p uint16, args []uint16, store int16) {
	if p == 0 {
		if store >= 0 {
			m.setVar(byte(store), 0)
		}
		return
	}
	if len(m.frames) >= maxFrames {
		fail("stack overflow: more than %d nested routine calls", maxFrames)
	}
	a := m.story.unpackRoutine(p)
	n := m.rb(a)
	if n > 15 {
		fail("routine at 0x%05x claims %d local variables (at most 15)", a, n)
	}
	a++
	f := frame{retPC: m.pc, nlocals: n, store: store, base: m.sp}
	if len(args) > 7 {
		args = args[:7]
	}
	f.argc = uint8(len(args))
	if m.story.version <= 4 {
		for i := 0; i < int(n); i++ {
			f.locals[i] = m.rw(a)
			a += 2
		}
	}
	for i, x := range args {
		if i < int(n) {
			f.locals[i] = x
		}
	}
	m.frames = append(m.frames, f)
	m.syncFrame()
	m.pc = a
}

// ret returns x from the current routine.
func (m *Machine) ret(x uint16) {
	if len(m.frames) <= 1 {
		fail("return from the main routine")
	}
	f := &m.frames[len(m.frames)-1]
	m.sp = f.base
	m.pc = f.retPC
	store := f.store
	m.frames = m.frames[:len(m.frames)-1]
	m.syncFrame()
	if store >= 0 {
		m.setVar(byte(store), x)
	}
}

// callStore reads the store byte and calls with the operands after the
// first as arguments.
func (m *Machine) callStore() {
	store := int16(m.fetch())
	m.call(m.ops[0], m.ops[1:m.nops], store)
}

func (m *Machine) callDiscard() {
	m.call(m.ops[0], m.ops[1:m.nops], -1)
}
