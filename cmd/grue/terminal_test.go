package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// terminal is grue running in a pseudo-terminal, as a person at a
// keyboard sees it: what it writes collects in the screen, and typ types.
type terminal struct {
	*screen
	tty *os.File
	// exited receives cmd.Wait's error; copied closes once all output is
	// on the screen.
	exited chan error
	copied chan struct{}
}

// startTerminal starts cmd in a pseudo-terminal of rows x cols. The
// terminal is closed and the process killed when the test ends.
func startTerminal(t *testing.T, cmd *exec.Cmd, rows, cols uint16) *terminal {
	t.Helper()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{screen: &screen{}, tty: tty, exited: make(chan error, 1), copied: make(chan struct{})}
	go func() {
		io.Copy(term.screen, tty)
		close(term.copied)
	}()
	go func() { term.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
		tty.Close()
	})
	return term
}

// typ types s (a "\r" is Return, "\x03" Ctrl-C, "\x04" Ctrl-D).
func (term *terminal) typ(t *testing.T, s string) {
	t.Helper()
	if _, err := term.tty.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// screen collects what grue writes to its terminal.
type screen struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	mark int // start of what expect looks at
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// ansi matches the terminal escapes readline writes (cursor moves, clears).
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// text is the screen since the mark, without escapes and carriage returns.
func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := ansi.ReplaceAllString(s.buf.String()[s.mark:], "")
	return strings.ReplaceAll(t, "\r", "")
}

// expect waits until the screen since the mark shows want, then moves the
// mark past it.
func (s *screen) expect(t *testing.T, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	shown := func() bool {
		s.mu.Lock()
		raw := s.buf.String()
		s.mu.Unlock()
		clean := strings.ReplaceAll(ansi.ReplaceAllString(raw[s.mark:], ""), "\r", "")
		if !strings.Contains(clean, want) {
			return false
		}
		// Move the mark past the raw text that holds want.
		for i := s.mark; i <= len(raw); i++ {
			if strings.Contains(strings.ReplaceAll(ansi.ReplaceAllString(raw[s.mark:i], ""), "\r", ""), want) {
				s.mu.Lock()
				s.mark = i
				s.mu.Unlock()
				break
			}
		}
		return true
	}
	if waitUntil(ctx, shown) {
		return
	}
	t.Fatalf("the screen never showed %q; it shows:\n%s", want, s.text())
}

// TestTerminal drives grue's REPL in a pseudo-terminal as a person would:
// a function typed over several lines, tab completion, a step of the
// game, Ctrl-C in a loop that never ends, Ctrl-D to leave; and the
// history is saved.
