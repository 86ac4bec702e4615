package zmachine_test

// Fuzz tests: a story file is untrusted input. Load must accept it or say
// why not, and a loaded story must run until it errs, halts or waits for
// input, within its instruction budget, without a panic or a hang.
//
//	go test -run XXX -fuzz FuzzLoad -fuzztime 2m ./game/zmachine/
//	go test -run XXX -fuzz FuzzRun -fuzztime 2m ./game/zmachine/
//
// Crashers found are kept in testdata/fuzz/FuzzX/ and rerun by plain
// `go test`.

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/testgames"

	"github.com/grue-lab/grue/game/zmachine"
)

// Layout of the tiny stories built below.
const (
	tinyAbbrevs = 0x040
	tinyObjects = 0x100
	tinyProps   = 0x1c0 // property table of object 1
	tinyGlobals = 0x200
	tinyText    = 0x300 // text buffer for read
	tinyParse   = 0x380 // parse buffer for read
	tinyDict    = 0x400 // also the start of static memory
	tinyCode    = 0x500 // also the start of high memory and the initial PC
)

// tinyStory builds a minimal well-formed story file of the given version
// (3 or 5) whose code, at tinyCode, is code: an empty abbreviation table
// and dictionary, one object named "Hi" (global 0 names it, for the version
// 3 status line), 240 globals, and text and parse buffers for the read
// instruction.
func tinyStory(version int, code []byte) []byte {
	size := tinyCode + len(code)
	align := 2
	if version >= 4 {
		align = 4
	}
	if version == 8 {
		align = 8
	}
	size = (size + align - 1) / align * align
	mem := make([]byte, size)
	mem[0x00] = byte(version)
	be := binary.BigEndian
	be.PutUint16(mem[0x02:], 1) // release
	be.PutUint16(mem[0x04:], tinyCode)
	be.PutUint16(mem[0x06:], tinyCode)
	be.PutUint16(mem[0x08:], tinyDict)
	be.PutUint16(mem[0x0a:], tinyObjects)
	be.PutUint16(mem[0x0c:], tinyGlobals)
	be.PutUint16(mem[0x0e:], tinyDict)
	copy(mem[0x12:0x18], "250101")
	be.PutUint16(mem[0x18:], tinyAbbrevs)
	be.PutUint16(mem[0x1a:], uint16(size/align))
	// Object 1, after the property defaults (31 words, or 63 from v4).
	obj, objSize := tinyObjects+31*2, 9
	if version >= 4 {
		obj, objSize = tinyObjects+63*2, 14
	}
	be.PutUint16(mem[obj+objSize-2:], tinyProps)
	copy(mem[tinyProps:], []byte{1, 0x91, 0xae, 0}) // name "Hi", no properties
	be.PutUint16(mem[tinyGlobals:], 1)
	mem[tinyText] = 60  // max characters
	mem[tinyParse] = 10 // max words
	mem[tinyDict] = 0   // no word separators
	mem[tinyDict+1] = 7 // entry length (v3: 4 bytes of text + 3)
	if version >= 4 {
		mem[tinyDict+1] = 9
	}
	copy(mem[tinyCode:], code)
	var sum uint16
	for _, c := range mem[0x40:] {
		sum += uint16(c)
	}
	be.PutUint16(mem[0x1c:], sum)
	return mem
}

// Instructions for the tiny stories.
var (
	opPrintHi     = []byte{0xb2, 0x91, 0xae}             // print "Hi"
	opPrintPrompt = []byte{0xb2, 0x14, 0xc1, 0xf8, 0x05} // print "> "
	opNewLine     = []byte{0xbb}
	opQuit        = []byte{0xba}
)

// opRead is read (sread / aread) of the tiny text and parse buffers. From
// version 5 on it first empties the text buffer (byte 1 is the length of
// text to edit, as Inform's library does) and stores the terminating
// character in global 0.
func opRead(version int) []byte {
	op := []byte{0xe4, 0x0f, tinyText >> 8, tinyText & 0xff, tinyParse >> 8, tinyParse & 0xff}
	if version >= 5 {
		clear := []byte{0xe2, 0x17, tinyText >> 8, tinyText & 0xff, 1, 0} // storeb text 1 0
		op = append(clear, append(op, 0x10)...)
	}
	return op
}

// opJump is an unconditional jump from address at to address to.
func opJump(at, to int) []byte {
	off := uint16(to - at - 1)
	return []byte{0x8c, byte(off >> 8), byte(off)}
}

// cat joins instructions.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// tinyCodes are the code of the tiny stories, the seeds of FuzzCode.
func tinyCodes(version int) [][]byte {
	return [][]byte{
		cat(opPrintHi, opNewLine, opQuit),
		cat(opPrintHi, opNewLine, opPrintPrompt, opRead(version), opJump(tinyCode+len(opPrintHi)+1+len(opPrintPrompt)+len(opRead(version)), tinyCode+len(opPrintHi)+1)),
		opJump(tinyCode, tinyCode),
		{0x17, 1, 0, 0x00}, // div 1 0 -> sp
		{0xe9, 0x7f, 0x10}, // pull g0 (v3), on an empty stack
	}
}

// tinyLoopStory prints "Hi", then prompts and reads a line forever.
func tinyLoopStory(version int) []byte {
	head := cat(opPrintHi, opNewLine)
	loop := tinyCode + len(head)
	body := cat(opPrintPrompt, opRead(version))
	jumpAt := loop + len(body)
	return tinyStory(version, cat(head, body, opJump(jumpAt, loop)))
}

// fuzzSeeds returns the seed inputs common to both fuzzers: tiny stories
// built here, broken variants of them, some packaged in Blorb files, the start of the shared Zork I and
// Praxix files when present (read at run time, never committed) and the
// project's own test stories.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, v := range []int{3, 5} {
		quit := tinyStory(v, cat(opPrintHi, opNewLine, opQuit))
		loop := tinyLoopStory(v)
		spin := tinyStory(v, opJump(tinyCode, tinyCode)) // a jump to itself
		seeds = append(seeds, quit, loop, spin,
			loop[:0x40], loop[:tinyCode], loop[:len(loop)-3])
		bad := append([]byte(nil), loop...)
		bad[tinyCode] = 0xbe // extended opcode prefix in v3, an unknown one in v5
		bad[tinyCode+1] = 0xff
		seeds = append(seeds, bad)
		// The same stories packaged in Blorb files, whole and cut short.
		blorb := testgames.Blorb(loop, "ZCOD", blorbBefore, blorbAfter)
		seeds = append(seeds, blorb, blorb[:len(blorb)/2], blorbOf(testgames.Chunk{Type: "ZCOD", Data: quit}))
	}
	seeds = append(seeds, nil, []byte{3}, make([]byte, 64), []byte("not a story file at all"))
	for _, name := range []string{"zork1.z3", "praxix.z5"} {
		if data, err := os.ReadFile(filepath.Join(testgames.Dir(), name)); err == nil {
			seeds = append(seeds, data[:min(len(data), 4096)])
		}
	}
	for _, pat := range []string{"*.z3", "*.z5", "*.z8"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "stories", pat))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				seeds = append(seeds, data)
			}
		}
	}
	return seeds
}

func FuzzLoad(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		story, err := zmachine.Load(data)
		if (story == nil) == (err == nil) {
			t.Fatalf("Load returned story %v and error %v: want exactly one", story != nil, err)
		}
		if story == nil {
			return
		}
		switch v := story.Version(); v {
		case 1, 2, 3, 4, 5, 6, 7, 8:
		default:
			t.Fatalf("Load accepted version %d", v)
		}
		_ = story.Release()
		_ = story.Serial()
		_ = story.Checksum()
		if id := story.IFID(); id == "" || len(id) > 80 {
			t.Fatalf("IFID %q: want one no longer than an IFID or a legacy ZCODE- one", id)
		}
	})
}

// fuzzCommands are the lines FuzzRun feeds a story after Start.
var fuzzCommands = []string{"look", "n", "take all", "", "save", "x.qzl", "restore", "x.qzl", "undo", "quit", "y"}

// hangLimit is how long one fuzz input may take before it counts as a
// hang: 200000 instructions a Step, a dozen Steps, take well under a second.
const hangLimit = 5 * time.Second

func FuzzRun(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runFuzzStory(t, data)
	})
}

// FuzzCode runs arbitrary bytes as the code of a tiny, well-formed story
// of version 3, 4, 5, 7 or 8, so that the fuzzer spends its time on the
// instruction set rather than on headers that Load rejects.
func FuzzCode(f *testing.F) {
	for _, v := range []uint8{3, 5, 8} {
		for _, c := range tinyCodes(int(v)) {
			f.Add(v, c)
		}
	}
	f.Fuzz(func(t *testing.T, version uint8, code []byte) {
		v := []int{3, 4, 5, 7, 8}[int(version)%5]
		if len(code) > 0xfb00 { // keep within 64 KiB with the tiny layout
			code = code[:0xfb00]
		}
		runFuzzStory(t, tinyStory(v, code))
	})
}

// runFuzzStory loads and runs a story for the fuzzers: Start, then each of
// fuzzCommands, then a Snapshot and Restore. Errors are fine; a panic is
// not, and neither is a run that takes longer than hangLimit: the machine
// runs in its own goroutine, and a run still going at the limit fails the
// input with every goroutine's stack (the runaway goroutine is left to run
// out its instruction budget).
func runFuzzStory(t *testing.T, data []byte) {
	story, err := zmachine.Load(data)
	if err != nil {
		return
	}
	done := make(chan string, 1)
	go func() {
		done <- runFuzzMachine(story)
	}()
	select {
	case msg := <-done:
		if msg != "" {
			t.Fatal(msg)
		}
	case <-time.After(hangLimit):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("story (%d bytes) still running after %v: a hang, or output or work that the instruction budget does not bound\n%s", len(data), hangLimit, buf)
	}
}

// runFuzzMachine plays story and returns a failure message, or "".
func runFuzzMachine(story *zmachine.Story) string {
	m, err := zmachine.New(story, zmachine.Options{
		Seed: 1, Width: 40, Height: 12, Budget: 200000, UndoSlots: 4,
		Files: zmachine.NewMemFiles(),
	})
	if err != nil {
		return ""
	}
	if _, err := m.Start(); err != nil {
		return ""
	}
	for _, cmd := range fuzzCommands {
		if m.State() == zmachine.Halted {
			return ""
		}
		if _, err := m.Step(cmd); err != nil {
			return ""
		}
	}
	if err := m.Restore(m.Snapshot()); err != nil {
		return fmt.Sprintf("Restore of a fresh Snapshot: %v", err)
	}
	return ""
}

// TestTinyStories checks the fuzzers' hand-built seed stories load, so that
// the seeds reach the interpreter rather than Load's error paths.
func TestTinyStories(t *testing.T) {
	for _, v := range []int{3, 5} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			story, err := zmachine.Load(tinyLoopStory(v))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			m, err := zmachine.New(story, zmachine.Options{Seed: 1, Budget: 10000})
			if err != nil {
				t.Fatal(err)
			}
			out, err := m.Start()
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			if out != "Hi\n> " {
				t.Errorf("Start printed %q, want %q", out, "Hi\n> ")
			}
			if m.State() != zmachine.WaitLine {
				t.Errorf("state %v, want waiting for a line", m.State())
			}
			if out, err = m.Step("look"); err != nil || out != "> " {
				t.Errorf("Step = %q, %v; want %q", out, err, "> ")
			}
		})
	}
}
