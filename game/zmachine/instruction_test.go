package zmachine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// insnCase is one instruction [zmachine.Machine.Instruction] must decode:
// at addr, written as want, length n, of form and Count:Number.
type insnCase struct {
	addr   uint32
	want   string
	n      int
	form   zmachine.Form
	count  zmachine.OperandCount
	number uint8
}

// checkInsns decodes each case on m and compares.
func checkInsns(t *testing.T, m *zmachine.Machine, cases []insnCase) {
	t.Helper()
	for _, tc := range cases {
		in, err := m.Instruction(tc.addr)
		if err != nil {
			t.Errorf("Instruction(0x%05x): %v; want %s", tc.addr, err, tc.want)
			continue
		}
		if in.String() != tc.want || in.Len() != tc.n || in.Addr != tc.addr {
			t.Errorf("Instruction(0x%05x) = %s (%d bytes, at 0x%05x); want %s (%d bytes)", tc.addr, in, in.Len(), in.Addr, tc.want, tc.n)
		}
		if in.Form != tc.form || in.Count != tc.count || in.Number != tc.number {
			t.Errorf("Instruction(0x%05x) %s: %v form, %v:%d; want %v form, %v:%d", tc.addr, in.Name, in.Form, in.Count, in.Number, tc.form, tc.count, tc.number)
		}
	}
}

// TestInstructionZorkI decodes known instructions of Zork I release 119
// (each checked byte by byte against the Standard's encoding): every form
// of version 3, stores, branches of one and two bytes, backwards and
// returning, and inline text.
func TestInstructionZorkI(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	if story.Release() != 119 {
		t.Fatalf("zork1.z3 is release %d: this test knows the addresses of release 119", story.Release())
	}
	m, err := zmachine.New(story, zmachine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const (
		long, short, variable = zmachine.LongForm, zmachine.ShortForm, zmachine.VariableForm
		op0, op1, op2, opV    = zmachine.Op0, zmachine.Op1, zmachine.Op2, zmachine.OpVar
	)
	checkInsns(t, m, []insnCase{
		{0x050d5, "050d5: call #2afd #83a4 #ffff -> sp", 9, variable, opV, 0},
		{0x0510f, "0510f: add G88 #02 -> sp", 4, long, op2, 20},
		{0x05145, "05145: store G00 #40", 3, long, op2, 13},
		{0x05157, "05157: new_line", 1, short, op0, 11},
		{0x0560c, "0560c: ret L02", 2, short, op1, 11},
		{0x05621, "05621: je L03 L02 ?~0563b", 4, long, op2, 1},
		{0x05629, "05629: jz L01 ?05630", 3, short, op1, 0},
		{0x05649, "05649: jump #ffd7 (05621)", 3, short, op1, 12},
		{0x05ae0, "05ae0: sread G5f G44", 4, variable, opV, 4},
		{0x076cc, `076cc: print " / Serial number "`, 15, short, op0, 2},
		{0x09533, "09533: jz sp ?~rtrue", 3, short, op1, 0},
		{0x09568, "09568: get_child G00 -> sp ?~rfalse", 4, short, op1, 2},
		{0x096ef, "096ef: je G82 L00 sp ?~0971b", 6, variable, op2, 1},
		{0x0971b, "0971b: jz L03 ?096f8", 4, short, op1, 0},
		{0x09729, "09729: je L03 G82 ?0976d", 5, long, op2, 1},
	})

	in, err := m.Instruction(0x0971b)
	if err != nil {
		t.Fatal(err)
	}
	want := zmachine.Instruction{Addr: 0x0971b, Next: 0x0971f, Name: "jz", Count: op1, Number: 0, Form: short,
		Operands: []zmachine.Operand{{Kind: zmachine.Variable, Value: 4}},
		Branches: true, Branch: zmachine.Branch{OnTrue: true, Offset: -37, Target: 0x096f8}}
	if fmt.Sprintf("%#v", in) != fmt.Sprintf("%#v", want) {
		t.Errorf("Instruction(0x0971b) =\n%#v\nwant\n%#v", in, want)
	}
	in, err = m.Instruction(0x050d5)
	if err != nil {
		t.Fatal(err)
	}
	ops := []zmachine.Operand{{Kind: zmachine.LargeConstant, Value: 0x2afd}, {Kind: zmachine.LargeConstant, Value: 0x83a4}, {Kind: zmachine.LargeConstant, Value: 0xffff}}
	if fmt.Sprint(in.Operands) != fmt.Sprint(ops) || !in.Stores || in.Store != 0 || in.Branches {
		t.Errorf("Instruction(0x050d5) = %#v; want operands %v, a store to the stack and no branch", in, ops)
	}
}

// asmForms are hand-assembled instructions, decoded in version 5 (at 0x600
// of asmStory) and version 3 (at tinyCode of tinyStory), where some are
// other opcodes or none.
var asmForms = cat(
	[]byte{0xbe, 0x09, 0xff, 0x04},                                           // 0x600 save_undo -> L03
	[]byte{0xbe, 0x02, 0x5f, 0x01, 0x02, 0x00},                               // 0x604 log_shift #01 #02 -> sp
	[]byte{0xec, 0xaa, 0xab, 0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09}, // 0x60a call_vs2: seven operands, two types bytes
	[]byte{0xe4, 0xaf, 0xfc, 0x02, 0xff},                                     // 0x615 aread Gec L01 -> Gef
	[]byte{0xff, 0x7f, 0x03, 0xc1},                                           // 0x61a check_arg_count #03 ?rtrue
	[]byte{0xbf, 0xc0},                                                       // 0x61e piracy ?rfalse
	[]byte{0xb9, 0x00},                                                       // 0x620 catch -> sp
	[]byte{0x8f, 0x01, 0x23},                                                 // 0x622 call_1n #0123
	[]byte{0xb3, 0x91, 0xae},                                                 // 0x625 print_ret "Hi"
	[]byte{0x41, 0x01, 0x05, 0x3f, 0xfd},                                     // 0x628 je L00 #05 ?~ itself (offset -3)
	[]byte{0x8c, 0xff, 0xd2},                                                 // 0x62d jump to 0x600
	[]byte{0x05, 0x10, 0x07, 0xc0},                                           // 0x630 inc_chk G00 #07 ?rfalse
	[]byte{0xa5, 0x00},                                                       // 0x634 inc [sp]: the variable whose number is popped
)

// TestInstructionForms decodes hand-assembled instructions of every form,
// the extended form and two types bytes included, with the names and the
// store and branch data each version gives them.
func TestInstructionForms(t *testing.T) {
	const (
		long, short, variable, ext = zmachine.LongForm, zmachine.ShortForm, zmachine.VariableForm, zmachine.ExtendedForm
		op0, op1, op2, opV, opX    = zmachine.Op0, zmachine.Op1, zmachine.Op2, zmachine.OpVar, zmachine.OpExt
	)
	t.Run("v5", func(t *testing.T) {
		checkInsns(t, asmMachine(t, asmStory(asmForms)), []insnCase{
			{0x600, "00600: save_undo -> L03", 4, ext, opX, 9},
			{0x604, "00604: log_shift #01 #02 -> sp", 6, ext, opX, 2},
			{0x60a, "0060a: call_vs2 L00 L02 L03 L04 L05 L06 L07 -> L08", 11, variable, opV, 12},
			{0x615, "00615: aread Gec L01 -> Gef", 5, variable, opV, 4},
			{0x61a, "0061a: check_arg_count #03 ?rtrue", 4, variable, opV, 31},
			{0x61e, "0061e: piracy ?rfalse", 2, short, op0, 15},
			{0x620, "00620: catch -> sp", 2, short, op0, 9},
			{0x622, "00622: call_1n #0123", 3, short, op1, 15},
			{0x625, `00625: print_ret "Hi"`, 3, short, op0, 3},
			{0x628, "00628: je L00 #05 ?~00628", 5, long, op2, 1},
			{0x62d, "0062d: jump #ffd2 (00600)", 3, short, op1, 12},
			{0x630, "00630: inc_chk G00 #07 ?rfalse", 4, long, op2, 5},
			{0x634, "00634: inc [sp]", 2, short, op1, 5},
		})
	})
	t.Run("v3", func(t *testing.T) {
		base := uint32(tinyCode)
		checkInsns(t, asmMachine(t, tinyStory(3, asmForms)), []insnCase{
			{base + 0x15, fmt.Sprintf("%05x: sread Gec L01", base+0x15), 4, variable, opV, 4},
			{base + 0x20, fmt.Sprintf("%05x: pop", base+0x20), 1, short, op0, 9},
			{base + 0x22, fmt.Sprintf("%05x: not #0123 -> Ga3", base+0x22), 4, short, op1, 15},
			{base + 0x25, fmt.Sprintf("%05x: print_ret \"Hi\"", base+0x25), 3, short, op0, 3},
		})
	})
}

// asmMachine loads data and makes a machine of it, not started.
func asmMachine(t *testing.T, data []byte) *zmachine.Machine {
	t.Helper()
	story, err := zmachine.Load(data)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	m, err := zmachine.New(story, zmachine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestInstructionErrors checks that an address outside the story, an
// instruction cut off by the end of the story and an opcode the version
// lacks are errors naming the address, and that decoding changes nothing
// in the machine.
func TestInstructionErrors(t *testing.T) {
	v5 := asmStory(asmForms)
	v5[0x700] = 0xbe // EXT:32, no opcode
	v5[0x701] = 0x20
	v5[0x702] = 0xff
	v5[0x703] = 0x00 // 2OP:0, no opcode
	v5[0x7fc] = 0xb2 // print, its text running to the end of the story
	v5[0x7ff] = 0xe0 // call, its types byte past the end
	m5 := asmMachine(t, v5)
	m3 := asmMachine(t, tinyStory(3, asmForms))
	tests := []struct {
		m    *zmachine.Machine
		pc   uint32
		want string
	}{
		{m5, 0x800, "outside the story (0x00000 to 0x007ff)"},
		{m5, 0xffffffff, "outside the story"},
		{m5, 0x700, "illegal opcode EXT:32 in version 5"},
		{m5, 0x703, "illegal opcode 2OP:0 in version 5"},
		{m5, 0x7fc, "runs past the end of the story"},
		{m5, 0x7ff, "runs past the end of the story"},
		{m3, tinyCode, "illegal opcode 0OP:14 in version 3"},        // 0xbe: no extended form before version 5
		{m3, tinyCode + 0x1e, "illegal opcode 0OP:15 in version 3"}, // piracy
		{m3, tinyCode + 0x1a, "illegal opcode VAR:31 in version 3"}, // check_arg_count
		{m3, tinyCode + 0x0a, "illegal opcode VAR:12 in version 3"}, // call_vs2
	}
	for _, tc := range tests {
		in, err := tc.m.Instruction(tc.pc)
		var zerr *zmachine.Error
		if !errors.As(err, &zerr) || zerr.PC != tc.pc || !strings.Contains(zerr.Msg, tc.want) {
			t.Errorf("Instruction(0x%x) = %v, %v; want a *zmachine.Error at 0x%x saying %q", tc.pc, in, err, tc.pc, tc.want)
		}
	}

	// Decoding prints nothing and moves nothing.
	m := asmMachine(t, asmStory(cat(asmPrintHi, asmQuit)))
	if _, err := m.Instruction(0x600); err != nil {
		t.Fatal(err)
	}
	out, err := m.Start()
	if err != nil || out != "hi" {
		t.Errorf("after Instruction, Start printed %q, %v; want %q", out, err, "hi")
	}
}

// TestInstructionAgreesWithExec plays a walkthrough and decodes, with
// [zmachine.Machine.Instruction], every instruction exec decoded into the
// story's cache as it ran: the two must agree on the operands, the store
// and the branch, and on where the instruction ends (past the inline text
// of print and print_ret, and past the store or branch data the handlers
// of read, read_char, save, restore and the undo opcodes read themselves).
func TestInstructionAgreesWithExec(t *testing.T) {
	t.Run("lantern", func(t *testing.T) {
		_, data := stories.Default()
		story, err := zmachine.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		agreeWithExec(t, story, stories.Walkthrough())
	})
	t.Run("zork1", func(t *testing.T) {
		story := loadGame(t, "zork1.z3")
		agreeWithExec(t, story, readScript(t, testgames.Path(t, "zork1.walkthrough.txt")))
	})
}

// agreeWithExec plays lines on story and compares the cache with
// Instruction.
func agreeWithExec(t *testing.T, story *zmachine.Story, lines []string) {
	m, err := zmachine.New(story, zmachine.Options{Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Start(); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if m.Halted() {
			break
		}
		if _, err := m.Step(l); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
	}
	cached := zmachine.CachedInstructions(story)
	if len(cached) < 1000 {
		t.Fatalf("only %d instructions in the cache after the walkthrough", len(cached))
	}
	late := map[string]bool{"sread": true, "aread": true, "read_char": true, "save": true, "restore": true, "save_undo": true, "restore_undo": true}
	for _, c := range cached {
		in, err := m.Instruction(c.Addr)
		if err != nil {
			t.Errorf("0x%05x: %v", c.Addr, err)
			continue
		}
		switch {
		case in.Name == "print" || in.Name == "print_ret":
			if in.Next < c.Next+2 || in.Stores || in.Branches {
				t.Errorf("%s: ends at 0x%05x; exec reads its text from 0x%05x", in, in.Next, c.Next)
			}
			continue
		case late[in.Name]:
			// The handler reads one store byte or one branch, or
			// neither (read before version 5).
			more := in.Stores || in.Branches
			if in.Stores && in.Branches || more != (in.Next > c.Next) || in.Next < c.Next {
				t.Errorf("%s: ends at 0x%05x, store %v, branch %v; exec decodes to 0x%05x", in, in.Next, in.Stores, in.Branches, c.Next)
			}
			continue
		}
		got := zmachine.CachedInsn{Addr: in.Addr, Next: in.Next, Nops: len(in.Operands), Stores: in.Stores, Store: in.Store,
			Branches: in.Branches, OnTrue: in.Branch.OnTrue, Offset: 2, Dest: in.Branch.Target}
		if in.Branch.Returns() && in.Branches {
			got.Offset = in.Branch.Offset
		}
		if got != c {
			t.Errorf("%s: decoded as %+v; exec decoded %+v", in, got, c)
		}
	}
}

// TestOpcodeNamesAgreeWithDispatch runs every opcode number of every
// operand count, alone, in versions 3, 4, 5 and 8: the machine must fail
// it as an illegal opcode, or one of another version, exactly where
// Instruction finds no opcode of that number.
func TestOpcodeNamesAgreeWithDispatch(t *testing.T) {
	var codes [][]byte
	for n := range byte(32) {
		codes = append(codes, []byte{n, 0, 0}, []byte{0xe0 | n, 0xff}, []byte{0xbe, n, 0xff})
		if n < 16 {
			codes = append(codes, []byte{0x90 | n, 0}, []byte{0xb0 | n})
		}
	}
	for _, v := range []int{3, 4, 5, 8} {
		for _, code := range codes {
			data := tinyStory(v, cat(code, make([]byte, 8)))
			m := asmMachine(t, data)
			_, derr := m.Instruction(tinyCode)
			story, _ := zmachine.Load(data)
			run, err := zmachine.New(story, zmachine.Options{Budget: 100, Files: zmachine.NewMemFiles()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = run.Start()
			illegal := err != nil && (strings.Contains(err.Error(), "illegal opcode") || strings.Contains(err.Error(), "not an opcode of version"))
			var zerr *zmachine.Error
			if illegal && errors.As(err, &zerr) && zerr.PC != tinyCode {
				illegal = false // a later instruction
			}
			if illegal != (derr != nil && strings.Contains(derr.Error(), "illegal opcode")) {
				t.Errorf("v%d % x: running it: %v; decoding it: %v", v, code, err, derr)
			}
		}
	}
}

// FuzzInstruction decodes arbitrary bytes as the code of a tiny story at
// any address: Instruction must return an instruction that ends inside the
// story after it starts, or an error, and never panic.
//
//	go test -run XXX -fuzz FuzzInstruction -fuzztime 1m ./game/zmachine/
func FuzzInstruction(f *testing.F) {
	for _, v := range []uint8{3, 5, 8} {
		for _, c := range append(tinyCodes(int(v)), asmForms) {
			f.Add(v, c, uint16(tinyCode))
		}
	}
	f.Add(uint8(5), asmForms, uint16(0xffff))
	f.Fuzz(func(t *testing.T, version uint8, code []byte, pc uint16) {
		v := []int{3, 4, 5, 7, 8}[int(version)%5]
		if len(code) > 0xfb00 {
			code = code[:0xfb00]
		}
		story, err := zmachine.Load(tinyStory(v, code))
		if err != nil {
			return
		}
		m, err := zmachine.New(story, zmachine.Options{})
		if err != nil {
			return
		}
		in, err := m.Instruction(uint32(pc))
		if err != nil {
			var zerr *zmachine.Error
			if !errors.As(err, &zerr) || zerr.PC != uint32(pc) {
				t.Fatalf("Instruction(0x%x): %v, not a *zmachine.Error at that address", pc, err)
			}
			return
		}
		if in.Addr != uint32(pc) || in.Next <= in.Addr || int(in.Next) > story.Size() || in.Name == "" {
			t.Fatalf("Instruction(0x%x) = %#v: not an instruction inside the story", pc, in)
		}
		_ = in.String()
	})
}
