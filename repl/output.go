package repl

import (
	"bytes"
	"io"
	"sync"
)

// recorder passes what cells print to the session's output and keeps a
// copy of the current cell's, for Cell.Output and :save. Output from a
// goroutine that a cell left running lands in whatever cell is current.
type recorder struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
	on  bool
	// open is set when the last text written did not end its line.
	open bool
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.buf.Write(p)
	}
	if len(p) > 0 {
		r.open = p[len(p)-1] != '\n'
	}
	return r.w.Write(p)
}

// endLine ends the line that the last text written left open (fmt.Print("x")),
// so that a terminal's prompt, redrawn at the start of its line, does not
// erase it, as IPython does.
func (r *recorder) endLine() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open {
		r.w.Write([]byte("\n"))
		r.open = false
	}
}

// begin starts recording a cell's output.
func (r *recorder) begin() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf.Reset()
	r.on = true
}

// end stops recording and returns what the cell printed.
func (r *recorder) end() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.buf.String()
}

// panicFilter stands between the interpreter and the session's error
// output. yaegi writes a line for each frame of a panic as it unwinds
// ("cell3:2:2: panic: main.f(...)"); the filter keeps those, for the
// panic's trace, and passes everything else on.
type panicFilter struct {
	mu     sync.Mutex
	w      io.Writer
	frames []string
}

func (f *panicFilter) Write(p []byte) (int, error) {
	if panicFrame.Match(p) {
		f.mu.Lock()
		f.frames = append(f.frames, string(p))
		f.mu.Unlock()
		return len(p), nil
	}
	return f.w.Write(p)
}

// begin forgets the frames of earlier panics.
func (f *panicFilter) begin() {
	f.mu.Lock()
	f.frames = nil
	f.mu.Unlock()
}

// end returns the frames written since begin.
func (f *panicFilter) end() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.frames
}
