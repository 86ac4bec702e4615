package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chzyer/readline"
)

// Prompts of the terminal REPL: a new cell, with the number it will
// have (:history, a notebook's marks and errors use the same: "[3]> "),
// and a cell that goes on.
const (
	Prompt         = "[%d]> "
	ContinuePrompt = "...> "
)

// CellMark starts the line that RunPipe prints before each cell's output:
// "--- [3] strings.Fields(s)", the cell's number and its first line. Every
// line of output up to the next such line belongs to the cell.
const CellMark = "--- "

// RunPipe runs the cells read from r, which is not a terminal (a pipe, a
// file, CI): no prompts and no colours; before each cell's output it
// prints a line that starts with CellMark, and it stops at the first cell
// that fails, returning its error (wrapped with the cell's number). It
// returns nil at the end of r or at :quit.
func (s *Session) RunPipe(ctx context.Context, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var buf strings.Builder
	run := func() error {
		src := buf.String()
		buf.Reset()
		return s.markedCell(ctx, src)
	}
	for sc.Scan() {
		if buf.Len() == 0 && strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		buf.WriteString(sc.Text() + "\n")
		if !s.Complete(buf.String()) {
			continue
		}
		if err := run(); err != nil {
			if errors.Is(err, ErrQuit) {
				return nil
			}
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read cells: %w", err)
	}
	// An unfinished cell at the end: evaluate it, to report what is wrong.
	if err := run(); err != nil && !errors.Is(err, ErrQuit) {
		return err
	}
	return nil
}

// markedCell evaluates a cell after its CellMark line. The error names the
// cell; it is ErrQuit itself for :quit.
func (s *Session) markedCell(ctx context.Context, src string) error {
	if err := s.evalMarked(ctx, src); err != nil {
		if errors.Is(err, ErrQuit) {
			return err
		}
		return fmt.Errorf("cell %d: %w", s.n, err)
	}
	return nil
}

// evalMarked evaluates a cell after its CellMark line.
func (s *Session) evalMarked(ctx context.Context, src string) error {
	_, err := s.evalMarkedOutput(ctx, src)
	return err
}

// evalMarkedOutput is evalMarked, which returns the cell's output too.
func (s *Session) evalMarkedOutput(ctx context.Context, src string) (string, error) {
	if strings.TrimSpace(src) == "" || onlyComments(src) {
		return "", nil
	}
	fmt.Fprintf(s.out, "%s[%d] %s\n", CellMark, s.n+1, firstLine(src))
	res, err := s.Eval(ctx, src)
	// Output that does not end its last line (fmt.Print(i) in a loop) is
	// ended here, so that the next cell's mark starts a line of its own.
	if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
		fmt.Fprintln(s.out)
	}
	return res.Output, err
}

// firstLine is a cell's first line, with an ellipsis when more follow.
func firstLine(src string) string {
	first, _, more := strings.Cut(strings.TrimSpace(src), "\n")
	if more {
		first += " …"
	}
	return first
}

// TerminalOptions configure RunTerminal.
type TerminalOptions struct {
	// Stdin, Stdout and Stderr are the terminal; default the process's.
	Stdin          io.ReadCloser
	Stdout, Stderr io.Writer
	// HistoryFile keeps the lines typed, across sessions; "" for none.
	// See HistoryFile.
	HistoryFile string
	// Banner is printed first, when not "".
	Banner string
	// NoColor prints errors without colour.
	NoColor bool
}

// HistoryFile returns the path of the REPL's history file,
// grue/history under the user's state folder ($XDG_STATE_HOME, or
// ~/.local/state), creating the folder.
func HistoryFile() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("history file: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	dir = filepath.Join(dir, "grue")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("history file: %w", err)
	}
	return filepath.Join(dir, "history"), nil
}

// The history file holds a cell a line: a cell of one line as it is, a
// cell of several as historyCell and the cell quoted, so that the arrow
// keys bring a multi-line cell back whole.
const historyCell = "#cell "

// loadHistory gives rl the cells of the history file at path.
func loadHistory(rl *readline.Instance, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if q, ok := strings.CutPrefix(line, historyCell); ok {
			if cell, err := strconv.Unquote(q); err == nil {
				line = cell
			}
		}
		if strings.TrimSpace(line) != "" {
			_ = rl.SaveHistory(line)
		}
	}
}

// saveHistory adds a cell to rl's history and to the file at path.
func saveHistory(rl *readline.Instance, path, cell string) {
	cell = strings.TrimRight(cell, "\n")
	_ = rl.SaveHistory(cell)
	if path == "" {
		return
	}
	line := cell
	if strings.Contains(cell, "\n") {
		line = historyCell + strconv.Quote(cell)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// RunTerminal runs the interactive REPL on a terminal: line editing,
// history, tab completion, the prompts Prompt and ContinuePrompt, errors
// in red. Ctrl-C interrupts a running cell, or drops the cell being typed;
// Ctrl-D on an empty line leaves. It returns nil when the user leaves.
func (s *Session) RunTerminal(ctx context.Context, t TerminalOptions) error {
	if t.Stdin == nil {
		t.Stdin = os.Stdin
	}
	if t.Stdout == nil {
		t.Stdout = os.Stdout
	}
	if t.Stderr == nil {
		t.Stderr = os.Stderr
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 fmt.Sprintf(Prompt, s.n+1),
		HistorySearchFold:      true,
		DisableAutoSaveHistory: true, // a cell, not a line, at a time
		AutoComplete:           completer{s},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdin:                  t.Stdin,
		Stdout:                 t.Stdout,
		Stderr:                 t.Stderr,
	})
	if err != nil {
		return fmt.Errorf("start the terminal: %w", err)
	}
	defer rl.Close()
	loadHistory(rl, t.HistoryFile)
	if w := rl.Config.FuncGetWidth(); w > 20 {
		s.SetWidth(w - 1)
		s.SetFit(true)
	}
	if t.Banner != "" {
		fmt.Fprintln(t.Stdout, t.Banner)
	}
	var buf strings.Builder
	for {
		if buf.Len() == 0 {
			rl.SetPrompt(fmt.Sprintf(Prompt, s.n+1))
		} else {
			rl.SetPrompt(ContinuePrompt)
		}
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			buf.Reset()
			continue
		case errors.Is(err, io.EOF):
			if buf.Len() == 0 {
				return nil
			}
			buf.Reset()
			continue
		case err != nil:
			return fmt.Errorf("read a line: %w", err)
		}
		if buf.Len() == 0 && strings.TrimSpace(line) == "" {
			continue
		}
		buf.WriteString(line + "\n")
		if !s.Complete(buf.String()) {
			continue
		}
		src := buf.String()
		buf.Reset()
		saveHistory(rl, t.HistoryFile, src)
		err = s.evalInterruptible(ctx, src)
		s.out.endLine()
		if errors.Is(err, ErrQuit) {
			return nil
		}
		if err != nil {
			msg := "error: " + err.Error()
			var e *Error
			if errors.As(err, &e) && e.Kind != KindError {
				msg = err.Error()
			}
			if !t.NoColor {
				msg = "\x1b[31m" + msg + "\x1b[0m"
			}
			fmt.Fprintln(t.Stderr, msg)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// evalInterruptible evaluates a cell, cancelling it on Ctrl-C (SIGINT).
func (s *Session) evalInterruptible(ctx context.Context, src string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sig:
			cancel()
		case <-done:
		}
	}()
	_, err := s.Eval(ctx, src)
	return err
}
