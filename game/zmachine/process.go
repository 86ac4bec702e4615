package zmachine

import (
	"fmt"
	"math/bits"
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
	if m.state == running && !m.exec() {
		m.state = Halted
		return &Error{PC: m.pc, Msg: fmt.Sprintf("no input request after %d instructions: the story seems to be in an endless loop", m.opts.Budget)}
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

// exec executes instructions until the machine stops running, or reports
// false when the instruction budget runs out first. Each instruction comes
// from the story's cache of decoded instructions for code outside dynamic
// memory, decoded afresh for code inside it (which the game may have
// changed since it last ran). The
// commonest instructions of Inform and Infocom code (comparisons, loads,
// stores, arithmetic, jumps and returns) run here, straight from their
// decoded form; the others, and these with an unusual number of operands,
// go through dispatch.
//
// Only instructions that go through dispatch can stop the machine (by
// asking for input or quitting), so the state is looked at after those
// alone; exec is entered running.
func (m *Machine) exec() bool {
	for {
		if m.left--; m.left < 0 {
			return false
		}
		pc := m.pc
		m.opPC = pc
		m.count++
		var in *insn
		if i := uint(pc); i < uint(len(m.slots)) {
			in = m.slots[i].Load()
		}
		if in == nil {
			in = m.decodeAt(pc)
		}
		m.pc = in.next
		if in.flags&f2OP != 0 {
			// getVar, inlined: this is the interpreter's hottest path.
			a, b := in.ops[0], in.ops[1]
			if in.vars&1 != 0 {
				if v := byte(a); v != 0 {
					a = m.localOrGlobal(v)
				} else {
					a = m.pop()
				}
			}
			if in.vars&2 != 0 {
				if v := byte(b); v != 0 {
					b = m.localOrGlobal(v)
				} else {
					b = m.pop()
				}
			}
			switch in.code {
			case 0x02: // jl
				m.br(in, int16(a) < int16(b))
			case 0x03: // jg
				m.br(in, int16(a) > int16(b))
			case 0x01: // je
				m.br(in, a == b)
			case 0x0d: // store (variable) value
				if v := byte(a); v != 0 {
					m.setLocalOrGlobal(v, b)
				} else {
					m.pokeVar(0, b)
				}
			case 0x0f: // loadw
				m.st(in, m.rw(uint32(a+2*b)))
			case 0x10: // loadb
				m.st(in, uint16(m.rb(uint32(a+b))))
			case 0x14: // add
				m.st(in, a+b)
			case 0x15: // sub
				m.st(in, a-b)
			case 0x09: // and
				m.st(in, a&b)
			default:
				m.nops, m.ops[0], m.ops[1] = 2, a, b
				m.dispatch(in)
				if m.state != running {
					return true
				}
			}
			continue
		}
		if in.nops <= 1 { // 0OP and 1OP: operands, inlined
			x := in.ops[0]
			if in.vars&1 != 0 {
				if v := byte(x); v != 0 {
					x = m.localOrGlobal(v)
				} else {
					x = m.pop()
				}
			}
			m.nops, m.ops[0] = int(in.nops), x
		} else {
			m.operands(in)
		}
		switch in.code {
		case op1 + 0x0: // jz
			m.br(in, m.ops[0] == 0)
		case op1 + 0xc: // jump
			m.pc = uint32(int32(m.pc) + int32(int16(m.ops[0])) - 2)
		case op1 + 0xb: // ret
			m.ret(m.ops[0])
		case op1 + 0x5: // inc
			m.addVar(byte(m.ops[0]), 1)
		case op1 + 0x6: // dec
			m.addVar(byte(m.ops[0]), 0xffff)
		case opV + 0x00: // call
			m.needOps(1, "call")
			m.callStore(in)
		default:
			m.dispatch(in)
			if m.state != running {
				return true
			}
		}
	}
}

// decodeAt decodes the instruction at pc: into the story's cache when it
// lies at or above codeBase (static and high memory, which no game can
// change), into m.scratch, afresh each time it runs, when it lies in
// dynamic memory.
func (m *Machine) decodeAt(pc uint32) *insn {
	if pc < m.codeBase || pc >= uint32(len(m.slots)) {
		m.decode(pc, &m.scratch)
		return &m.scratch
	}
	in := new(insn)
	m.decode(pc, in)
	m.slots[pc].Store(in)
	return in
}

// operands reads the operands of in into m.ops, in order (a variable 0
// pops the stack); exec reads those of 0OP and 1OP instructions itself.
func (m *Machine) operands(in *insn) {
	m.nops = int(in.nops)
	m.ops = in.ops
	for vars := in.vars; vars != 0; vars &= vars - 1 {
		i := bits.TrailingZeros8(vars) & 7
		if v := byte(in.ops[i]); v != 0 { // getVar, inlined
			m.ops[i] = m.localOrGlobal(v)
		} else {
			m.ops[i] = m.pop()
		}
	}
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
		i := 2 * uint(v-16)
		return uint16(m.gl[i&0x1ff])<<8 | uint16(m.gl[(i+1)&0x1ff])
	}
	if v > 0 {
		return m.fp.locals[(v-1)&15]
	}
	return m.pop()
}

// localOrGlobal reads variable v, 1 to 255: getVar without the stack,
// small enough to inline.
func (m *Machine) localOrGlobal(v byte) uint16 {
	if v >= 16 {
		i := 2 * uint(v-16)
		return uint16(m.gl[i&0x1ff])<<8 | uint16(m.gl[(i+1)&0x1ff])
	}
	return m.fp.locals[(v-1)&15]
}

// setLocalOrGlobal writes variable v, 1 to 255: setVar without the
// stack, small enough to inline.
func (m *Machine) setLocalOrGlobal(v byte, x uint16) {
	if v >= 16 {
		i := 2 * uint(v-16)
		m.gl[i&0x1ff], m.gl[(i+1)&0x1ff] = byte(x>>8), byte(x)
		return
	}
	m.fp.locals[(v-1)&15] = x
}

// setVar writes variable v; 0 pushes.
func (m *Machine) setVar(v byte, x uint16) {
	if v >= 16 {
		i := 2 * uint(v-16)
		m.gl[i&0x1ff], m.gl[(i+1)&0x1ff] = byte(x>>8), byte(x)
		return
	}
	if v > 0 {
		m.fp.locals[(v-1)&15] = x
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

// addVar adds d to variable v in place (variable 0 is the top of the
// stack, as peekVar and pokeVar have it) and returns the new value: inc,
// dec, inc_chk and dec_chk.
func (m *Machine) addVar(v byte, d uint16) uint16 {
	var x uint16
	switch {
	case v >= 16:
		i := 2 * uint(v-16)
		x = (uint16(m.gl[i&0x1ff])<<8 | uint16(m.gl[(i+1)&0x1ff])) + d
		m.gl[i&0x1ff], m.gl[(i+1)&0x1ff] = byte(x>>8), byte(x)
	case v > 0:
		x = m.fp.locals[(v-1)&15] + d
		m.fp.locals[(v-1)&15] = x
	default:
		if m.sp == 0 {
			fail("stack underflow")
		}
		x = m.stack[m.sp-1] + d
		m.stack[m.sp-1] = x
	}
	return x
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

// br branches if cond matches the sense of the branch decoded with the
// current instruction (one whose opcode storeBranch lists with fBranch).
func (m *Machine) br(in *insn, cond bool) {
	if cond == in.sense {
		if in.flags&(fRet0|fRet1) == 0 {
			m.pc = in.dest
			return
		}
		m.branchReturn(in)
	}
}

// branchReturn takes a branch whose offset is 0 or 1: return false or true.
func (m *Machine) branchReturn(in *insn) {
	if in.flags&fRet0 != 0 {
		m.ret(0)
	} else {
		m.ret(1)
	}
}

// st writes x to the store variable decoded with the instruction in (one
// whose opcode storeBranch lists with fStore): setVar, small enough to
// inline.
func (m *Machine) st(in *insn, x uint16) {
	if v := in.store; v != 0 {
		m.setLocalOrGlobal(v, x)
		return
	}
	m.push(x)
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

// callStore calls, storing in the decoded store variable, with the operands after the
// first as arguments.
func (m *Machine) callStore(in *insn) {
	m.call(m.ops[0], m.ops[1:m.nops], int16(in.store))
}

func (m *Machine) callDiscard() {
	m.call(m.ops[0], m.ops[1:m.nops], -1)
}
