package glk

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Memory is what Glk needs of the VM: main memory (big-endian words) and
// the VM's stack, for reference arguments whose address is 0xFFFFFFFF
// (glkop.c's ReadMemory and WriteMemory: a read pops, a write pushes).
// Every method refuses an address outside memory with an error.
//
// A Memory may also implement [Sizer] (as the Glulx VM does); Call then checks an array against
// the end of memory before it touches anything, and cuts a character
// array that runs past it, as glulxe does.
type Memory interface {
	Load8(addr uint32) (byte, error)
	Store8(addr uint32, v byte) error
	Load32(addr uint32) (uint32, error)
	Store32(addr uint32, v uint32) error
	Push(v uint32) error
	Pop() (uint32, error)
}

// Sizer is what a [Memory] implements to tell the end of memory (glulxe's
// endmem), which Call uses to check arrays before it uses them.
type Sizer interface {
	MemSize() uint32
}

// Resources are the Blorb resources of the story, as the VM loaded them.
type Resources interface {
	// DataResource returns the Data resource numbered num: the type of
	// its chunk ("TEXT", "BINA" or "FORM") and its bytes (for a FORM
	// chunk, the whole chunk with its header). ok is false when there is
	// none.
	DataResource(num uint32) (chunkType string, data []byte, ok bool)
}

// Options configure a [Glk].
type Options struct {
	// Width and Height are the screen's size in characters, what
	// window_get_size answers for the main window and how many newlines
	// window_clear prints (cheapglk's -w and -h). Zero means cheapglk's
	// default, 80 by 24.
	Width, Height int
	// Files holds what the story writes to files (saved games, data
	// files, transcripts). Nil means a fresh [MemFiles]: files live for
	// the session only and never touch the host's file system.
	Files FileStore
	// Resources are the story's Blorb resources, nil for none.
	Resources Resources
	// OneWindow opens only what cheapglk opens: the one text buffer
	// window. Every other window_open answers 0, so that a story runs
	// exactly as under glulxe over cheapglk, down to what it does when
	// it has no status window (some Inform 7 games then print
	// differently, and after many turns stop with a run-time problem);
	// [Glk.StatusLine] is then always "". Without it, grue keeps one text
	// grid as the status line.
	OneWindow bool
	// GameFile, when not nil, is the story file as the host read it: Glk
	// starts with it open as a read-only binary file stream of rock 1,
	// the first stream, as glulxe's Unix start-up opens it
	// (glkunix_stream_open_pathname) before the story runs. Inform 7
	// stories find it when they recover their Glk objects at start-up,
	// and behave differently when it is missing. The bytes are not copied
	// and must not change.
	GameFile []byte
	// Now is the clock the date functions read; nil means the host's.
	Now func() time.Time
}

// Errors Call returns that are no fault.
var (
	// ErrWait is returned by Call when the story waits for input
	// (glk_select, or a file name asked by fileref_create_by_prompt) that
	// the host has not given: nothing the story can see has changed (the
	// file prompt has printed cheapglk's "Enter saved game to store: ",
	// once), and the VM calls Call again with the same selector and
	// arguments once [Glk.SendLine] or [Glk.SendKey] has given it.
	ErrWait = errors.New("glk: waiting for input")
	// ErrExit is returned by Call for glk_exit, and when the host ended
	// the input ([Glk.EndInput]) while the story waited for it.
	ErrExit = errors.New("glk: the story exited")
)

// InputKind is the input the story waits for.
type InputKind int

// The input a story can wait for.
const (
	// InputNone: the story has asked for no input (or is not waiting).
	InputNone InputKind = iota
	// InputLine: a line of text, for glk_select with line input requested.
	InputLine
	// InputChar: one key, for glk_select with character input requested.
	InputChar
	// InputFileName: the name of a file, for fileref_create_by_prompt
	// (a line: [Glk.SendLine] gives it).
	InputFileName
)

// String names the input kind.
func (k InputKind) String() string {
	switch k {
	case InputNone:
		return "none"
	case InputLine:
		return "line"
	case InputChar:
		return "char"
	case InputFileName:
		return "file name"
	}
	return fmt.Sprintf("InputKind(%d)", int(k))
}

// Glk is the Glk library of one Glulx game. It is not safe for
// concurrent use.
type Glk struct {
	mem  Memory
	opts Options
	st   *state
	// calling is the function Call runs, for cheapglk's warnings
	calling string
}

// New returns the Glk library of a game whose memory and stack mem gives.
func New(mem Memory, opts Options) *Glk {
	if opts.Width <= 0 {
		opts.Width = 80
	}
	if opts.Height <= 0 {
		opts.Height = 24
	}
	if opts.Files == nil {
		opts.Files = NewMemFiles()
	}
	g := &Glk{mem: mem, opts: opts, st: newState()}
	if opts.GameFile != nil {
		if s, err := g.newStream(strFile, true, false, 1); err == nil {
			s.binary, s.data, s.dpos, s.fileName = true, opts.GameFile, len(opts.GameFile), ""
		}
	}
	return g
}

// SetMemory replaces the memory Glk reads and writes (for a VM that
// replaces its memory object, as a restore may).
func (g *Glk) SetMemory(mem Memory) { g.mem = mem }

// Call runs the Glk function of dispatch selector sel with the arguments
// the glk opcode popped, and returns its result. It returns [ErrWait]
// when the function waits for input the host has not given, [ErrExit]
// for glk_exit; any other error is a fault that names the function.
func (g *Glk) Call(sel uint32, args []uint32) (ret uint32, err error) {
	defer func() {
		if r := recover(); r != nil {
			ret, err = 0, fmt.Errorf("glk: %s: internal error: %v", funcName(sel), r)
		}
	}()
	return g.call(sel, args)
}

// PutChar prints the byte c (Latin-1) on the current output stream: the
// VM's own output when its iosys is Glk.
func (g *Glk) PutChar(c byte) error {
	return g.putChar(g.st.current, uint32(c), false)
}

// PutUniChar prints the character c on the current output stream.
func (g *Glk) PutUniChar(c uint32) error {
	return g.putChar(g.st.current, c, true)
}

// CurrentStream is the id of the current output stream, 0 for none.
func (g *Glk) CurrentStream() uint32 {
	if s := g.st.current; s != nil {
		return s.id
	}
	return 0
}

// StreamWrite writes p to the stream of id id (the save opcode writes a
// saved game to a Glk stream), as glk_put_buffer_stream does.
func (g *Glk) StreamWrite(id uint32, p []byte) error {
	s, ok := g.st.streams[id]
	if !ok {
		return fmt.Errorf("glk: stream %d does not exist", id)
	}
	for _, b := range p {
		if err := g.putChar(s, uint32(b), false); err != nil {
			return err
		}
	}
	return nil
}

// StreamReader returns a reader of the stream of id id (the restore
// opcode reads a saved game from a Glk stream), reading as
// glk_get_buffer_stream does.
func (g *Glk) StreamReader(id uint32) (io.Reader, error) {
	s, ok := g.st.streams[id]
	if !ok {
		return nil, fmt.Errorf("glk: stream %d does not exist", id)
	}
	if !s.readable {
		return nil, fmt.Errorf("glk: stream %d is not open for reading", id)
	}
	return &streamReader{g: g, s: s}, nil
}

type streamReader struct {
	g *Glk
	s *stream
}

func (r *streamReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if r.g.st.streams[r.s.id] != r.s {
		return 0, fmt.Errorf("glk: stream %d was closed", r.s.id)
	}
	n := 0
	for n < len(p) {
		c, ok, err := r.g.getChar(r.s, false)
		if err != nil {
			return n, err
		}
		if !ok {
			break
		}
		p[n] = byte(c)
		n++
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// PrintError prints s where glulxe prints its errors and warnings
// ("Glulxe fatal error: ...", "Glulxe warning: ..."): its error window,
// which under cheapglk is the root window, the main one (glulxe's
// get_error_win opens a window first when there is none, rock 1), and
// through that window's stream, as glk_put_string does.
func (g *Glk) PrintError(s string) error {
	w := g.st.windows[g.st.mainWin]
	if w == nil && g.st.root == 0 {
		id, err := g.windowOpen(0, 0, 0, wintypeTextBuffer, 1)
		if err != nil {
			return err
		}
		w = g.st.windows[id]
	}
	if w == nil {
		return nil
	}
	str := g.st.streams[w.stream]
	for _, c := range []byte(s) {
		if err := g.putChar(str, uint32(c), false); err != nil {
			return err
		}
	}
	return nil
}

// Waiting is the input the story waits for: what the last Call that
// returned [ErrWait] needs.
func (g *Glk) Waiting() InputKind {
	return g.st.waiting
}

// SendLine gives the story the line it waits for (line input, or a file
// name for fileref_create_by_prompt; for a key, the line's first
// character, or Return for an empty line, as cheapglk reads keys). The
// line is not echoed, as cheapglk does not echo it (the terminal does).
// As cheapglk reads lines with fgets into 255 bytes, a line of more than
// 254 characters, or text after a newline, is read in pieces: the rest
// answers the story's next input request. Each character of s is one
// character of the line (cheapglk run with -ui: it reads UTF-8; without,
// it would read each byte of a non-ASCII character as one Latin-1
// character); one a byte buffer cannot hold is '?'.
func (g *Glk) SendLine(s string) error {
	switch g.st.waiting {
	case InputLine, InputFileName, InputChar: // a line for a key: its first character, as cheapglk reads keys
	default:
		return fmt.Errorf("glk: the story waits for no line (it waits for %v)", g.st.waiting)
	}
	g.st.pending = &pendingInput{line: s}
	return nil
}

// SendKey gives the story the key it waits for: a character, '\n' or
// '\r' for the Return key, or a negative number for a Glk key code
// (keycode_Left is -2, as a 32-bit value 0xFFFFFFFE).
func (g *Glk) SendKey(r rune) error {
	if g.st.waiting != InputChar {
		return fmt.Errorf("glk: the story waits for no key (it waits for %v)", g.st.waiting)
	}
	g.st.pending = &pendingInput{key: r, isKey: true}
	return nil
}

// EndInput tells the story that no more input comes: the call waiting
// for input prints "\n<end of input>\n" and returns [ErrExit], as cheapglk
// does at the end of its standard input.
func (g *Glk) EndInput() {
	g.st.pending = &pendingInput{eof: true}
}

// TakeOutput returns the main window's text printed since the last call,
// and forgets it.
func (g *Glk) TakeOutput() string {
	s := g.st.out.String()
	g.st.out.Reset()
	return s
}

// StatusLine is the text of the status window (the first text grid
// window), its rows joined by newlines with trailing spaces cut, "" if
// there is none.
func (g *Glk) StatusLine() string {
	return g.statusLine()
}
