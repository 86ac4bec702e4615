package zmachine

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
)

// Reading code: [Machine.Instruction] decodes one instruction for a reader
// (a disassembler, or a program that walks a routine to see what it may
// do) with the decoder exec uses (decodeOps, decodeStoreBranch), without
// running it.

// OperandCount is the class of an opcode by the operands it takes, as the
// Standard numbers opcodes (§4.3, §14): 2OP:1 is je, 1OP:12 jump.
type OperandCount uint8

// The operand counts.
const (
	Op2   OperandCount = iota // 2OP
	Op1                       // 1OP
	Op0                       // 0OP
	OpVar                     // VAR
	OpExt                     // EXT (version 5 and later)
)

// String returns the Standard's name of c: "2OP", "1OP", "0OP", "VAR" or
// "EXT".
func (c OperandCount) String() string {
	switch c {
	case Op2:
		return "2OP"
	case Op1:
		return "1OP"
	case Op0:
		return "0OP"
	case OpVar:
		return "VAR"
	case OpExt:
		return "EXT"
	}
	return "OperandCount(" + strconv.Itoa(int(c)) + ")"
}

// Form is the encoding of an instruction (Standard §4.3).
type Form uint8

// The instruction forms.
const (
	LongForm     Form = iota // 2OP, two one-byte operands
	ShortForm                // 0OP or 1OP
	VariableForm             // 2OP or VAR, with a byte of operand types
	ExtendedForm             // EXT: 0xbe, the opcode number, operand types
)

// String returns "long", "short", "variable" or "extended".
func (f Form) String() string {
	switch f {
	case LongForm:
		return "long"
	case ShortForm:
		return "short"
	case VariableForm:
		return "variable"
	case ExtendedForm:
		return "extended"
	}
	return "Form(" + strconv.Itoa(int(f)) + ")"
}

// OperandKind is the type of an operand (Standard §4.2), numbered as the
// operand type bits number them.
type OperandKind uint8

// The operand kinds.
const (
	LargeConstant OperandKind = iota // a word
	SmallConstant                    // a byte
	Variable                         // a variable number: 0 the stack, 1-15 locals, 16-255 globals
)

// Operand is one operand of an instruction.
type Operand struct {
	Kind OperandKind
	// Value is the constant, or the number of the variable (the
	// Standard's numbering: 0 pops the stack).
	Value uint16
}

// String writes o as a disassembler does: "#1234" for a large constant,
// "#12" for a small one, and a variable as [VariableName] names it.
func (o Operand) String() string {
	switch o.Kind {
	case LargeConstant:
		return fmt.Sprintf("#%04x", o.Value)
	case SmallConstant:
		return fmt.Sprintf("#%02x", o.Value)
	}
	return VariableName(uint8(o.Value))
}

// VariableName names variable number v as a disassembler does: "sp" for
// the stack (0), "L00" to "L14" for the locals (1 to 15), "G00" to "Gef"
// for the globals (16 to 255).
func VariableName(v uint8) string {
	switch {
	case v == 0:
		return "sp"
	case v < 16:
		return fmt.Sprintf("L%02d", v-1)
	}
	return fmt.Sprintf("G%02x", v-16)
}

// Branch is the branch data of an instruction that branches (Standard
// §4.7).
type Branch struct {
	// OnTrue says the branch is taken when the condition is true; false,
	// when it is false (a disassembler writes "?~").
	OnTrue bool
	// Offset is the offset as stored: 0 returns false from the routine, 1
	// returns true (see [Branch.Returns]), any other jumps to Target.
	Offset int16
	// Target is the address a taken branch jumps to, unless it returns.
	Target uint32
}

// Returns reports whether the branch, taken, returns from the routine
// (false for Offset 0, true for 1) rather than jumping.
func (b Branch) Returns() bool { return b.Offset == 0 || b.Offset == 1 }

// String writes b as "?05f41" (or "?~05f41"), "?rtrue" or "?rfalse".
func (b Branch) String() string {
	s := "?"
	if !b.OnTrue {
		s = "?~"
	}
	switch b.Offset {
	case 0:
		return s + "rfalse"
	case 1:
		return s + "rtrue"
	}
	return fmt.Sprintf("%s%05x", s, b.Target)
}

// Instruction is one decoded instruction, as [Machine.Instruction] returns
// it.
type Instruction struct {
	Addr uint32 // its address
	// Next is the address after it: after its operands, store byte,
	// branch data and, for print and print_ret, inline text.
	Next uint32
	// Name is the opcode's name in the Standard (§15) for the story's
	// version: "je", "print_paddr", "call_vs", "aread".
	Name   string
	Count  OperandCount // the opcode is Count:Number, as 2OP:1 (je)
	Number uint8
	Form   Form
	// Operands are the operands in order. Reading one that is variable 0
	// pops the stack. The opcodes that name a variable by its number
	// (store, inc, dec, inc_chk, dec_chk, load, pull) have the number as
	// a constant operand, as it is encoded.
	Operands []Operand
	Stores   bool  // the instruction stores a result in variable Store
	Store    uint8 // the variable number (0 pushes)
	Branches bool  // the instruction branches as Branch says
	Branch   Branch
	// Text is the inline text of print and print_ret, decoded.
	Text string
}

// Len is the instruction's length in bytes.
func (in Instruction) Len() int { return int(in.Next - in.Addr) }

// ByReference reports whether the instruction's first operand is the
// number of the variable it works on, not a value (Standard §14: inc,
// dec, inc_chk, dec_chk, store, load and pull): String writes it as the
// variable it names (store G00 #40), or as [sp] where that number is
// itself read from a variable.
func (in Instruction) ByReference() bool {
	switch in.Name {
	case "inc", "dec", "inc_chk", "dec_chk", "store", "load", "pull":
		return len(in.Operands) > 0
	}
	return false
}

// JumpTarget returns where jump goes when its operand is a constant, and
// false for any other instruction.
func (in Instruction) JumpTarget() (uint32, bool) {
	if in.Name != "jump" || len(in.Operands) != 1 || in.Operands[0].Kind == Variable {
		return 0, false
	}
	return uint32(int32(in.Next) + int32(int16(in.Operands[0].Value)) - 2), true
}

// String writes in as a disassembler does: its address, name, operands
// (a variable named by number as that variable, see
// [Instruction.ByReference]), "-> " and the store variable, the branch,
// and inline text quoted, as `05f3a: je sp #05 ?~05f41` or `05f50: print
// "Hello"`.
func (in Instruction) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%05x: %s", in.Addr, in.Name)
	for i, o := range in.Operands {
		switch {
		case i == 0 && in.ByReference() && o.Kind == Variable:
			b.WriteString(" [" + o.String() + "]") // the variable the variable holds the number of
		case i == 0 && in.ByReference():
			b.WriteString(" " + VariableName(uint8(o.Value)))
		default:
			b.WriteString(" " + o.String())
		}
	}
	if t, ok := in.JumpTarget(); ok {
		fmt.Fprintf(&b, " (%05x)", t)
	}
	if in.Stores {
		b.WriteString(" -> " + VariableName(in.Store))
	}
	if in.Branches {
		b.WriteString(" " + in.Branch.String())
	}
	if in.Name == "print" || in.Name == "print_ret" {
		b.WriteString(" " + strconv.Quote(in.Text))
	}
	return b.String()
}

// Instruction decodes the instruction at byte address pc as the machine
// would run it now (code in dynamic memory as the game last wrote it),
// without running it or changing the machine. It fails with an [*Error]
// naming the address for an address outside the story, an instruction
// that runs past its end, and an opcode the story's version does not have.
// As with the machine's other methods, no other goroutine may use the
// machine meanwhile (the inline text is decoded through its output).
func (m *Machine) Instruction(pc uint32) (in Instruction, err error) {
	if pc >= uint32(len(m.static)) {
		return Instruction{}, &Error{PC: pc, Msg: fmt.Sprintf("no instruction: the address is outside the story (0x00000 to 0x%05x)", len(m.static)-1)}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(runtime.Error); !ok {
				panic(r)
			}
			in, err = Instruction{}, &Error{PC: pc, Msg: fmt.Sprintf("the instruction runs past the end of the story (0x%05x bytes)", len(m.static))}
		}
	}()
	v := m.story.version
	var d insn
	next := m.decodeOps(pc, &d)
	in = Instruction{Addr: pc, Name: opcodeName(d.code, v)}
	in.Count, in.Number = countOf(d.code)
	in.Form = formOf(m.rb(pc), v)
	if in.Name == "" {
		return Instruction{}, &Error{PC: pc, Msg: fmt.Sprintf("illegal opcode %s:%d in version %d", in.Count, in.Number, v)}
	}
	next = m.decodeStoreBranch(next, &d, storeBranch(d.code, v)|lateStoreBranch(d.code, v))
	in.Operands = make([]Operand, d.nops)
	for i := range in.Operands {
		k := SmallConstant
		switch {
		case d.large&(1<<i) != 0:
			k = LargeConstant
		case d.vars&(1<<i) != 0:
			k = Variable
		}
		in.Operands[i] = Operand{Kind: k, Value: d.ops[i]}
	}
	in.Stores, in.Store = d.flags&fStore != 0, d.store
	if in.Branches = d.flags&fBranch != 0; in.Branches {
		in.Branch = Branch{OnTrue: d.sense, Target: d.dest}
		switch {
		case d.flags&fRet0 != 0:
		case d.flags&fRet1 != 0:
			in.Branch.Offset = 1
		default:
			in.Branch.Offset = int16(int32(d.dest) - int32(next) + 2)
		}
	}
	if in.Name == "print" || in.Name == "print_ret" {
		in.Text = m.capture(func() { next = m.printZString(next) })
	}
	in.Next = next
	return in, nil
}

// countOf returns the operand count and the number of opcode code
// (numbered as exec numbers them).
func countOf(code uint16) (OperandCount, uint8) {
	switch {
	case code < 0x20:
		return Op2, uint8(code)
	case code < op0:
		return Op1, uint8(code - op1)
	case code < opV:
		return Op0, uint8(code - op0)
	case code < opEX:
		return OpVar, uint8(code - opV)
	}
	return OpExt, uint8(code - opEX)
}

// formOf returns the form of an instruction whose first byte is b in
// version v.
func formOf(b byte, v int) Form {
	switch {
	case b < 0x80:
		return LongForm
	case b == 0xbe && v >= 5:
		return ExtendedForm
	case b < 0xc0:
		return ShortForm
	}
	return VariableForm
}
