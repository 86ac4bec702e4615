package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/grue-lab/grue/game/glk"
	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/game/zmachine"
)

// isGlulx reports whether a story file is a Glulx one (.ulx, or a Blorb
// file whose game is Glulx).
func isGlulx(data []byte) bool {
	_, _, err := glulx.StoryBytes(data)
	return err == nil
}

// glulxTerminal is a Glulx machine as grue play's terminal loop wants
// it: halted or waiting, and its status window as the status line.
type glulxTerminal struct{ m *glulx.Machine }

func (g glulxTerminal) Start() (string, error)            { return g.m.Start() }
func (g glulxTerminal) Step(input string) (string, error) { return g.m.Step(input) }
func (g glulxTerminal) StatusLine() string                { return g.m.StatusLine() }
func (g glulxTerminal) UpperChanges() string              { return "" }

func (g glulxTerminal) State() zmachine.State {
	if g.m.Halted() {
		return zmachine.Halted
	}
	if g.m.Waiting() == glk.InputChar {
		return zmachine.WaitKey
	}
	return zmachine.WaitLine
}

var _ machine = glulxTerminal{}

// playGlulx plays a Glulx story on plain text, as glulxe over cheapglk
// does: the main window's text on out, one line of in per input request,
// and at the end of in what cheapglk prints there ("<end of input>").
// The status window is not printed, as cheapglk has none.
func playGlulx(path string, data []byte, seed int64, width, height int, in io.Reader, out io.Writer) error {
	m, err := glulx.NewMachine(data, glulx.MachineOptions{Seed: uint32(seed), Width: width, Height: height})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	text, err := m.Start()
	if _, werr := io.WriteString(out, text); werr != nil {
		return werr
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for err == nil && !m.Halted() {
		if !sc.Scan() {
			if err = sc.Err(); err != nil {
				break
			}
			text, err = m.EndInput()
			if _, werr := io.WriteString(out, text); werr != nil {
				return werr
			}
			break
		}
		text, err = m.Step(strings.TrimRight(sc.Text(), "\r"))
		if _, werr := io.WriteString(out, text); werr != nil {
			return werr
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
