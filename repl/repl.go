// Package repl is a notebook REPL for Go, interpreted by yaegi: cells of
// Go whose values are shown, magics, and a notebook to save. It knows
// nothing of what it is used for: the packages that cells can import
// (Options.Symbols, yaegi's exports), their documentation (Options.Docs),
// the variables a session starts with and the magics of its own
// (Options.Setup) come from outside, as go.starlark.net's repl takes its
// interpreter's globals. grue's workbench on it, with a game and an
// agent's episode, is package [github.com/grue-lab/grue/repl/workbench].
//
// A Session evaluates cells:
//
//	s, err := repl.New(repl.Options{})
//	res, err := s.Eval(ctx, `strings.Repeat("ab", 3)`)
//
// A cell is any mix of Go statements, declarations and expressions; the
// value of a last expression is shown (see print.go for how; a value may
// choose what stands for it with Summarizer or TableRower). Variables,
// functions and types live on from cell to cell. Packages are imported by
// their real import paths; those of Options.Preload are imported from the
// start, and any other bound package on its first use.
//
// A cell that starts with a colon is a magic: :help lists them; code
// outside the package adds its own with Session.AddMagic.
//
// Input is read a line at a time until Complete says the cell is whole (an
// open brace, parenthesis or bracket, a raw string, a trailing operator or
// comma keep it going). RunTerminal reads from a terminal with line
// editing, history and completion; RunPipe reads anything else and marks
// each cell's output with a CellMark line, stopping at the first error.
//
// Errors name the line of the cell they refer to, and the name meant
// when one is near ("did you mean Agent?"); errors.Is(err,
// ErrInterrupted) and errors.Is(err, ErrPanic) tell an interruption and a
// panic from a cell that failed. A layer between the cell and yaegi
// v0.16.1 rewrites what the interpreter mishandles, so that ordinary Go
// runs: top-level declarations from index and generic expressions
// (define.go), range over integers and functions (rewrite.go,
// rangefunc.go), min, max and clear (builtins.go), the generic functions
// of slices and maps (generics.go), redefinition of functions, methods
// and types (redefine.go), the lines of panics (lines.go); what it
// cannot do is explained in words saying what to write instead. A panic in a cell is
// reported with its trace, and the session goes on; so does a cell
// interrupted by cancelling Eval's context (Ctrl-C). The session variable
// ctx is the running cell's context: an interruption cancels it first, so
// that a compiled call given it returns and the cell ends by itself; a
// cell still running a moment later is stopped by the interpreter, and
// Eval returns once it has unwound (see run). What the interpreter cannot
// undo: a call into compiled code that ignores ctx runs to its end in the
// background, and a goroutine that a cell starts with go and that panics
// ends the process, as in Go.
package repl
