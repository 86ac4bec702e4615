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
// changed since it last ran). Its first two operands are read here; the
// commonest opcodes of Inform and Infocom code (see the kinds kindOf
// gives) run here, straight from their decoded form, their results stored
// and their branches taken at the end of the loop; the others go through
// dispatch.
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
		a, b := in.ops[0], in.ops[1]
		// The operands that are variables, read inline: the hottest
		// path. Constants only, a local then a constant, and a constant
		// then a local (two thirds of the instructions of the heavy
		// Inform games) are told apart by tests, which the processor
		// predicts well; the rest by one switch (a jump table), whose
		// indirect jump it mispredicts more often: through the switch
		// alone, the games executed fewer instructions but ran slower.
		mode := in.mode
		if mode == modeConst {
		} else if mode == modeLocal {
			a = m.fp.locals[a&15]
		} else if mode == modeLocal<<2 {
			b = m.fp.locals[b&15]
		} else {
			switch mode {
			case modeGlobal:
				a = m.global(a)
			case modeStack:
				a = m.pop()
			case modeLocal | modeLocal<<2:
				fp := m.fp
				a, b = fp.locals[a&15], fp.locals[b&15]
			case modeGlobal | modeLocal<<2:
				a, b = m.global(a), m.fp.locals[b&15]
			case modeGlobal << 2:
				b = m.global(b)
			case modeLocal | modeGlobal<<2:
				a, b = m.fp.locals[a&15], m.global(b)
			case modeGlobal | modeGlobal<<2:
				a, b = m.global(a), m.global(b)
			case modeStack << 2:
				b = m.pop()
			case modeLocal | modeStack<<2:
				a, b = m.fp.locals[a&15], m.pop()
			case modeGlobal | modeStack<<2:
				a, b = m.global(a), m.pop()
			default:
				a, b = m.operands(in)
			}
		}
		var x uint16  // the result, for the store at the end
		var cond bool // the condition, for the branch at the end
		switch in.kind {
		case kJe:
			cond = a == b
			goto branch
		case kJl:
			cond = int16(a) < int16(b)
			goto branch
		case kJg:
			cond = int16(a) > int16(b)
			goto branch
		case kJz:
			cond = a == 0
			goto branch
		case kStore:
			if v := byte(a); v != 0 {
				m.setLocalOrGlobal(v, b)
			} else {
				m.pokeVar(0, b)
			}
		case kLoadw:
			x = m.rw(uint32(a + 2*b))
			goto store
		case kLoadb:
			x = uint16(m.rb(uint32(a + b)))
			goto store
		case kAdd:
			x = a + b
			goto store
		case kSub:
			x = a - b
			goto store
		case kAnd:
			x = a & b
			goto store
		case kJump:
			m.pc = uint32(int32(m.pc) + int32(int16(a)) - 2)
		case kJumpTo:
			m.pc = in.dest
		case kIncLocal:
			m.fp.locals[a&15]++
		case kIncJump:
			m.fp.locals[a&15]++
			// The jump at m.pc, as the loop's head would run it.
			if m.left--; m.left < 0 {
				return false
			}
			m.opPC = m.pc
			m.count++
			m.pc = in.dest
		case kDecLocal:
			m.fp.locals[a&15]--
		case kInc:
			m.incVar(byte(a), 1)
		case kDec:
			m.incVar(byte(a), 0xffff)
		case kCallS:
			m.enter(in, a, b, int16(in.store))
		case kRet:
			m.ret(a)
		case kRtrue:
			m.ret(1)
		case kRfalse:
			m.ret(0)
		case kRetPopped:
			m.ret(m.pop())
		case kStorew:
			m.ww(uint32(a+2*b), m.operand(in, 2))
		case kStoreb:
			m.wb(uint32(a+b), byte(m.operand(in, 2)))
		case kDispatch:
			m.nops = int(in.nops)
			if in.mode&modeMore == 0 {
				m.ops = in.ops
			}
			m.ops[0], m.ops[1] = a, b
			m.dispatch(in)
			if m.state != running {
				return true
			}
		default:
			m.execMore(in, a, b)
		}
		continue
	store:
		if v := in.store; v != 0 {
			m.setLocalOrGlobal(v, x)
		} else {
			m.push(x)
		}
		continue
	branch:
		m.br(in, cond)
	}
}

// execMore runs the instructions of the kinds exec runs itself that are
// not in exec's own switch, a and b their first two operands. Moving them
// all into exec's switch made the heavy games execute more instructions
// (the loop's registers spill more), not fewer.
func (m *Machine) execMore(in *insn, a, b uint16) {
	var x uint16  // the result, for the store at the end
	var cond bool // the condition, for the branch at the end
	switch in.kind {
	case kJeN:
		cond = a == b || a == m.operand(in, 2) || in.nops > 3 && a == m.operand(in, 3)
	case kDecChk:
		cond = int16(m.incVar(byte(a), 0xffff)) < int16(b)
	case kIncChk:
		cond = int16(m.incVar(byte(a), 1)) > int16(b)
	case kJin:
		cond = m.parent(a) == b
	case kTest:
		cond = a&b == b
	case kOr:
		x = a | b
	case kTestAttr:
		cond = m.testAttr(a, b)
	case kSetAttr:
		m.setAttr(a, b, true)
	case kGetProp:
		x = m.getProp(a, b)
	case kGetPropAddr:
		p, _ := m.findProp(a, b)
		x = uint16(p)
	case kMul:
		x = uint16(int16(a) * int16(b))
	case kDiv:
		if b == 0 {
			fail("division by zero")
		}
		x = uint16(int16(a) / int16(b))
	case kMod:
		if b == 0 {
			fail("division by zero (remainder)")
		}
		x = uint16(int16(a) % int16(b))
	case kCallN:
		m.enter(in, a, b, -1)
	case kGetSibling:
		x = m.sibling(a)
		cond = x != 0
	case kGetChild:
		x = m.child(a)
		cond = x != 0
	case kGetParent:
		x = m.parent(a)
	case kGetPropLen:
		x = m.propLen(uint32(a))
	case kLoad:
		x = m.peekVar(byte(a))
	case kPush:
		m.push(a)
	case kPull:
		y := m.pop()
		m.pokeVar(byte(a), y)
	}
	switch in.flags & (fStore | fBranch) {
	case fStore:
		m.st(in, x)
	case fBranch:
		m.br(in, cond)
	case fStore | fBranch: // get_sibling, get_child
		m.st(in, x)
		m.br(in, cond)
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
	if in.kind == kIncLocal {
		m.fuseJump(in)
	}
	m.slots[pc].Store(in)
	return in
}

// operands reads the operands of in, in order (a variable 0 pops the
// stack): it returns the first two, and leaves those after them in m.ops
// when there are any variables among them (see operand). exec reads the
// commonest forms of the first two itself.
func (m *Machine) operands(in *insn) (a, b uint16) {
	// The two modes are read by two switches written out, not by a
	// function called twice, which the compiler does not inline: the
	// calls cost as much as the rest of operands.
	a, b = in.ops[0], in.ops[1]
	switch in.mode & 3 {
	case modeLocal:
		a = m.fp.locals[a&15]
	case modeGlobal:
		a = m.global(a)
	case modeStack:
		a = m.pop()
	}
	switch in.mode >> 2 & 3 {
	case modeLocal:
		b = m.fp.locals[b&15]
	case modeGlobal:
		b = m.global(b)
	case modeStack:
		b = m.pop()
	}
	if in.mode&modeMore == 0 {
		return a, b
	}
	m.ops = in.ops
	for vars := in.vars &^ 3; vars != 0; vars &= vars - 1 {
		i := bits.TrailingZeros8(vars) & 7
		if v := byte(in.ops[i]); v != 0 { // getVar, inlined
			m.ops[i] = m.localOrGlobal(v)
		} else {
			m.ops[i] = m.pop()
		}
	}
	return a, b
}

// global reads the global variable at offset i in the globals.
func (m *Machine) global(i uint16) uint16 {
	return uint16(m.gl[i&0x1ff])<<8 | uint16(m.gl[(i+1)&0x1ff])
}

// operand returns operand i (2 or more) of in, which exec has read: the
// constant, or the variable's value that operands read.
func (m *Machine) operand(in *insn, i int) uint16 {
	if in.vars&(1<<i) != 0 {
		return m.ops[i&7]
	}
	return in.ops[i&7]
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

// incVar is addVar with the locals and globals inlined.
func (m *Machine) incVar(v byte, d uint16) uint16 {
	if v != 0 {
		x := m.localOrGlobal(v) + d
		m.setLocalOrGlobal(v, x)
		return x
	}
	return m.addVar(0, d)
}

// push and pop index the stack with a mask, which the checks before make
// no-ops, so that the compiler leaves out its own bounds checks.
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
	sense, off, pc := m.branchData(m.pc)
	m.pc = pc
	if cond != sense {
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

// enter calls the routine at packed address p (Standard §6.4) with the
// operands of in after the first as arguments: b is the second (which the
// caller has read), and operand gives the others. store is the variable
// for the result, or -1 to throw it away. Calling address 0 stores false
// at once.
func (m *Machine) enter(in *insn, p, b uint16, store int16) {
	if p == 0 {
		if store >= 0 {
			m.setVar(byte(store), 0)
		}
		return
	}
	depth := len(m.frames)
	if depth >= maxFrames {
		fail("stack overflow: more than %d nested routine calls", maxFrames)
	}
	a := m.story.unpackRoutine(p)
	n := m.rb(a)
	if n > 15 {
		fail("routine at 0x%05x claims %d local variables (at most 15)", a, n)
	}
	if depth == cap(m.frames) {
		m.frames = append(m.frames, frame{})
	}
	m.frames = m.frames[:depth+1]
	f := &m.frames[depth]
	f.locals = [16]uint16{}
	if m.story.version <= 4 {
		for i := range n {
			f.locals[i&15] = m.rw(a + 1 + 2*uint32(i))
		}
		a += 2 * uint32(n)
	}
	argc := int(in.nops) - 1 // at most 7
	if k := min(argc, int(n)); k > 0 {
		f.locals[0] = b
		for i := 1; i < k; i++ {
			f.locals[i&15] = m.operand(in, i+1)
		}
	}
	f.retPC, f.nlocals, f.argc, f.store, f.base = m.pc, n, uint8(argc), store, m.sp
	m.fp = f
	m.pc = a + 1
}

// ret returns x from the current routine.
func (m *Machine) ret(x uint16) {
	n := len(m.frames) - 1
	if n < 1 {
		fail("return from the main routine")
	}
	f := &m.frames[n]
	m.sp = f.base
	m.pc = f.retPC
	store := f.store
	m.frames = m.frames[:n]
	m.fp = &m.frames[n-1]
	if store > 0 {
		m.setLocalOrGlobal(byte(store), x)
	} else if store == 0 {
		m.push(x)
	}
}

// callStore calls, storing in the decoded store variable, with the
// operands after the first as arguments: dispatch's call, for a call
// whose version check exec leaves to it.
func (m *Machine) callStore(in *insn) {
	m.needOps(1, "call")
	m.enter(in, m.ops[0], m.ops[1], int16(in.store))
}

// callDiscard is callStore for the calls that throw the result away.
func (m *Machine) callDiscard(in *insn) {
	m.needOps(1, "call")
	m.enter(in, m.ops[0], m.ops[1], -1)
}
