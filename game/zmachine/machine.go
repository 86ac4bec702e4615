package zmachine

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// State says what a Machine is waiting for.
type State int

const (
	// NotStarted: New has made the machine but Start has not run it.
	NotStarted State = iota
	// WaitLine: the game asked for a line of input (a command).
	WaitLine
	// WaitKey: the game asked for a single key (read_char): each character
	// of the next Step's text is a key, for this request and those that
	// follow it in the same Step, and an empty text is Return.
	WaitKey
	// WaitFile: a save or restore asked for a file name; the next Step's
	// text is the name, and an empty one takes the default shown.
	WaitFile
	// Halted: the game quit (or an error stopped it); Step fails.
	Halted
)

func (s State) String() string {
	switch s {
	case NotStarted:
		return "not started"
	case WaitLine:
		return "waiting for a line"
	case WaitKey:
		return "waiting for a key"
	case WaitFile:
		return "waiting for a file name"
	case Halted:
		return "halted"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Options configure a Machine. The zero value is usable: seed 0, an 80x24
// screen, save files kept in memory, Frotz's undo depth and a budget of
// DefaultBudget instructions per Step.
type Options struct {
	// Seed seeds the random number generator as `dfrotz -s Seed` does.
	Seed int64
	// Width and Height give the screen size in characters that the header
	// advertises; 0 means 80 and 24.
	Width, Height int
	// Files stores save files; nil keeps them in memory with this machine.
	Files Files
	// Name is the story's name, used for the default save file name that
	// the save prompt offers (Name + ".qzl"); "" means "story".
	Name string
	// UndoSlots is how many save_undo states are kept; 0 means 500, as
	// Frotz keeps, and a negative number disables undo.
	UndoSlots int
	// Budget is the most instructions one Start or Step may execute before
	// it stops with an error; 0 means DefaultBudget.
	Budget int
}

// DefaultBudget is the instruction budget of a Step when Options.Budget is 0:
// far beyond what any real game needs for one command, small enough to stop a
// runaway program in well under a second.
const DefaultBudget = 50_000_000

// Machine is one running game, made by [New] from a [Story]: [Machine.Start]
// runs to the first input request and [Machine.Step] plays one line of
// input; [Machine.Snapshot] and [Machine.Restore] branch it. A Machine is
// not safe for concurrent use; machines made from the same Story run
// independently.
type Machine struct {
	story *Story
	opts  Options

	// Memory: dyn is this machine's own dynamic memory; static is the whole
	// story file, shared with every machine of the same Story, read for
	// addresses at or above len(dyn).
	dyn    []byte
	static []byte

	pc     uint32
	stack  []uint16 // evaluation stack, fixed capacity; sp is its length
	sp     int
	frames []frame // call frames; frames[0] is the main routine's
	fp     *frame  // the current frame, &frames[len(frames)-1]

	globals uint32 // address of the global variables

	rng rng

	out   output
	state State

	// Input request in progress, set when the machine stops for input.
	in inputRequest

	undo  History // save_undo states (undo.go)
	files Files
	// lastFile is the default file name offered at the next save/restore.
	lastFile string

	// code is the story's cache of decoded instructions.
	code     *codeCache
	slots    []atomic.Pointer[insn] // code.slots
	codeBase uint32                 // code.base: the first address cached
	scratch  insn                   // the instruction, when in dynamic memory

	// gl is the global variables' part of dyn: 240 words, then what
	// follows them in dyn and in the spare capacity New gives dyn, so that
	// getVar and setVar index it with a mask and no bounds check.
	gl *[512]byte

	// The instruction being executed: its address, operands and count.
	opPC  uint32
	ops   [8]uint16
	nops  int
	count uint64
	left  int // what is left of this run's instruction budget
}

// frame is one routine call: its locals, where to return to and what to do
// with the result.
type frame struct {
	retPC   uint32
	locals  [16]uint16 // 15 locals; the 16th lets getVar index without a bounds check
	nlocals uint8
	argc    uint8
	// store is the variable that receives the result, or -1 to discard it
	// (call_*n).
	store int16
	// base is the evaluation stack's length when the routine was called:
	// the routine's own stack entries start there.
	base int
}

// New makes a Machine for story. The machine does not run until Start.
func New(story *Story, opts Options) (*Machine, error) {
	if story == nil {
		return nil, fmt.Errorf("zmachine: New: nil story")
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	if opts.Height <= 0 {
		opts.Height = 24
	}
	if opts.Width > 255 {
		opts.Width = 255
	}
	if opts.Height > 255 {
		opts.Height = 255
	}
	if opts.UndoSlots == 0 {
		opts.UndoSlots = 500
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	m := &Machine{
		story:  story,
		opts:   opts,
		static: story.mem,
		dyn:    make([]byte, story.dynSize, story.dynSize+512),
		stack:  make([]uint16, stackSize),
		frames: make([]frame, 0, 64),
		files:  opts.Files,

		globals: story.globals,
		code:    story.cache(),
	}
	m.slots, m.codeBase = m.code.slots, m.code.base
	m.gl = (*[512]byte)(m.dyn[story.globals : story.globals+512])
	if m.files == nil {
		m.files = NewMemFiles()
	}
	if opts.Name == "" {
		m.opts.Name = "story"
	}
	m.lastFile = m.opts.Name + ".qzl"
	m.out.init(m)
	m.reset()
	m.rng.init(opts.Seed)
	return m, nil
}

// Story returns the story this machine runs.
func (m *Machine) Story() *Story { return m.story }

// State reports what the machine is waiting for.
func (m *Machine) State() State { return m.state }

// Start runs the game from its first instruction to its first input request
// and returns what it printed.
func (m *Machine) Start() (string, error) {
	if m.state != NotStarted {
		return "", fmt.Errorf("zmachine: Start: machine already started")
	}
	m.out.beginStep()
	err := m.run(nil)
	return m.out.endStep(), err
}

// Step gives the game one line of input (a command, a key or a file name,
// depending on State) and runs it to the next input request. It returns the
// text printed to the lower window meanwhile. A machine that was not started
// is started first, and its opening text comes before the reply.
func (m *Machine) Step(input string) (string, error) {
	var intro string
	if m.state == NotStarted {
		var err error
		if intro, err = m.Start(); err != nil {
			return intro, err
		}
	}
	if m.state == Halted {
		return intro, fmt.Errorf("zmachine: Step: the game has ended")
	}
	m.out.beginStep()
	m.out.write(intro)
	if m.state == WaitKey && m.out.dfrotz {
		// dfrotz prints the row the key was read on again, with the
		// reply, unless the reply clears the screen first.
		m.out.write(string(m.out.keyRow))
	}
	if m.state != WaitKey {
		err := m.run(&input)
		return m.out.endStep(), err
	}
	// A line given to a game waiting for a key is typed key by key, as
	// dfrotz types a line from a pipe: each character answers one key
	// request, and what is left when the game asks for a line instead is
	// dropped. An empty line is Return.
	keys := []rune(strings.TrimRight(input, "\r\n"))
	if len(keys) == 0 {
		keys = []rune{'\r'}
	}
	var err error
	for i, k := range keys {
		if i > 0 && m.state != WaitKey {
			break
		}
		key := string(k)
		if k == '\r' {
			key = ""
		}
		if err = m.run(&key); err != nil {
			break
		}
	}
	return m.out.endStep(), err
}

// Halted reports whether the game has quit.
func (m *Machine) Halted() bool { return m.state == Halted }

// Version is the story's Z-machine version.
func (m *Machine) Version() int { return m.story.version }

// PC is the address of the next instruction.
func (m *Machine) PC() uint32 { return m.pc }

// StatusLine returns the version 3 status line (location, then score and
// moves or the time), or for later versions the top line of the upper
// window, with trailing spaces removed.
func (m *Machine) StatusLine() string {
	if m.story.version <= 3 {
		return m.statusLineV3()
	}
	up := m.out.upperText()
	if i := strings.IndexByte(up, '\n'); i >= 0 {
		up = up[:i]
	}
	return strings.TrimRight(up, " ")
}

// UpperWindow returns the text of the upper window, one line a row, with
// trailing spaces removed. Version 3 games have no upper window other than
// the status line; for them it returns the status line.
func (m *Machine) UpperWindow() string {
	if m.story.version <= 3 {
		return m.statusLineV3()
	}
	return m.out.upperText()
}

// Transcript returns everything the game sent to output stream 2 (the
// transcript the game turns on with SCRIPT) so far.
func (m *Machine) Transcript() string { return string(m.out.transcript) }

// CommandRecord returns the input the game recorded while it had output
// stream 4 on: each command line and key, one a line.
func (m *Machine) CommandRecord() string { return string(m.out.record) }
