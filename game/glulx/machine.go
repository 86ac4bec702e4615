package glulx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/game/glk"
)

// MachineOptions configure a Machine.
type MachineOptions struct {
	// Seed is the random seed, as glulxe's --rngseed.
	Seed uint32
	// Width and Height are the screen size for Glk (cheapglk's -w, -h); 0
	// means 80 and 24.
	Width, Height int
	// Files holds the story's files; nil keeps them in memory.
	Files glk.FileStore
	// Budget is the instruction budget of one Start or Step; 0 means
	// DefaultBudget.
	Budget int
	// OneWindow opens only the main window, as cheapglk does (no status
	// window): a game then behaves as under glulxe over cheapglk, which
	// the differential tests compare with.
	OneWindow bool
}

// Machine is a Glulx story with its Glk library, played a line at a time
// like a zmachine.Machine: Start runs to the first input request, Step
// gives one line (or key) and runs to the next.
type Machine struct {
	vm         *VM
	glk        *glk.Glk
	transcript strings.Builder
	started    bool
}

// NewMachine makes a Machine for a story file: a .ulx image or a Blorb
// file holding one.
func NewMachine(story []byte, opts MachineOptions) (*Machine, error) {
	image, res, err := StoryBytes(story)
	if err != nil {
		return nil, err
	}
	vm, err := New(image, nil, Options{Seed: opts.Seed, Wait: glk.ErrWait, Exit: glk.ErrExit, Budget: opts.Budget})
	if err != nil {
		return nil, err
	}
	gopts := glk.Options{Width: opts.Width, Height: opts.Height, Files: opts.Files, OneWindow: opts.OneWindow}
	if res != nil {
		gopts.Resources = res
	}
	g := glk.New(vm, gopts)
	vm.glk = g
	return &Machine{vm: vm, glk: g}, nil
}

// VM is the machine's Glulx VM.
func (m *Machine) VM() *VM { return m.vm }

// Glk is the machine's Glk library.
func (m *Machine) Glk() *glk.Glk { return m.glk }

// Halted reports whether the story has ended.
func (m *Machine) Halted() bool { return m.vm.State() == Halted }

// Waiting is the input the story waits for.
func (m *Machine) Waiting() glk.InputKind {
	if m.vm.State() != Waiting {
		return glk.InputNone
	}
	return m.glk.Waiting()
}

func (m *Machine) run() (string, error) {
	err := m.vm.Run()
	var fe *Error
	if errors.As(err, &fe) {
		// glulxe prints its fatal errors in the story's window, then exits.
		_ = m.glk.PrintError(fe.Glulxe())
		m.vm.state = Halted
	}
	out := m.glk.TakeOutput()
	m.transcript.WriteString(out)
	return out, err
}

// Start runs the story to its first input request and returns its text.
func (m *Machine) Start() (string, error) {
	if m.started {
		return "", errors.New("glulx: Start: machine already started")
	}
	m.started = true
	return m.run()
}

// Step gives the story a line of input (a key, its first character or
// Return, when it waits for a key) and runs to the next input request.
func (m *Machine) Step(input string) (string, error) {
	var intro string
	if !m.started {
		var err error
		if intro, err = m.Start(); err != nil {
			return intro, err
		}
	}
	if m.Halted() {
		return intro, errors.New("glulx: Step: the story has ended")
	}
	input = strings.TrimRight(input, "\r\n")
	switch m.glk.Waiting() {
	case glk.InputChar:
		r := '\n'
		if rs := []rune(input); len(rs) > 0 {
			r = rs[0]
		}
		if err := m.glk.SendKey(r); err != nil {
			return intro, err
		}
	case glk.InputLine, glk.InputFileName:
		if err := m.glk.SendLine(input); err != nil {
			return intro, err
		}
	default:
		return intro, fmt.Errorf("glulx: Step: the story waits for no input")
	}
	out, err := m.run()
	return intro + out, err
}

// EndInput ends the input, as cheapglk's end of standard input: the
// story's waiting call ends it, and what it prints is returned.
func (m *Machine) EndInput() (string, error) {
	if m.Halted() || !m.started {
		return "", nil
	}
	m.glk.EndInput()
	return m.run()
}

// StatusLine is the status window's text.
func (m *Machine) StatusLine() string { return m.glk.StatusLine() }

// Transcript is all the main window's text so far.
func (m *Machine) Transcript() string { return m.transcript.String() }
