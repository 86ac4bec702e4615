package zmachine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

// asmStory builds a minimal version 5 story whose main code is code, at
// 0x600: dynamic memory to 0x400, globals at 0x100, an empty object table
// at 0x300, an empty dictionary at 0x500 and a routine area at 0x700.
func asmStory(code []byte, routine ...byte) []byte {
	mem := make([]byte, 0x800)
	mem[0] = 5
	put := func(a int, v int) { mem[a], mem[a+1] = byte(v>>8), byte(v) }
	put(0x04, 0x600) // high memory
	put(0x06, 0x600) // initial PC
	put(0x08, 0x500) // dictionary
	put(0x0a, 0x300) // objects
	put(0x0c, 0x100) // globals
	put(0x0e, 0x400) // static memory
	put(0x1a, 0x800/4)
	copy(mem[0x12:], "250101")
	mem[0x500], mem[0x501] = 0, 9 // no separators, entry length 9, 0 entries
	copy(mem[0x600:], code)
	copy(mem[0x700:], routine)
	return mem
}

func run(t *testing.T, data []byte, opts zmachine.Options) (string, *zmachine.Machine, error) {
	t.Helper()
	story, err := zmachine.Load(data)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	m, err := zmachine.New(story, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	out, err := m.Start()
	return out, m, err
}

// The Standard's instruction forms, hand-assembled.
var (
	asmQuit = []byte{0xba}
	// print "hi" (0OP:2 with the Z-string h=13 i=14 pad=5, end bit set).
	asmPrintHi = []byte{0xb2, 0xb5, 0xc5}
)

func TestRuntimeErrorsNameProblemAndPC(t *testing.T) {
	tests := []struct {
		name    string
		code    []byte
		routine []byte
		want    string
		pc      uint32
	}{
		{"division by zero", []byte{0x17, 1, 0, 0x00}, nil, "division by zero", 0x600},
		{"remainder by zero", []byte{0x18, 7, 0, 0x00}, nil, "division by zero", 0x600},
		{"illegal opcode", append(append([]byte{}, asmPrintHi...), 0x00, 0, 0), nil, "illegal opcode 2OP:0", 0x603},
		{"read past the story", []byte{0xd0, 0x1f, 0xff, 0xf0, 0x00, 0x00}, nil, "beyond the end of the story", 0x600},
		{"write to static memory", []byte{0xe2, 0x17, 0x05, 0x00, 0x00, 0x00}, nil, "outside dynamic memory", 0x600},
		{"stack underflow", []byte{0xb8}, nil, "stack underflow", 0x600},
		{"endless recursion", []byte{0x8f, 0x01, 0xc0}, []byte{0, 0x8f, 0x01, 0xc0}, "stack overflow", 0x701},
		{"return from main", []byte{0xb0}, nil, "return from the main routine", 0x600},
		{"extended opcode of version 6", []byte{0xbe, 0x05, 0xff}, nil, "illegal opcode EXT:5", 0x600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, m, err := run(t, asmStory(tc.code, tc.routine...), zmachine.Options{})
			var zerr *zmachine.Error
			if !errors.As(err, &zerr) {
				t.Fatalf("Start: got %v, want a *zmachine.Error", err)
			}
			if !strings.Contains(zerr.Msg, tc.want) || zerr.PC != tc.pc {
				t.Errorf("error %q at PC 0x%x, want %q at 0x%x", zerr.Msg, zerr.PC, tc.want, tc.pc)
			}
			if m.State() != zmachine.Halted {
				t.Errorf("state after error: %v, want halted", m.State())
			}
			if _, err := m.Step("look"); err == nil {
				t.Error("Step after a fatal error succeeded")
			}
		})
	}
}

func TestEndlessLoopStopsAtBudget(t *testing.T) {
	// jump -1: back to itself, forever.
	_, _, err := run(t, asmStory([]byte{0x8c, 0xff, 0xff}), zmachine.Options{Budget: 10000})
	if err == nil || !strings.Contains(err.Error(), "endless loop") || !strings.Contains(err.Error(), "10000 instructions") {
		t.Fatalf("got %v, want the budget error", err)
	}
}

// TestLoopBudgetCountsEachInstruction runs Inform's loop shape, an inc of
// a local and a jump back (which exec runs as one fused pair), until the
// budget runs out: each of the two still counts as an instruction, and the
// budget stops the machine on whichever of them is next, as it would if
// they ran apart.
func TestLoopBudgetCountsEachInstruction(t *testing.T) {
	// call_vn the routine at 0x700; it has one local, then: inc L01 (at
	// 0x701), jump -3 (at 0x703, back to 0x701).
	code := []byte{0xf9, 0x3f, 0x01, 0xc0}
	routine := []byte{0x01, 0x95, 0x01, 0x8c, 0xff, 0xfd}
	for _, tc := range []struct {
		budget int
		pc     uint32 // the instruction the budget stops on
	}{
		{1000, 0x703}, // the call, then 499 incs and jumps, then an inc: the jump is next
		{1001, 0x701},
	} {
		_, m, err := run(t, asmStory(code, routine...), zmachine.Options{Budget: tc.budget})
		var zerr *zmachine.Error
		if !errors.As(err, &zerr) || !strings.Contains(err.Error(), "endless loop") {
			t.Fatalf("budget %d: got %v, want the budget error", tc.budget, err)
		}
		if zerr.PC != tc.pc {
			t.Errorf("budget %d: stopped at 0x%x, want 0x%x", tc.budget, zerr.PC, tc.pc)
		}
		if n := m.Instructions(); n != uint64(tc.budget) {
			t.Errorf("budget %d: %d instructions counted", tc.budget, n)
		}
	}
}

func TestPrintAndQuit(t *testing.T) {
	out, m, err := run(t, asmStory(append(append([]byte{}, asmPrintHi...), asmQuit...)), zmachine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out != "hi" {
		t.Errorf("output %q, want %q", out, "hi")
	}
	if m.State() != zmachine.Halted {
		t.Errorf("state %v, want halted", m.State())
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	good := asmStory(asmQuit)
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "shorter than the 64-byte header"},
		{"text file", []byte(strings.Repeat("This is not a story file at all.\n", 4)), "version byte is 84"},
		{"version 6", mod(func(b []byte) []byte { b[0] = 6; return b }), "version 6"},
		{"version 1", mod(func(b []byte) []byte { b[0] = 1; return b }), "version 1 story files are not supported"},
		{"truncated", good[:0x500], "truncated story file"},
		{"static memory past the end", mod(func(b []byte) []byte { b[0x0e] = 0x40; return b }), "static memory starts at 0x4000"},
		{"globals outside dynamic memory", mod(func(b []byte) []byte { b[0x0c] = 0x03; b[0x0d] = 0xf0; return b }), "global variables"},
		{"initial PC outside", mod(func(b []byte) []byte { b[0x06] = 0x7f; return b }), "initial program counter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := zmachine.Load(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load: got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func steps(t *testing.T, m *zmachine.Machine, cmds ...string) string {
	t.Helper()
	var sb strings.Builder
	for _, c := range cmds {
		out, err := m.Step(c)
		if err != nil {
			t.Fatalf("Step(%q): %v", c, err)
		}
		sb.WriteString(out)
	}
	return sb.String()
}

func TestSnapshotRestoreReplaysExactly(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	m, _ := zmachine.New(story, zmachine.Options{Seed: 3})
	steps(t, m, "open mailbox", "take leaflet", "south", "east")
	snap := m.Snapshot()
	moves := []string{"open window", "enter house", "west", "take sword", "take lamp", "east", "up"}
	first := steps(t, m, moves...)
	status := m.StatusLine()
	if err := m.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if again := steps(t, m, moves...); again != first {
		t.Errorf("replay from a snapshot differs:\nfirst: %q\nagain: %q", first, again)
	}
	if m.StatusLine() != status {
		t.Errorf("status line %q after replay, want %q", m.StatusLine(), status)
	}

	// A second machine of the same story takes the snapshot too, and the
	// first is untouched by what the second does.
	other, _ := zmachine.New(story, zmachine.Options{Seed: 3})
	if err := other.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if out := steps(t, other, moves...); out != first {
		t.Errorf("another machine replaying the snapshot printed %q, want %q", out, first)
	}
	before := m.StatusLine()
	steps(t, other, "down", "north")
	if m.StatusLine() != before {
		t.Errorf("moving one machine changed the other's status line to %q", m.StatusLine())
	}
}

func TestStatusLineV3(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	m, _ := zmachine.New(story, zmachine.Options{Seed: 1, Width: 60})
	steps(t, m, "north", "north")
	got := m.StatusLine()
	if !strings.HasPrefix(got, "Forest Path") || !strings.HasSuffix(got, "Score: 0  Moves: 2") || len(got) != 58 {
		t.Errorf("status line %q, want Forest Path ... Score: 0  Moves: 2 in 58 columns", got)
	}
}

func TestSaveRestoreQuetzal(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	files := zmachine.NewMemFiles()
	m, _ := zmachine.New(story, zmachine.Options{Seed: 5, Files: files, Name: "zork1"})
	steps(t, m, "open mailbox", "take leaflet")
	out := steps(t, m, "save")
	if m.State() != zmachine.WaitFile || !strings.Contains(out, "Please enter a filename [zork1.qzl]: ") {
		t.Fatalf("after save: state %v, output %q; want the file name prompt", m.State(), out)
	}
	if out := steps(t, m, "slot1"); !strings.Contains(out, "Ok.") {
		t.Fatalf("save printed %q, want Ok.", out)
	}
	data, err := files.ReadFile("slot1")
	if err != nil || string(data[:4]) != "FORM" || string(data[8:12]) != "IFZS" {
		t.Fatalf("save file: %v, % x", err, data[:min(12, len(data))])
	}
	steps(t, m, "drop leaflet", "north", "north")
	if out := steps(t, m, "restore", ""); !strings.Contains(out, "Please enter a filename [slot1]") || !strings.Contains(out, "Ok.") {
		t.Fatalf("restore printed %q", out)
	}
	if out := steps(t, m, "inventory"); !strings.Contains(out, "leaflet") {
		t.Errorf("inventory after restore: %q, want the leaflet", out)
	}
	if !strings.HasPrefix(m.StatusLine(), "West of House") {
		t.Errorf("status after restore: %q", m.StatusLine())
	}

	// Saving over the file asks first, as Frotz does; "n" keeps it.
	if out := steps(t, m, "save", "slot1"); !strings.Contains(out, "Overwrite existing file?") {
		t.Fatalf("save over an existing file printed %q", out)
	}
	if out := steps(t, m, "n"); !strings.Contains(out, "Failed") {
		t.Errorf("declined overwrite printed %q, want the game's failure message", out)
	}

	// A corrupt save file is refused, and the game goes on.
	files.WriteFile("bad", []byte("FORM\x00\x00\x00\x04IFZS"))
	if out := steps(t, m, "restore", "bad"); !strings.Contains(out, "Failed") {
		t.Errorf("restoring a corrupt file printed %q", out)
	}
	if m.State() != zmachine.WaitLine {
		t.Errorf("state %v after a failed restore", m.State())
	}
}

func TestRestartKeepsSeedSequence(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	m, _ := zmachine.New(story, zmachine.Options{Seed: 12})
	intro, _ := m.Start()
	steps(t, m, "north")
	out := steps(t, m, "restart", "y")
	if !strings.Contains(out, "West of House") {
		t.Errorf("restart printed %q", out)
	}
	fresh, _ := zmachine.New(story, zmachine.Options{Seed: 12})
	fresh.Start()
	cmds := []string{"north", "north", "up", "take egg", "down", "south", "east", "open window", "enter"}
	if a, b := steps(t, m, cmds...), steps(t, fresh, cmds...); a != b {
		t.Errorf("after restart the game differs from a fresh one:\n%q\n%q", a, b)
	}
	_ = intro
}

func TestCommandRecordStream4(t *testing.T) {
	code := []byte{
		0xe2, 0x17, 0x02, 0x00, 0x00, 20, // storeb 0x200 0 20: text buffer size
		0xe2, 0x17, 0x02, 0x80, 0x00, 5, // storeb 0x280 0 5: parse buffer size
		0xf3, 0x7f, 4, // output_stream 4
		0xe4, 0x0f, 0x02, 0x00, 0x02, 0x80, 0x10, // aread 0x200 0x280 -> g0
		0xe4, 0x0f, 0x02, 0x00, 0x02, 0x80, 0x10, // aread again
		0xba, // quit
	}
	_, m, err := run(t, asmStory(code), zmachine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	steps(t, m, "Open the Door", "wait")
	if got, want := m.CommandRecord(), "Open the Door\nwait\n"; got != want {
		t.Errorf("stream 4 recorded %q, want %q", got, want)
	}
	if !m.Halted() {
		t.Errorf("state %v after the last read, want halted", m.State())
	}
}

func TestTranscriptStream2(t *testing.T) {
	story := loadGame(t, "zork1.z3")
	m, _ := zmachine.New(story, zmachine.Options{Seed: 1})
	steps(t, m, "script", "open mailbox", "unscript", "north")
	tr := m.Transcript()
	if !strings.Contains(tr, "Opening the small mailbox reveals a leaflet.") {
		t.Errorf("transcript lacks the scripted reply: %q", tr)
	}
	if strings.Contains(tr, "North of House") {
		t.Errorf("transcript goes on after unscript: %q", tr)
	}
}

func TestOutputPerStepIsBounded(t *testing.T) {
	// print "hi"; jump back: 2 characters every 2 instructions, for ever.
	code := append(append([]byte{}, asmPrintHi...), 0x8c, 0xff, 0xfc)
	out, _, err := run(t, asmStory(code), zmachine.Options{Budget: 1 << 30})
	if err == nil || !strings.Contains(err.Error(), "printed more than") {
		t.Fatalf("got %v, want the output limit's error", err)
	}
	if len(out) > 5<<20 {
		t.Errorf("the failed step returned %d bytes", len(out))
	}
}
