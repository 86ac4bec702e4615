package glk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeMem is a Memory of n bytes and a stack.
type fakeMem struct {
	b     []byte
	stack []uint32
	sized bool
}

func newMem(n int) *fakeMem { return &fakeMem{b: make([]byte, n), sized: true} }

func (m *fakeMem) Load8(a uint32) (byte, error) {
	if uint64(a) >= uint64(len(m.b)) {
		return 0, errors.New("out of memory range")
	}
	return m.b[a], nil
}
func (m *fakeMem) Store8(a uint32, v byte) error {
	if uint64(a) >= uint64(len(m.b)) {
		return errors.New("out of memory range")
	}
	m.b[a] = v
	return nil
}
func (m *fakeMem) Load32(a uint32) (uint32, error) {
	if uint64(a)+4 > uint64(len(m.b)) {
		return 0, errors.New("out of memory range")
	}
	return uint32(m.b[a])<<24 | uint32(m.b[a+1])<<16 | uint32(m.b[a+2])<<8 | uint32(m.b[a+3]), nil
}
func (m *fakeMem) Store32(a uint32, v uint32) error {
	if uint64(a)+4 > uint64(len(m.b)) {
		return errors.New("out of memory range")
	}
	m.b[a], m.b[a+1], m.b[a+2], m.b[a+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	return nil
}
func (m *fakeMem) Push(v uint32) error {
	if len(m.stack) > 1000 {
		return errors.New("stack overflow")
	}
	m.stack = append(m.stack, v)
	return nil
}
func (m *fakeMem) Pop() (uint32, error) {
	if len(m.stack) == 0 {
		return 0, errors.New("stack underflow")
	}
	v := m.stack[len(m.stack)-1]
	m.stack = m.stack[:len(m.stack)-1]
	return v, nil
}

type sizedMem struct{ *fakeMem }

func (m sizedMem) MemSize() uint32 { return uint32(len(m.b)) }

// cstr puts an unencoded Glulx string at addr.
func (m *fakeMem) cstr(addr uint32, s string) uint32 {
	m.b[addr] = 0xE0
	copy(m.b[addr+1:], s)
	m.b[addr+1+uint32(len(s))] = 0
	return addr
}

func sel(t *testing.T, name string) uint32 {
	t.Helper()
	for _, f := range functions {
		if f.name == name {
			return f.sel
		}
	}
	t.Fatalf("no Glk function %s", name)
	return 0
}

func call(t *testing.T, g *Glk, name string, args ...uint32) uint32 {
	t.Helper()
	r, err := g.Call(sel(t, name), args)
	if err != nil {
		t.Fatalf("%s%v: %v", name, args, err)
	}
	return r
}

// setup opens the main window as an Inform story does, and makes it current.
func setup(t *testing.T) (*Glk, *fakeMem, uint32) {
	m := newMem(0x10000)
	g := New(sizedMem{m}, Options{})
	win := call(t, g, "window_open", 0, 0, 0, wintypeTextBuffer, 201)
	if win == 0 {
		t.Fatal("window_open gave no main window")
	}
	call(t, g, "set_window", win)
	return g, m, win
}

func TestMainWindowText(t *testing.T) {
	g, m, _ := setup(t)
	call(t, g, "put_string", m.cstr(0x100, "Hello, "))
	call(t, g, "put_char", 'W')
	call(t, g, "put_char_uni", 0x263A)
	if err := g.PutChar('\n'); err != nil {
		t.Fatal(err)
	}
	if got, want := g.TakeOutput(), "Hello, W\u263a\n"; got != want {
		t.Errorf("main text %q, want %q", got, want)
	}
	if got := g.TakeOutput(); got != "" {
		t.Errorf("text taken twice: %q", got)
	}
	if got, want := Latin1("W\u263a"), []byte{'W', 0x3A}; string(got) != string(want) {
		t.Errorf("Latin1 %q, want %q (cheapglk prints the low byte)", got, want)
	}
}

func TestWindowClearPrintsScreenHeight(t *testing.T) {
	g, _, win := setup(t)
	call(t, g, "window_clear", win)
	if got := g.TakeOutput(); got != strings.Repeat("\n", 24) {
		t.Errorf("window_clear printed %q, want 24 newlines as cheapglk", got)
	}
}

func TestStatusGridIsNotMainText(t *testing.T) {
	g, m, win := setup(t)
	st := call(t, g, "window_open", win, winmethodAbove|winmethodFixed, 1, wintypeTextGrid, 202)
	if st == 0 {
		t.Fatal("no status window")
	}
	call(t, g, "window_get_size", st, 0x200, 0x204)
	if w, _ := m.Load32(0x200); w != 80 {
		t.Errorf("status width %d", w)
	}
	if h, _ := m.Load32(0x204); h != 1 {
		t.Errorf("status height %d", h)
	}
	call(t, g, "set_window", st)
	call(t, g, "window_move_cursor", st, 2, 0)
	call(t, g, "put_string", m.cstr(0x100, "West of House"))
	call(t, g, "set_window", win)
	call(t, g, "put_string", m.cstr(0x100, "main"))
	if got := g.TakeOutput(); got != "main" {
		t.Errorf("main text %q", got)
	}
	if got := g.StatusLine(); got != "  West of House" {
		t.Errorf("status line %q", got)
	}
	// A second grid (a quote box) is refused, as cheapglk refuses it.
	if q := call(t, g, "window_open", win, winmethodAbove|winmethodFixed, 5, wintypeTextGrid, 203); q != 0 {
		t.Errorf("a second text grid opened (%d)", q)
	}
	if b := call(t, g, "window_open", win, winmethodAbove|winmethodFixed, 5, wintypeTextBuffer, 204); b != 0 {
		t.Errorf("a second text buffer opened (%d)", b)
	}
	if gr := call(t, g, "window_open", win, winmethodLeft|winmethodProportional, 30, wintypeGraphics, 205); gr == 0 {
		t.Error("a graphics window is refused")
	}
	call(t, g, "window_close", st, 0)
	if got := g.StatusLine(); got != "" {
		t.Errorf("status line after close %q", got)
	}
}

func TestOneWindowAsCheapglk(t *testing.T) {
	m := newMem(0x1000)
	g := New(m, Options{OneWindow: true})
	win := call(t, g, "window_open", 0, 0, 0, wintypeTextBuffer, 201)
	if win == 0 {
		t.Fatal("no main window")
	}
	for _, typ := range []uint32{wintypeTextGrid, wintypeGraphics, wintypeTextBuffer} {
		if w := call(t, g, "window_open", win, winmethodAbove|winmethodFixed, 1, typ, 202); w != 0 {
			t.Errorf("window of type %d opened beside the main one", typ)
		}
	}
	// What the story then does with the status window it has not got:
	call(t, g, "window_move_cursor", 0, 0, 0)
	if got := g.TakeOutput(); got != "Glk library error: window_move_cursor: invalid id.\n" {
		t.Errorf("move_cursor on no window printed %q, want cheapglk's warning", got)
	}
}

func TestLineInput(t *testing.T) {
	g, m, win := setup(t)
	call(t, g, "request_line_event", win, 0x300, 10, 0)
	if _, err := g.Call(sel(t, "select"), []uint32{0x400}); !errors.Is(err, ErrWait) {
		t.Fatalf("select with no input: %v, want ErrWait", err)
	}
	if g.Waiting() != InputLine {
		t.Fatalf("waiting for %v", g.Waiting())
	}
	if err := g.SendLine("open the mailbox\n"); err != nil {
		t.Fatal(err)
	}
	call(t, g, "select", 0x400)
	ev := make([]uint32, 4)
	for i := range ev {
		ev[i], _ = m.Load32(0x400 + uint32(i)*4)
	}
	if ev[0] != evtypeLineInput || ev[1] != win || ev[2] != 10 {
		t.Errorf("event %v, want line input of 10 characters in window %d", ev, win)
	}
	if got := string(m.b[0x300:0x30A]); got != "open the m" {
		t.Errorf("buffer %q", got)
	}
	if got := g.TakeOutput(); got != "" {
		t.Errorf("the line was echoed: %q", got)
	}
	if g.Waiting() != InputNone {
		t.Errorf("still waiting for %v", g.Waiting())
	}
}

func TestUnicodeLineInputOnStack(t *testing.T) {
	g, m, win := setup(t)
	call(t, g, "request_line_event_uni", win, 0x300, 4, 0)
	if _, err := g.Call(sel(t, "select"), []uint32{0xFFFFFFFF}); !errors.Is(err, ErrWait) {
		t.Fatal(err)
	}
	g.SendLine("é☺")
	call(t, g, "select", 0xFFFFFFFF)
	if want := []uint32{evtypeLineInput, win, 2, 0}; len(m.stack) != 4 || m.stack[0] != want[0] || m.stack[1] != want[1] || m.stack[2] != want[2] {
		t.Errorf("event on the stack %v, want %v (pushed in field order)", m.stack, want)
	}
	if c, _ := m.Load32(0x304); c != 0x263A {
		t.Errorf("second character %#x", c)
	}
}

func TestCharInputFromLine(t *testing.T) {
	g, m, win := setup(t)
	call(t, g, "request_char_event", win)
	g.Call(sel(t, "select"), []uint32{0x400})
	if g.Waiting() != InputChar {
		t.Fatalf("waiting for %v", g.Waiting())
	}
	g.SendLine("")
	call(t, g, "select", 0x400)
	if k, _ := m.Load32(0x408); k != keycodeReturn {
		t.Errorf("an empty line gave key %#x, want Return as cheapglk", k)
	}
}

func TestEndOfInput(t *testing.T) {
	g, _, win := setup(t)
	call(t, g, "request_line_event", win, 0x300, 10, 0)
	g.Call(sel(t, "select"), []uint32{0x400})
	g.EndInput()
	if _, err := g.Call(sel(t, "select"), []uint32{0x400}); !errors.Is(err, ErrExit) {
		t.Fatalf("select at the end of input: %v", err)
	}
	if got := g.TakeOutput(); got != "\n<end of input>\n" {
		t.Errorf("end of input printed %q", got)
	}
}

func TestStackReferences(t *testing.T) {
	g, m, win := setup(t)
	call(t, g, "window_get_size", win, 0xFFFFFFFF, 0xFFFFFFFF)
	if len(m.stack) != 2 || m.stack[0] != 80 || m.stack[1] != 24 {
		t.Errorf("stack %v, want width then height pushed: [80 24]", m.stack)
	}
}

func TestMemoryStreams(t *testing.T) {
	g, m, win := setup(t)
	s := call(t, g, "stream_open_memory", 0x500, 4, filemodeWrite, 7)
	call(t, g, "stream_set_current", s)
	call(t, g, "put_string", m.cstr(0x100, "abcdef"))
	call(t, g, "put_char_uni", 0x263A)
	call(t, g, "stream_close", s, 0x600)
	if got := string(m.b[0x500:0x504]); got != "abcd" {
		t.Errorf("memory stream wrote %q", got)
	}
	if w, _ := m.Load32(0x604); w != 7 {
		t.Errorf("write count %d, want 7 (counted past the end, as cheapglk)", w)
	}
	if call(t, g, "stream_get_current") != 0 {
		t.Error("a closed stream is still current")
	}
	// Unicode: the array goes back to memory when the stream closes.
	u := call(t, g, "stream_open_memory_uni", 0x700, 3, filemodeWrite, 8)
	call(t, g, "put_char_stream_uni", u, 0x1F600)
	if c, _ := m.Load32(0x700); c != 0 {
		t.Errorf("Unicode array written before close: %#x", c)
	}
	call(t, g, "stream_close", u, 0)
	if c, _ := m.Load32(0x700); c != 0x1F600 {
		t.Errorf("Unicode array after close: %#x", c)
	}
	// Reading a byte stream, line by line.
	copy(m.b[0x800:], "one\ntwo\n")
	r := call(t, g, "stream_open_memory", 0x800, 8, filemodeRead, 0)
	if n := call(t, g, "get_line_stream", r, 0x900, 20); n != 4 || string(m.b[0x900:0x905]) != "one\n\x00" {
		t.Errorf("get_line %d %q", n, m.b[0x900:0x905])
	}
	call(t, g, "stream_set_position", r, 0xFFFFFFFF, seekmodeEnd)
	if p := call(t, g, "stream_get_position", r); p != 7 {
		t.Errorf("position %d after seeking to end-1", p)
	}
	if c := call(t, g, "get_char_stream", r); c != '\n' {
		t.Errorf("get_char %d", c)
	}
	if c := call(t, g, "get_char_stream", r); c != 0xFFFFFFFF {
		t.Errorf("get_char at the end %d, want -1", c)
	}
	_ = win
}

func TestFileStreamsAreSessionSlots(t *testing.T) {
	g, m, _ := setup(t)
	files := g.opts.Files.(*MemFiles)
	f := call(t, g, "fileref_create_by_name", fileusageData|fileusageTextMode, m.cstr(0x100, "my/notes.txt"), 0)
	if call(t, g, "fileref_does_file_exist", f) != 0 {
		t.Error("a new file exists")
	}
	s := call(t, g, "stream_open_file", f, filemodeWrite, 0)
	call(t, g, "put_string_stream", s, m.cstr(0x100, "line one\nline two\n"))
	call(t, g, "stream_close", s, 0)
	if names := files.Names(); len(names) != 1 || names[0] != "mynotes.glkdata" {
		t.Errorf("files %v, want [mynotes.glkdata] (cheapglk's cleaning)", names)
	}
	s = call(t, g, "stream_open_file", f, filemodeRead, 0)
	if n := call(t, g, "get_line_stream", s, 0x300, 100); n != 9 || string(m.b[0x300:0x309]) != "line one\n" {
		t.Errorf("read back %d %q", n, m.b[0x300:0x309])
	}
	call(t, g, "stream_close", s, 0)
	call(t, g, "fileref_delete_file", f)
	if call(t, g, "fileref_does_file_exist", f) != 0 {
		t.Error("a deleted file exists")
	}
	if s := call(t, g, "stream_open_file", f, filemodeRead, 0); s != 0 {
		t.Error("a missing file opened for reading")
	}
}

func TestSavePrompt(t *testing.T) {
	g, _, _ := setup(t)
	_, err := g.Call(sel(t, "fileref_create_by_prompt"), []uint32{fileusageSavedGame, filemodeWrite, 0})
	if !errors.Is(err, ErrWait) || g.Waiting() != InputFileName {
		t.Fatalf("prompt: %v, waiting %v", err, g.Waiting())
	}
	if got := g.TakeOutput(); got != "Enter saved game to store: " {
		t.Errorf("prompt %q", got)
	}
	g.SendLine("../../etc/passwd")
	f := call(t, g, "fileref_create_by_prompt", fileusageSavedGame, filemodeWrite, 0)
	if g.TakeOutput() != "" {
		t.Error("the prompt was printed twice")
	}
	if s := call(t, g, "stream_open_file", f, filemodeWrite, 0); s != 0 {
		t.Error("a host path opened")
	}
	if got := g.TakeOutput(); got != "Glk library error: stream_open_file: unable to open file.\n" {
		t.Errorf("opening a host path printed %q", got)
	}
	if n := g.opts.Files.(*MemFiles).Names(); len(n) != 0 {
		t.Errorf("files %v", n)
	}
	g.Call(sel(t, "fileref_create_by_prompt"), []uint32{fileusageSavedGame, filemodeWrite, 0})
	g.TakeOutput()
	g.SendLine("  game one  ")
	f = call(t, g, "fileref_create_by_prompt", fileusageSavedGame, filemodeWrite, 0)
	if fr := g.st.frefs[f]; fr == nil || fr.name != "game one.glksave" {
		t.Errorf("file ref %+v, want \"game one.glksave\" (trimmed, suffixed)", fr)
	}
}

func TestHostileArguments(t *testing.T) {
	g, _, _ := setup(t)
	for _, c := range []struct {
		name string
		args []uint32
	}{
		{"window_get_rock", []uint32{999}},
		{"put_buffer", []uint32{0x20000, 4}},
		{"put_string", []uint32{0x20000}},
		{"request_line_event", []uint32{1, 0xFFFF0000, 0xFFFF, 0}},
		{"select", []uint32{0}},
		{"gestalt", []uint32{1}},
	} {
		if _, err := g.Call(sel(t, c.name), c.args); err == nil || errors.Is(err, ErrWait) {
			t.Errorf("%s%v accepted: %v", c.name, c.args, err)
		}
	}
	if _, err := g.Call(2, nil); err == nil {
		t.Error("set_interrupt_handler accepted through the dispatch layer")
	}
}

func TestSnapshotRestore(t *testing.T) {
	g, m, win := setup(t)
	call(t, g, "put_string", m.cstr(0x100, "before"))
	snap := g.Snapshot()
	call(t, g, "window_close", win, 0)
	g.TakeOutput()
	if call(t, g, "window_get_root") != 0 {
		t.Fatal("window not closed")
	}
	if err := g.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if call(t, g, "window_get_root") != win {
		t.Error("restore did not bring the window back")
	}
	if got := g.TakeOutput(); got != "before" {
		t.Errorf("restored untaken text %q", got)
	}
	call(t, g, "put_string", m.cstr(0x100, "after"))
	if got := g.TakeOutput(); got != "after" {
		t.Errorf("text after restore %q", got)
	}
	if err := g.Restore(nil); err == nil {
		t.Error("restore of nil accepted")
	}
}

// TestEveryFunction calls each function of the dispatch table with
// zeros: a function whose prototype forbids a null reference refuses it,
// every other one is accepted (or waits, or exits), and none panics.
func TestEveryFunction(t *testing.T) {
	for _, e := range functions {
		f := funcBySel[e.sel]
		if f == nil {
			if e.name != "set_interrupt_handler" {
				t.Errorf("%s: prototype %q not parsed", e.name, e.proto)
			}
			continue
		}
		if f.impl == nil {
			t.Errorf("%s: no implementation", e.name)
			continue
		}
		g, _, _ := setup(t)
		_, err := g.Call(e.sel, make([]uint32, f.nvargs))
		forbidsNull := false
		for _, a := range f.args {
			if a.ref && !a.nullok || a.typ == 'S' || a.typ == 'U' {
				forbidsNull = true // a string at 0 is no unencoded string: glulxe refuses it
			}
		}
		switch {
		case err != nil && strings.Contains(err.Error(), "internal error"):
			t.Errorf("%s panicked: %v", e.name, err)
		case forbidsNull && (err == nil || !strings.Contains(err.Error(), "zero passed invalidly") && !strings.Contains(err.Error(), "must be unencoded")):
			t.Errorf("%s with a null reference: %v, want refused", e.name, err)
		case !forbidsNull && err != nil && !errors.Is(err, ErrExit) && !errors.Is(err, ErrWait):
			t.Errorf("%s with zeros: %v", e.name, err)
		}
		if _, err := g.Call(e.sel, make([]uint32, f.nvargs+1)); err == nil {
			t.Errorf("%s accepted a wrong number of arguments", e.name)
		}
	}
}

func TestGestalts(t *testing.T) {
	g, _, _ := setup(t)
	for _, c := range []struct{ id, val, want uint32 }{
		{gestaltVersion, 0, 0x706}, {gestaltUnicode, 0, 1}, {5, 0, 0} /* timer */, {6, 0, 0}, /* graphics */
		{8, 0, 0} /* sound */, {11, 0, 0} /* hyperlinks */, {gestaltCharOutput, 'a', 2}, {gestaltCharOutput, 0xE9, 0},
		{gestaltLineInput, 'a', 1}, {gestaltResourceStream, 0, 1},
	} {
		if got := call(t, g, "gestalt", c.id, c.val); got != c.want {
			t.Errorf("gestalt(%d, %d) = %d, want %d", c.id, c.val, got, c.want)
		}
	}
}

func TestCaseAndNormalization(t *testing.T) {
	g, m, _ := setup(t)
	put := func(s []uint32) {
		for i, c := range s {
			m.Store32(0x300+uint32(i)*4, c)
		}
	}
	put([]uint32{'s', 0xDF, 'e'})
	if n := call(t, g, "buffer_to_upper_case_uni", 0x300, 10, 3); n != 4 {
		t.Errorf("upper of sße has %d characters, want 4 (SSSE)", n)
	}
	put([]uint32{'e', 0x301})
	if n := call(t, g, "buffer_canon_normalize_uni", 0x300, 10, 2); n != 1 {
		t.Errorf("NFC of e+acute has %d characters", n)
	} else if c, _ := m.Load32(0x300); c != 0xE9 {
		t.Errorf("NFC gave %#x", c)
	}
	if c := call(t, g, "char_to_upper", 0xE9); c != 0xC9 {
		t.Errorf("char_to_upper(é) %#x", c)
	}
}

func FuzzCall(f *testing.F) {
	f.Add(uint32(0x23), []byte{0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1})
	f.Add(uint32(0xC0), []byte{0xFF, 0xFF, 0xFF, 0xFF})
	f.Add(uint32(0x43), []byte{0, 0, 1, 0, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, s uint32, raw []byte) {
		g, _, _ := setup(t)
		var args []uint32
		for i := 0; i+4 <= len(raw) && len(args) < 12; i += 4 {
			args = append(args, uint32(raw[i])<<24|uint32(raw[i+1])<<16|uint32(raw[i+2])<<8|uint32(raw[i+3]))
		}
		// Several calls, so that objects made by one meet the next.
		for k := 0; k < 3; k++ {
			_, err := g.Call(s%0x170, args)
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("0x%X %v: %v", s%0x170, args, err)
			}
			g.SendLine("x")
		}
	})
}

func TestLongLineComesInPieces(t *testing.T) {
	g, m, win := setup(t)
	long := strings.Repeat("x", 300)
	call(t, g, "request_line_event", win, 0x1000, 400, 0)
	g.Call(sel(t, "select"), []uint32{0x400})
	g.SendLine(long)
	call(t, g, "select", 0x400)
	if n, _ := m.Load32(0x408); n != 254 {
		t.Errorf("first piece %d characters, want 254 (cheapglk's fgets into 255 bytes)", n)
	}
	// The rest answers the next request without waiting.
	call(t, g, "request_line_event", win, 0x1000, 400, 0)
	call(t, g, "select", 0x400)
	if n, _ := m.Load32(0x408); n != 46 {
		t.Errorf("second piece %d characters, want 46", n)
	}
	call(t, g, "request_line_event", win, 0x1000, 400, 0)
	if _, err := g.Call(sel(t, "select"), []uint32{0x400}); !errors.Is(err, ErrWait) {
		t.Errorf("third request: %v, want a wait", err)
	}
}

func TestPrintingToAWindowAwaitingALine(t *testing.T) {
	g, m, win := setup(t)
	call(t, g, "request_line_event", win, 0x1000, 10, 0)
	call(t, g, "put_string", m.cstr(0x100, "abc"))
	call(t, g, "put_char", 'd')
	want := "Glk library error: put_buffer: window has pending line request\n" +
		"Glk library error: put_char: window has pending line request\n"
	if got := g.TakeOutput(); got != want {
		t.Errorf("printed %q, want cheapglk's warnings %q", got, want)
	}
}

func TestGameFileStream(t *testing.T) {
	m := newMem(0x1000)
	story := []byte("Glul\x00\x03\x01\x02")
	g := New(m, Options{GameFile: story})
	id := call(t, g, "stream_iterate", 0, 0x100)
	if id == 0 {
		t.Fatal("no stream at start-up")
	}
	if rock, _ := m.Load32(0x100); rock != 1 {
		t.Errorf("game file stream's rock %d, want 1 as glulxe opens it", rock)
	}
	call(t, g, "stream_set_position", id, 0, seekmodeStart)
	if c := call(t, g, "get_char_stream", id); c != 'G' {
		t.Errorf("first byte %q", rune(c))
	}
	if call(t, g, "put_char_stream", id, 'x'); story[0] != 'G' {
		t.Error("the game file was written")
	}
	if New(m, Options{}).st.strOrder != nil {
		t.Error("a stream without GameFile")
	}
}

// TestFastPathsAsGlulxe: glulxe runs put_char_stream without the
// prototypes, so a stream id that names nothing is cheapglk's null
// stream warning, where the prototype path refuses the call.
func TestFastPathsAsGlulxe(t *testing.T) {
	g, _, _ := setup(t)
	call(t, g, "put_char_stream", 9999, 'x')
	if got := g.TakeOutput(); got != "Glk library error: put_char_stream: invalid ref\n" {
		t.Errorf("put_char_stream to no stream printed %q", got)
	}
	if _, err := g.Call(sel(t, "put_string_stream"), []uint32{9999, 0}); err == nil {
		t.Error("put_string_stream to no stream accepted")
	}
	if _, err := g.Call(sel(t, "put_char"), nil); err == nil {
		t.Error("put_char without its argument accepted")
	}
}

func TestMemFilesBounds(t *testing.T) {
	defer func(n int) { memFilesLimit = n }(memFilesLimit)
	memFilesLimit = 4 << 20
	f := NewMemFiles()
	big := make([]byte, 1<<20)
	for i := 0; i < 4; i++ {
		if err := f.WriteFile(fmt.Sprint(i), big); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.WriteFile("one more", []byte("x")); err == nil {
		t.Error("files beyond MaxMemFiles accepted")
	}
	if err := f.WriteFile("0", []byte("x")); err != nil {
		t.Errorf("replacing a file by a smaller one: %v", err)
	}
	if err := f.WriteFile("too big", make([]byte, MaxFileSize+1)); err == nil {
		t.Error("a file over MaxFileSize accepted")
	}
}

func TestDirFilesConfined(t *testing.T) {
	dir := t.TempDir()
	d, err := NewDirFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"../escape", "/etc/passwd", "..", "a/b"} {
		if err := d.WriteFile(name, []byte("x")); err == nil {
			t.Errorf("wrote %q outside the folder's plain names", name)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err == nil {
		if _, err := d.ReadFile("link"); err == nil {
			t.Error("read a file outside the folder through a link")
		}
	}
	if err := d.WriteFile("save.glksave", []byte("data")); err != nil {
		t.Fatal(err)
	}
	if b, err := d.ReadFile("save.glksave"); err != nil || string(b) != "data" {
		t.Errorf("read back %q %v", b, err)
	}
	if _, err := d.ReadFile("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestEveryFunctionWithValidArguments calls each function of the
// dispatch table with real objects, arrays in memory, strings and
// references, in turn on memory and on the stack: each is accepted.
func TestEveryFunctionWithValidArguments(t *testing.T) {
	for _, onStack := range []bool{false, true} {
		for _, e := range functions {
			f := funcBySel[e.sel]
			if f == nil {
				continue
			}
			g, m, win := setup(t)
			str := call(t, g, "stream_open_memory", 0x2000, 64, filemodeReadWrite, 0)
			fref := call(t, g, "fileref_create_temp", fileusageData, 0)
			m.cstr(0x3000, "hello")
			m.b[0x3100] = 0xE2
			m.Store32(0x3104, 'h')
			m.Store32(0x3108, 0)
			var args []uint32
			pops := 0
			for _, a := range f.args {
				switch {
				case a.array:
					args = append(args, 0x4000, 8)
				case a.typ == '[':
					addr := uint32(0x5000)
					if onStack {
						addr = 0xFFFFFFFF
						if a.passin {
							pops += len(a.fields)
						}
					}
					args = append(args, addr)
				case a.ref:
					addr := uint32(0x5100 + 4*len(args))
					if onStack {
						addr = 0xFFFFFFFF
						if a.passin {
							pops++
						}
					}
					args = append(args, addr)
				case a.typ == 'Q':
					args = append(args, map[byte]uint32{'a': win, 'b': str, 'c': fref, 'd': 0}[a.sub])
				case a.typ == 'S':
					args = append(args, 0x3000)
				case a.typ == 'U':
					args = append(args, 0x3100)
				default:
					args = append(args, 1)
				}
			}
			for i := 0; i < pops; i++ {
				m.Push(1)
			}
			if e.name == "select" {
				// select with no input request is refused: it would wait forever
				call(t, g, "request_line_event", win, 0x6000, 10, 0)
			}
			_, err := g.Call(e.sel, args)
			if err != nil && !errors.Is(err, ErrWait) && !errors.Is(err, ErrExit) {
				t.Errorf("%s%v (stack %v): %v", e.name, args, onStack, err)
			}
		}
	}
}

func TestUnsupportedFunctionsWarnAsCheapglk(t *testing.T) {
	g, _, win := setup(t)
	call(t, g, "set_hyperlink", 1)
	call(t, g, "image_draw", win, 0, 0, 0)
	call(t, g, "schannel_play", 0, 1)
	call(t, g, "request_timer_events", 100) // cheapglk says nothing
	want := "Glk library error: set_hyperlink: hyperlinks not supported.\n" +
		"Glk library error: image_draw: graphics not supported.\n" +
		"Glk library error: schannel_play: invalid id.\n"
	if got := g.TakeOutput(); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	if call(t, g, "schannel_create", 0) != 0 {
		t.Error("a sound channel was made")
	}
}

func TestMemFilesClone(t *testing.T) {
	f := NewMemFiles()
	f.WriteFile("a", []byte("one"))
	c := f.Clone()
	c.WriteFile("a", []byte("two"))
	c.WriteFile("b", []byte("new"))
	if b, _ := f.ReadFile("a"); string(b) != "one" {
		t.Errorf("the original's file changed with the clone's: %q", b)
	}
	if names := f.Names(); len(names) != 1 {
		t.Errorf("the original has %v", names)
	}
}

// FuzzCallSequence plays sequences of calls chosen from the dispatch
// table, their arguments drawn towards what makes calls meet: the ids
// of objects that exist, addresses in memory, the stack, small numbers.
func FuzzCallSequence(f *testing.F) {
	f.Add([]byte{35, 0, 1, 2, 3, 4, 47, 5, 128, 6, 192, 7})
	f.Add([]byte{67, 9, 9, 9, 9, 71, 1, 130, 8, 68, 1, 1})
	f.Fuzz(func(t *testing.T, raw []byte) {
		m := newMem(0x2000)
		g := New(sizedMem{m}, Options{GameFile: []byte("Glul")})
		pick := func(b byte) uint32 {
			switch b % 8 {
			case 0:
				return 0
			case 1:
				return 1 + uint32(b/8)%4 // windows
			case 2:
				return 121 + uint32(b/8)%6 // streams
			case 3:
				return 241 + uint32(b/8)%3 // file refs
			case 4:
				return 0xFFFFFFFF
			case 5:
				return 0x100 * uint32(b/8)
			case 6:
				return uint32(b)
			}
			return uint32(b) << 24
		}
		for i := 0; i+1 < len(raw) && i < 400; {
			e := functions[int(raw[i])%len(functions)]
			i++
			fn := funcBySel[e.sel]
			n := 0
			if fn != nil {
				n = fn.nvargs
			}
			args := make([]uint32, n)
			for k := range args {
				if i < len(raw) {
					args[k] = pick(raw[i])
					i++
				}
			}
			if len(m.stack) < 8 {
				m.Push(uint32(i))
			}
			_, err := g.Call(e.sel, args)
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%s%v: %v", e.name, args, err)
			}
			if errors.Is(err, ErrWait) {
				g.SendLine("go north")
			}
			if i%7 == 0 {
				g.Restore(g.Snapshot())
			}
			g.TakeOutput()
			g.StatusLine()
		}
	})
}

type fakeResources map[uint32]struct {
	typ  string
	data []byte
}

func (r fakeResources) DataResource(n uint32) (string, []byte, bool) {
	x, ok := r[n]
	return x.typ, x.data, ok
}

func TestResourceStreams(t *testing.T) {
	m := newMem(0x1000)
	res := fakeResources{
		1: {"TEXT", []byte("h\xc3\xa9llo\nworld\n")},
		2: {"BINA", []byte{0, 0, 0x26, 0x3A, 0, 0, 0, 'x'}},
		3: {"PICT", []byte("no")},
	}
	g := New(sizedMem{m}, Options{Resources: res})
	// A text resource read as Unicode is UTF-8.
	s := call(t, g, "stream_open_resource_uni", 1, 0)
	if c := call(t, g, "get_char_stream_uni", s); c != 'h' {
		t.Errorf("first %q", rune(c))
	}
	if c := call(t, g, "get_char_stream_uni", s); c != 0xE9 {
		t.Errorf("second %#x, want é decoded from UTF-8", c)
	}
	// A binary one is big-endian words.
	b := call(t, g, "stream_open_resource_uni", 2, 0)
	if n := call(t, g, "get_buffer_stream_uni", b, 0x100, 5); n != 2 {
		t.Errorf("read %d words, want 2", n)
	}
	if c, _ := m.Load32(0x100); c != 0x263A {
		t.Errorf("first word %#x", c)
	}
	// As bytes, a text resource is its bytes.
	s = call(t, g, "stream_open_resource", 1, 0)
	if n := call(t, g, "get_line_stream", s, 0x200, 50); n != 7 || string(m.b[0x200:0x207]) != "h\xc3\xa9llo\n" {
		t.Errorf("line %d %q", n, m.b[0x200:0x207])
	}
	if call(t, g, "put_char_stream", s, 'x'); call(t, g, "stream_get_position", s) != 7 {
		t.Error("a resource stream was written")
	}
	if call(t, g, "stream_open_resource", 3, 0) != 0 || call(t, g, "stream_open_resource", 9, 0) != 0 {
		t.Error("a picture or a missing resource opened as a data stream")
	}
}

func TestUnicodeFileStreams(t *testing.T) {
	g, m, _ := setup(t)
	for _, c := range []struct {
		usage uint32
		want  string
	}{
		{fileusageData | fileusageTextMode, "\xe2\x98\xbaA"}, // text: UTF-8
		{fileusageData, "\x00\x00\x26\x3a\x00\x00\x00\x41"},  // binary: big-endian words
	} {
		f := call(t, g, "fileref_create_by_name", c.usage, m.cstr(0x100, "u"), 0)
		s := call(t, g, "stream_open_file_uni", f, filemodeWrite, 0)
		call(t, g, "put_char_stream_uni", s, 0x263A)
		call(t, g, "put_char_stream", s, 'A')
		call(t, g, "stream_close", s, 0)
		got, _ := g.opts.Files.ReadFile("u.glkdata")
		if string(got) != c.want {
			t.Errorf("usage %#x wrote %q, want %q", c.usage, got, c.want)
		}
		s = call(t, g, "stream_open_file_uni", f, filemodeRead, 0)
		if ch := call(t, g, "get_char_stream_uni", s); ch != 0x263A {
			t.Errorf("usage %#x read back %#x", c.usage, ch)
		}
		if p := call(t, g, "stream_get_position", s); c.usage == fileusageData && p != 1 {
			t.Errorf("position %d words, want 1", p)
		}
		call(t, g, "stream_close", s, 0)
	}
}

func TestNullStreamAnswers(t *testing.T) {
	g, _, _ := setup(t)
	for _, name := range []string{"get_char_stream", "get_char_stream_uni"} {
		if r := call(t, g, name, 0); r != 0xFFFFFFFF {
			t.Errorf("%s(null) = %#x, want -1 as cheapglk", name, r)
		}
	}
	if r := call(t, g, "get_buffer_stream", 0, 0x100, 4); r != 0xFFFFFFFF {
		t.Errorf("get_buffer_stream(null) = %#x, want -1", r)
	}
	g.TakeOutput()
	call(t, g, "stream_open_file", 0, filemodeRead, 0)
	if got := g.TakeOutput(); got != "Glk library error: stream_open_file: invalid fileref id.\n" {
		t.Errorf("stream_open_file(null) printed %q", got)
	}
}

func TestArrayPastMemoryWarnsAsGlulxe(t *testing.T) {
	g, _, _ := setup(t)
	// print_to_array with one argument: a length of 0x7FFFFFFB
	call(t, g, "put_buffer", 0xFFF0, 0x7FFFFFFB)
	want := "Glulxe warning: Memory access was much too long -- perhaps a print_to_array call with only one argument (7FFFFFFB)\n" +
		strings.Repeat("\x00", 16)
	if got := g.TakeOutput(); got != want {
		t.Errorf("printed %q, want glulxe's warning then the 16 bytes left", got)
	}
	if _, err := g.Call(sel(t, "put_buffer"), []uint32{0x10000, 0}); err == nil {
		t.Error("an empty array at the end of memory accepted (glulxe: out of range)")
	}
	if got := hexnum(-26); got != "-1A" {
		t.Errorf("hexnum(-26) = %q", got)
	}
}

func TestWindowTree(t *testing.T) {
	g, m, win := setup(t)
	st := call(t, g, "window_open", win, winmethodAbove|winmethodFixed, 1, wintypeTextGrid, 2)
	gr := call(t, g, "window_open", win, winmethodLeft|winmethodProportional, 25, wintypeGraphics, 3)
	root := call(t, g, "window_get_root")
	if call(t, g, "window_get_type", root) != wintypePair {
		t.Fatal("the root is no pair window")
	}
	p := call(t, g, "window_get_parent", gr)
	if call(t, g, "window_get_parent", win) != p || call(t, g, "window_get_sibling", gr) != win {
		t.Error("the graphics window is not the main one's sibling under a new pair")
	}
	if call(t, g, "window_get_parent", p) != root || call(t, g, "window_get_sibling", st) != p {
		t.Error("the status window's sibling is not the inner pair")
	}
	call(t, g, "window_get_arrangement", p, 0x100, 0x104, 0x108)
	if k, _ := m.Load32(0x108); k != gr {
		t.Errorf("the pair's key window %d, want %d", k, gr)
	}
	// Closing the main window: the graphics window takes its pair's place.
	call(t, g, "window_close", win, 0)
	if call(t, g, "window_get_parent", gr) != root || call(t, g, "window_get_sibling", gr) != st {
		t.Error("after closing the main window, the graphics window is not under the root")
	}
	if call(t, g, "window_iterate", 0, 0) == 0 {
		t.Error("no window left")
	}
	call(t, g, "put_string", m.cstr(0x200, "nowhere"))
	if got := g.TakeOutput(); got != "" {
		t.Errorf("text with no main window: %q", got)
	}
	// Closing the root closes them all.
	call(t, g, "window_close", root, 0)
	if call(t, g, "window_get_root") != 0 || call(t, g, "window_iterate", 0, 0) != 0 {
		t.Error("windows left after closing the root")
	}
	if g.StatusLine() != "" {
		t.Error("a status line with no windows")
	}
	// A new main window opens as the first did.
	if call(t, g, "window_open", 0, 0, 0, wintypeTextBuffer, 9) == 0 {
		t.Error("no new main window")
	}
}
