// Package corpus runs files of notebook cells with their expected
// outputs, the tests of what a session does with ordinary Go.
//
// A corpus file holds cells in order, run in one session. A cell starts
// with a line ">>> SOURCE"; lines "... MORE" continue it. The lines after
// it, up to the next cell, are its output, exactly; a line "!! TEXT" says
// instead that the cell fails with an error containing TEXT, and a line
// "~~ TEXT" that its output contains TEXT. Lines starting with "# " are
// comments.
package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Cell is one cell of a corpus and what it must do.
type Cell struct {
	Line     int    // where it starts in its file
	Src      string // the source
	Output   string // the output, exactly, when Contains and Err are empty
	Contains []string
	Err      string
}

// Parse reads a corpus file.
func Parse(path string) ([]Cell, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	var (
		cells []Cell
		cur   *Cell
		out   []string
		n     int
	)
	flush := func() {
		if cur != nil {
			if len(out) > 0 {
				cur.Output = strings.Join(out, "\n") + "\n"
			}
			cells = append(cells, *cur)
		}
		cur, out = nil, nil
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ">>> "):
			flush()
			cur = &Cell{Line: n, Src: strings.TrimPrefix(line, ">>> ")}
		case strings.HasPrefix(line, "# "), cur == nil && line == "":
		case cur == nil:
			return nil, fmt.Errorf("%s:%d: output before any cell", path, n)
		case strings.HasPrefix(line, "... ") && len(out) == 0:
			cur.Src += "\n" + strings.TrimPrefix(line, "... ")
		case strings.HasPrefix(line, "!! "):
			cur.Err = strings.TrimPrefix(line, "!! ")
		case strings.HasPrefix(line, "~~ "):
			cur.Contains = append(cur.Contains, strings.TrimPrefix(line, "~~ "))
		default:
			out = append(out, line)
		}
	}
	flush()
	return cells, sc.Err()
}

// Run runs every corpus file matching glob, each in a fresh session that
// start gives; eval evaluates a cell and returns its output.
func Run(t *testing.T, glob string, start func(t *testing.T) func(src string) (string, error)) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files match %s", glob)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			cells, err := Parse(file)
			if err != nil {
				t.Fatal(err)
			}
			eval := start(t)
			for _, c := range cells {
				out, err := eval(c.Src)
				at := fmt.Sprintf("%s:%d %q", filepath.Base(file), c.Line, c.Src)
				switch {
				case c.Err != "":
					if err == nil || !strings.Contains(err.Error(), c.Err) {
						t.Errorf("%s: error %v, want one containing %q (output %q)", at, err, c.Err, out)
					}
				case err != nil:
					t.Errorf("%s: %v", at, err)
				case c.Contains != nil:
					for _, want := range c.Contains {
						if !strings.Contains(out, want) {
							t.Errorf("%s printed %q, want it to contain %q", at, out, want)
						}
					}
				case out != c.Output:
					t.Errorf("%s printed %q, want %q", at, out, c.Output)
				}
			}
		})
	}
}

// Unmark drops the lines of out that start with mark: the lines that a
// pipe prints before each cell's output.
func Unmark(out, mark string) string {
	var keep []string
	lines := strings.SplitAfter(out, "\n")
	for _, l := range lines {
		if !strings.HasPrefix(l, mark) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
