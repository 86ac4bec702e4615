package zmachine

import (
	"sync"
	"sync/atomic"
)

// Decoded instructions. exec decodes each instruction into an insn (opcode,
// operands, store variable and branch) before running it. Instructions in
// static or high memory, which no game can change, are decoded once per
// Story and kept in a cache indexed by address, shared by every machine of
// the story; instructions in dynamic memory, which a game may rewrite, are
// decoded afresh each time they run, so the cache never holds anything a
// store could make stale.

// insn is one decoded instruction.
type insn struct {
	// ops are the operands: constants, or variable numbers where vars
	// says so, except that the first two are in the form mode gives.
	ops   [8]uint16
	next  uint32 // address after the instruction's last decoded byte
	dest  uint32 // branch target when the branch jumps
	code  uint16 // opcode numbered as exec numbers them (see op1 etc.)
	nops  uint8  // number of operands
	vars  uint8  // bit i set: operand i is a variable number
	large uint8  // bit i set: operand i is a large constant
	store uint8  // the store variable, when flags has fStore
	flags uint8  // fStore, fBranch, fSense and the branch's kind
	sense bool   // fSense: branch when the condition is true
	kind  uint8  // what exec does with it: kDispatch or an opcode it runs itself
	mode  uint8  // how to read the first two operands (see setMode)
}

// Operand modes: how exec reads each of an instruction's first two
// operands, the first's in bits 0-1 of insn.mode and the second's in bits
// 2-3, and modeMore added when a later operand is a variable too. A
// local's number is kept in ops as its index in the frame's locals (0 to
// 14), a global's as its offset in the globals (0 to 478), so that exec
// reads either without testing the variable number; a variable 0 pops
// the stack.
const (
	modeConst  = 0
	modeLocal  = 1
	modeGlobal = 2
	modeStack  = 3
	modeMore   = 16
)

// setMode sets the mode of the first two operands of a decoded in, and
// rewrites their variable numbers as setMode's comment says.
func setMode(in *insn) {
	var mode uint8
	for i := range 2 {
		if in.vars&(1<<i) == 0 {
			continue
		}
		k := uint8(modeStack)
		switch v := byte(in.ops[i]); {
		case v >= 16:
			k, in.ops[i] = modeGlobal, 2*uint16(v-16)
		case v > 0:
			k, in.ops[i] = modeLocal, uint16(v-1)
		}
		mode |= k << (2 * i)
	}
	if in.vars > 3 {
		mode |= modeMore
	}
	in.mode = mode
}

// insn flags. An instruction whose opcode stores or branches at once (see
// storeBranch) has its store byte and branch data decoded with it, and next
// is past them; for every other opcode next is the address after the
// operands, where the handler finds what follows (inline text, or the store
// byte of an instruction that stores only when input comes).
const (
	fStore  = 1 << iota // ops are followed by a store byte
	fBranch             // then by branch data
	fSense              // branch when the condition is true
	fRet0               // the branch returns false
	fRet1               // the branch returns true
	f2OP                // a 2OP opcode with exactly two operands
)

// codeCache holds the decoded instructions of a story's static and high
// memory, one slot per address of the story (those below base, in dynamic
// memory, stay empty), filled as instructions first run. Machines running at once in goroutines of their own share it: each
// slot is written once with a fully decoded insn (two machines decoding the
// same address store equal ones) and read atomically.
type codeCache struct {
	once  sync.Once
	base  uint32
	slots []atomic.Pointer[insn]
}

// cache returns the story's instruction cache, made on first use.
func (s *Story) cache() *codeCache {
	c := &s.code
	c.once.Do(func() {
		c.base = s.dynSize
		c.slots = make([]atomic.Pointer[insn], len(s.mem))
	})
	return c
}

// storeBranch says which of fStore and fBranch the opcode code has in
// version v, for the opcodes whose handlers store or branch as they run.
// Opcodes that store or branch later, or from code shared with other paths
// (read and read_char when input comes, save, restore, save_undo and
// restore_undo through the file and undo code), read their store byte or
// branch data at the program counter themselves and are not listed
// (lateStoreBranch lists them, for [Machine.Instruction]).
func storeBranch(code uint16, v int) uint8 {
	switch code {
	case 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, // je jl jg dec_chk inc_chk jin test test_attr
		op1 + 0x0, // jz
		op0 + 0xd: // verify
		return fBranch
	case op0 + 0xf: // piracy
		if v >= 5 {
			return fBranch
		}
	case opV + 0x1f: // check_arg_count
		if v >= 5 {
			return fBranch
		}
	case 0x08, 0x09, 0x0f, 0x10, 0x11, 0x12, 0x13, // or and loadw loadb get_prop get_prop_addr get_next_prop
		0x14, 0x15, 0x16, 0x17, 0x18, // add sub mul div mod
		op1 + 0x3, op1 + 0x4, op1 + 0xe, // get_parent get_prop_len load
		opV + 0x00, opV + 0x07, // call random
		opEX + 0x02, opEX + 0x03, opEX + 0x04, opEX + 0x0c: // log_shift art_shift set_font check_unicode
		return fStore
	case op1 + 0x1, op1 + 0x2: // get_sibling get_child
		return fStore | fBranch
	case 0x19, op1 + 0x8, opV + 0x0c: // call_2s call_1s call_vs2
		if v >= 4 {
			return fStore
		}
	case op1 + 0xf: // not (call_1n from version 5)
		if v <= 4 {
			return fStore
		}
	case op0 + 0x9: // catch (pop before version 5)
		if v >= 5 {
			return fStore
		}
	case opV + 0x17: // scan_table
		if v >= 4 {
			return fStore | fBranch
		}
	case opV + 0x18: // not
		if v >= 5 {
			return fStore
		}
	}
	return 0
}

// Instruction kinds: what exec does with a decoded instruction. kDispatch
// sends it to dispatch; each other kind is an opcode exec runs itself,
// given (by kindOf) only to an instruction that has the operands the
// opcode needs, in a version that has the opcode, so that exec checks
// neither.
const (
	kDispatch uint8 = iota
	kJe             // je with two operands
	kJeN            // je with three or four
	kJl
	kJg
	kDecChk
	kIncChk
	kJin
	kTest
	kOr
	kAnd
	kTestAttr
	kSetAttr
	kStore
	kLoadw
	kLoadb
	kGetProp
	kGetPropAddr
	kAdd
	kSub
	kMul
	kDiv
	kMod
	kCallS // call, call_2s, call_1s, call_vs2: the result is stored
	kCallN // call_2n, call_1n, call_vn, call_vn2: the result is dropped
	kJz
	kGetSibling
	kGetChild
	kGetParent
	kGetPropLen
	kInc
	kDec
	kRet
	kJump
	kLoad
	kRtrue
	kRfalse
	kRetPopped
	kStorew
	kStoreb
	kPush
	kPull

	// Kinds that decode gives in place of the ones above when it can
	// settle at once what they would look up as they run (see
	// specialize).
	kIncLocal // inc of a local: ops[0] is its index in the frame's locals
	kDecLocal // dec of a local, likewise
	kJumpTo   // jump by a constant offset: dest is the target
	kIncJump  // kIncLocal with the kJumpTo after it run too: dest is its target
)

// kindOf returns the kind of an instruction with opcode code (numbered as
// exec numbers them) and nops operands in version v.
func kindOf(code uint16, nops uint8, v int) uint8 {
	switch code {
	case 0x01: // je
		switch {
		case nops == 2:
			return kJe
		case nops > 2:
			return kJeN
		}
		return kDispatch
	case 0x19, op1 + 0x8, opV + 0x0c: // call_2s call_1s call_vs2
		if v >= 4 && nops >= 1 {
			return kCallS
		}
		return kDispatch
	case opV + 0x00: // call
		if nops >= 1 {
			return kCallS
		}
		return kDispatch
	case 0x1a, op1 + 0xf, opV + 0x19, opV + 0x1a: // call_2n call_1n call_vn call_vn2
		if v >= 5 && nops >= 1 {
			return kCallN
		}
		return kDispatch
	}
	switch {
	case code < 0x20:
		if nops == 2 {
			return twoOpKind(code)
		}
	case code < op0: // 1OP: always one operand
		return oneOpKind(code - op1)
	case code < opV:
		return zeroOpKind(code - op0)
	case nops >= 3 && code == opV+0x01:
		return kStorew
	case nops >= 3 && code == opV+0x02:
		return kStoreb
	case nops >= 1 && code == opV+0x08:
		return kPush
	case nops >= 1 && code == opV+0x09:
		return kPull
	}
	return kDispatch
}

// twoOpKind is the kind of 2OP opcode code with two operands (je,
// call_2s and call_2n are kindOf's).
func twoOpKind(code uint16) uint8 {
	switch code {
	case 0x02:
		return kJl
	case 0x03:
		return kJg
	case 0x04:
		return kDecChk
	case 0x05:
		return kIncChk
	case 0x06:
		return kJin
	case 0x07:
		return kTest
	case 0x08:
		return kOr
	case 0x09:
		return kAnd
	case 0x0a:
		return kTestAttr
	case 0x0b:
		return kSetAttr
	case 0x0d:
		return kStore
	case 0x0f:
		return kLoadw
	case 0x10:
		return kLoadb
	case 0x11:
		return kGetProp
	case 0x12:
		return kGetPropAddr
	case 0x14:
		return kAdd
	case 0x15:
		return kSub
	case 0x16:
		return kMul
	case 0x17:
		return kDiv
	case 0x18:
		return kMod
	}
	return kDispatch
}

// oneOpKind is the kind of 1OP opcode n (call_1s and call_1n are
// kindOf's).
func oneOpKind(n uint16) uint8 {
	switch n {
	case 0x0:
		return kJz
	case 0x1:
		return kGetSibling
	case 0x2:
		return kGetChild
	case 0x3:
		return kGetParent
	case 0x4:
		return kGetPropLen
	case 0x5:
		return kInc
	case 0x6:
		return kDec
	case 0xb:
		return kRet
	case 0xc:
		return kJump
	case 0xe:
		return kLoad
	}
	return kDispatch
}

// zeroOpKind is the kind of 0OP opcode n.
func zeroOpKind(n uint16) uint8 {
	switch n {
	case 0x0:
		return kRtrue
	case 0x1:
		return kRfalse
	case 0x8:
		return kRetPopped
	}
	return kDispatch
}

// decode decodes the instruction at pc into in for exec. A read past the
// end of the story panics with Go's index error, as executing it would.
func (m *Machine) decode(pc uint32, in *insn) {
	*in = insn{}
	pc = m.decodeOps(pc, in)
	in.next = m.decodeStoreBranch(pc, in, storeBranch(in.code, m.story.version))
	if in.code < 0x20 && in.nops == 2 {
		in.flags |= f2OP
	}
	in.kind = kindOf(in.code, in.nops, m.story.version)
	setMode(in)
	specialize(in)
}

// specialize gives a decoded in one of the kinds that settle at decode
// time what the general kind would work out each time it runs: inc and
// dec of a local named by a constant (the counters of Inform's loops, 3
// to 6 % of the heavy games' instructions), which then take no call
// through incVar, and a jump by a constant offset (5 to 10 %), whose
// target is worked out once.
func specialize(in *insn) {
	switch in.kind {
	case kInc, kDec:
		if in.mode != modeConst || in.ops[0] < 1 || in.ops[0] > 15 {
			return
		}
		in.ops[0]--
		if in.kind == kInc {
			in.kind = kIncLocal
		} else {
			in.kind = kDecLocal
		}
	case kJump:
		if in.mode != modeConst {
			return
		}
		in.dest = uint32(int32(in.next) + int32(int16(in.ops[0])) - 2)
		in.kind = kJumpTo
	}
}

// fuseJump makes the cached instruction in, an inc of a local, a kIncJump
// when a jump by a constant follows it, as it does at the end of every
// `for` loop Inform compiles: exec then runs both without looking up the
// jump (still counting it as an instruction of its own). Only for code
// outside dynamic memory, which no game can change under the fused pair.
func (m *Machine) fuseJump(in *insn) {
	next, end := in.next, uint32(len(m.static))
	if next >= end {
		return
	}
	switch b := m.rb(next); {
	case b == 0x8c && next+3 <= end, b == 0x9c && next+2 <= end: // jump, large or small constant
	default:
		return
	}
	var j insn
	m.decode(next, &j)
	if j.kind == kJumpTo {
		in.kind, in.dest = kIncJump, j.dest
	}
}

// decodeOps decodes the opcode and the operands of the instruction at pc
// into in, an empty insn: the one place that knows the instruction forms
// (Standard §4.3), for exec (decode) and for readers ([Machine.Instruction]).
// It returns the address after the operands.
func (m *Machine) decodeOps(pc uint32, in *insn) uint32 {
	b := m.rb(pc)
	pc++
	switch {
	case b < 0x80: // long form, 2OP: small constants or variables
		in.code = uint16(b & 0x1f)
		in.ops[0] = uint16(m.rb(pc))
		in.ops[1] = uint16(m.rb(pc + 1))
		pc += 2
		if b&0x40 != 0 {
			in.vars |= 1
		}
		if b&0x20 != 0 {
			in.vars |= 2
		}
		in.nops = 2
	case b < 0xc0: // short form
		t := b >> 4 & 3
		if t == 3 {
			if b == 0xbe && m.story.version >= 5 {
				in.code = opEX + uint16(m.rb(pc))
				pc, _ = m.decodeTypes(in, m.rb(pc+1), pc+2)
				break
			}
			in.code = op0 + uint16(b&0x0f)
		} else {
			in.code = op1 + uint16(b&0x0f)
			pc = m.decodeOperand(in, t, pc)
		}
	default: // variable form
		if b&0x20 == 0 {
			in.code = uint16(b & 0x1f)
		} else {
			in.code = opV + uint16(b&0x1f)
		}
		if b == 0xec || b == 0xfa { // call_vs2, call_vn2: two types bytes
			t1, t2 := m.rb(pc), m.rb(pc+1)
			var all bool
			if pc, all = m.decodeTypes(in, t1, pc+2); all {
				pc, _ = m.decodeTypes(in, t2, pc)
			}
		} else {
			pc, _ = m.decodeTypes(in, m.rb(pc), pc+1)
		}
	}
	return pc
}

// decodeStoreBranch decodes at pc the store byte and the branch data that
// sb (fStore, fBranch) announces into in, and returns the address after
// them.
func (m *Machine) decodeStoreBranch(pc uint32, in *insn, sb uint8) uint32 {
	if sb&fStore != 0 {
		in.store = m.rb(pc)
		pc++
	}
	in.flags |= sb
	if sb&fBranch == 0 {
		return pc
	}
	sense, off, pc := m.branchData(pc)
	if sense {
		in.flags |= fSense
		in.sense = true
	}
	switch off {
	case 0:
		in.flags |= fRet0
	case 1:
		in.flags |= fRet1
	default:
		in.dest = uint32(int32(pc) + off - 2)
	}
	return pc
}

// branchData decodes the branch data at pc (Standard §4.7): whether the
// branch is taken when the condition is true, its offset (0 returns
// false, 1 returns true, any other jumps to the address after the data
// plus the offset minus 2), and the address after the data.
func (m *Machine) branchData(pc uint32) (sense bool, off int32, next uint32) {
	b := m.rb(pc)
	pc++
	if b&0x40 != 0 {
		off = int32(b & 0x3f)
	} else {
		off = int32(b&0x3f)<<8 | int32(m.rb(pc))
		pc++
		if off&0x2000 != 0 {
			off -= 0x4000
		}
	}
	return b&0x80 != 0, off, pc
}

// decodeOperand decodes one operand of type t (0 large constant, 1 small
// constant, 2 variable) at pc and returns the address after it.
func (m *Machine) decodeOperand(in *insn, t byte, pc uint32) uint32 {
	i := in.nops
	switch t {
	case 0:
		in.ops[i] = m.rw(pc)
		in.large |= 1 << i
		pc += 2
	case 1:
		in.ops[i] = uint16(m.rb(pc))
		pc++
	default:
		in.ops[i] = uint16(m.rb(pc))
		in.vars |= 1 << i
		pc++
	}
	in.nops++
	return pc
}

// decodeTypes decodes the operands a types byte announces, up to the first
// "omitted" type, and returns the address after them and whether all four
// were present.
func (m *Machine) decodeTypes(in *insn, types byte, pc uint32) (uint32, bool) {
	for shift := 6; shift >= 0; shift -= 2 {
		t := types >> uint(shift) & 3
		if t == 3 {
			return pc, false
		}
		pc = m.decodeOperand(in, t, pc)
	}
	return pc, true
}
