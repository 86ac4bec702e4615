package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chzyer/readline"

	"github.com/grue-lab/grue/game/zmachine"
)

// fakeMachine is a scripted game: it answers "echo: INPUT\n\n>" to every
// input, "quit" halts it, "boom" fails, and the status line counts moves.
type fakeMachine struct {
	state  zmachine.State
	moves  int
	inputs []string
}

func (f *fakeMachine) Start() (string, error) {
	f.state = zmachine.WaitLine
	return "Welcome.\n\n>", nil
}

func (f *fakeMachine) Step(input string) (string, error) {
	if f.state == zmachine.Halted {
		return "", errors.New("zmachine: Step: the game has ended")
	}
	f.inputs = append(f.inputs, input)
	switch input {
	case "quit":
		f.state = zmachine.Halted
		return "Bye.", nil
	case "boom":
		f.state = zmachine.Halted
		return "Half a reply", &zmachine.Error{PC: 0x1234, Msg: "illegal opcode"}
	case "wait":
		f.moves++
	}
	return "echo: " + input + "\n\n>", nil
}

func (f *fakeMachine) State() zmachine.State { return f.state }

func (f *fakeMachine) UpperChanges() string { return "" }

func (f *fakeMachine) StatusLine() string {
	return "Room" + strings.Repeat(" ", 10) + "Moves: " + string(rune('0'+f.moves))
}

func TestPlayPlain(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		inputs         []string
	}{
		{"no input", "", "Welcome.\n\n>", nil},
		{"two commands", "look\nwait\n", "Welcome.\n\n>\necho: look\n\n>\necho: wait\n\n>", []string{"look", "wait"}},
		{"empty line", "\n", "Welcome.\n\n>\necho: \n\n>", []string{""}},
		{"crlf", "look\r\n", "Welcome.\n\n>\necho: look\n\n>", []string{"look"}},
		{"last line without newline", "look\nwait", "Welcome.\n\n>\necho: look\n\n>\necho: wait\n\n>", []string{"look", "wait"}},
		{"stops when halted", "quit\nlook\n", "Welcome.\n\n>\nBye.", []string{"quit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &fakeMachine{}
			var out strings.Builder
			if err := playPlain(m, strings.NewReader(tc.in), &out); err != nil {
				t.Fatalf("playPlain: %v", err)
			}
			if out.String() != tc.want {
				t.Errorf("transcript\n got %q\nwant %q", out.String(), tc.want)
			}
			if strings.Join(m.inputs, "|") != strings.Join(tc.inputs, "|") {
				t.Errorf("inputs %q, want %q", m.inputs, tc.inputs)
			}
		})
	}
}

func TestPlayPlainError(t *testing.T) {
	var out strings.Builder
	err := playPlain(&fakeMachine{}, strings.NewReader("boom\nlook\n"), &out)
	var zerr *zmachine.Error
	if !errors.As(err, &zerr) {
		t.Fatalf("playPlain error = %v, want a *zmachine.Error", err)
	}
	// The text printed before the error is not lost.
	if want := "Welcome.\n\n>\nHalf a reply"; out.String() != want {
		t.Errorf("transcript %q, want %q", out.String(), want)
	}
}

// countingWriter counts the writes that reach it.
type countingWriter struct {
	strings.Builder
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Builder.Write(p)
}

// A script read ahead from a pipe or file is answered in one write at
// the end, not one a command: only waiting for input flushes.
func TestPlayPlainBatchesReadAheadInput(t *testing.T) {
	var out countingWriter
	if err := playPlain(&fakeMachine{}, strings.NewReader("look\nwait\nlook\n"), &out); err != nil {
		t.Fatalf("playPlain: %v", err)
	}
	if want := "Welcome.\n\n>\necho: look\n\n>\necho: wait\n\n>\necho: look\n\n>"; out.String() != want {
		t.Errorf("transcript %q, want %q", out.String(), want)
	}
	// The welcome before the first read (nothing read yet), the rest at
	// the end.
	if out.writes != 2 {
		t.Errorf("%d writes, want 2", out.writes)
	}
}

// notifyWriter sends what is written to it on a channel.
type notifyWriter chan string

func (w notifyWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// A program that talks to grue over pipes sees each reply, prompt
// included, before grue waits for its next command.
func TestPlayPlainFlushesBeforeWaiting(t *testing.T) {
	inR, inW := io.Pipe()
	out := make(notifyWriter, 16)
	done := make(chan error, 1)
	go func() { done <- playPlain(&fakeMachine{}, inR, out) }()
	expect := func(want string) {
		t.Helper()
		var got string
		for got != want {
			select {
			case s := <-out:
				got += s
			case <-time.After(10 * time.Second):
				t.Fatalf("waiting for %q, got %q", want, got)
			}
		}
	}
	expect("Welcome.\n\n>")
	// A partial line is not a command yet: grue waits for the rest.
	io.WriteString(inW, "lo")
	io.WriteString(inW, "ok\n")
	expect("\necho: look\n\n>")
	io.WriteString(inW, "wait\n")
	expect("\necho: wait\n\n>")
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("playPlain: %v", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errors.New("disk full") }

func TestPlayPlainWriteError(t *testing.T) {
	err := playPlain(&fakeMachine{}, strings.NewReader("look\n"), failingWriter{})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("playPlain to a failing writer = %v, want the write error", err)
	}
}

// fakeReadline returns its lines, then io.EOF, and records the prompts.
type fakeReadline struct {
	lines   []string
	errs    []error
	prompts []string
}

func (f *fakeReadline) SetPrompt(p string) { f.prompts = append(f.prompts, p) }

func (f *fakeReadline) Readline() (string, error) {
	if len(f.lines) == 0 {
		return "", io.EOF
	}
	line, err := f.lines[0], f.errs[0]
	f.lines, f.errs = f.lines[1:], f.errs[1:]
	return line, err
}

func TestPlayTerminal(t *testing.T) {
	const rev, norm = "\x1b[7m", "\x1b[0m"
	status := func(moves string) string {
		return rev + padRight("Room          Moves: "+moves, 30) + norm + "\n"
	}

	m := &fakeMachine{}
	rl := &fakeReadline{lines: []string{"look", "wait"}, errs: []error{nil, nil}}
	var out strings.Builder
	if err := playTerminal(m, rl, &out, 30, false); err != nil {
		t.Fatal(err)
	}
	// The status line shows at the start and again when it changes; the
	// last line of each reply is the prompt, shown by the line editor.
	want := status("0") + "Welcome.\n\n" + "echo: look\n\n" + status("1") + "echo: wait\n\n" + "\n"
	if out.String() != want {
		t.Errorf("screen\n got %q\nwant %q", out.String(), want)
	}
	if strings.Join(rl.prompts, "|") != ">|>|>" {
		t.Errorf("prompts %q, want three >", rl.prompts)
	}

	// The game halting ends the session, and its last text is all shown.
	m = &fakeMachine{}
	rl = &fakeReadline{lines: []string{"quit", "look"}, errs: []error{nil, nil}}
	out.Reset()
	if err := playTerminal(m, rl, &out, 30, false); err != nil {
		t.Fatal(err)
	}
	if want := status("0") + "Welcome.\n\nBye.\n"; out.String() != want {
		t.Errorf("screen\n got %q\nwant %q", out.String(), want)
	}

	// Ctrl-C clears a line being typed; on an empty line it ends the game.
	m = &fakeMachine{}
	rl = &fakeReadline{lines: []string{"half", "", "look"}, errs: []error{readline.ErrInterrupt, readline.ErrInterrupt, nil}}
	if err := playTerminal(m, rl, io.Discard, 30, false); err != nil {
		t.Fatal(err)
	}
	if len(m.inputs) != 0 {
		t.Errorf("inputs after Ctrl-C: %q, want none", m.inputs)
	}

	// Machine errors come back.
	rl = &fakeReadline{lines: []string{"boom"}, errs: []error{nil}}
	var zerr *zmachine.Error
	if err := playTerminal(&fakeMachine{}, rl, io.Discard, 30, false); !errors.As(err, &zerr) {
		t.Errorf("playTerminal error = %v, want a *zmachine.Error", err)
	}
}

func TestSplitPrompt(t *testing.T) {
	for _, tc := range []struct{ in, body, prompt string }{
		{"", "", ""},
		{">", "", ">"},
		{"Hello.\n\n>", "Hello.\n\n", ">"},
		{"Please enter a filename [zork1.qzl]: ", "", "Please enter a filename [zork1.qzl]: "},
		{"Done.\n", "Done.\n", ""},
	} {
		body, prompt := splitPrompt(tc.in)
		if body != tc.body || prompt != tc.prompt {
			t.Errorf("splitPrompt(%q) = %q, %q; want %q, %q", tc.in, body, prompt, tc.body, tc.prompt)
		}
	}
}

func TestPadRight(t *testing.T) {
	if got := padRight("ab", 4); got != "ab  " {
		t.Errorf("padRight(ab, 4) = %q", got)
	}
	if got := padRight("abcdef", 4); got != "abcdef" {
		t.Errorf("padRight(abcdef, 4) = %q", got)
	}
}

// With NO_COLOR the status line is plain text: no escape sequences.
func TestPlayTerminalNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	m := &fakeMachine{}
	rl := &fakeReadline{lines: []string{"look"}, errs: []error{nil}}
	var out strings.Builder
	if err := playTerminal(m, rl, &out, 30, noColor()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b") || !strings.HasPrefix(out.String(), padRight("Room          Moves: 0", 30)+"\n") {
		t.Errorf("screen %q", out.String())
	}
}

// TestPlayPlainShowsUpperWindow plays the upper-window test story: the
// menu it draws in the upper window and its box quote are in the plain
// transcript, as dfrotz shows them, while its reverse-video status line is
// not (dfrotz leaves it out too).
func TestPlayPlainShowsUpperWindow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "game", "zmachine", "testdata", "stories", "upper.z5"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := zmachine.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := zmachine.New(st, zmachine.Options{Width: 80})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := playPlain(m, strings.NewReader("look\nmenu\n1q\nquote\n"), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"1. About this story", "Press 1, 2 or Q.", "All the world's a stage,", "-- As You Like It"} {
		if !strings.Contains(got, want) {
			t.Errorf("plain transcript lacks the upper window's %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "Score: 5") != 1 {
		t.Errorf("the status line should show once (drawn in roman at the start, then in reverse):\n%s", got)
	}
}
