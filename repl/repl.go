// Package repl is grue's notebook REPL: Go, interpreted by yaegi, with
// grue's packages bound (package bindings), a game to play, magics, and a
// notebook to save. `grue` with no arguments runs it; `grue run FILE.go`
// runs a script with the same bindings.
//
// A Session evaluates cells:
//
//	s, err := repl.New(repl.Options{Game: "zork1"})
//	res, err := s.Eval(ctx, `g.Step("open mailbox")`)
//
// A cell is any mix of Go statements, declarations and expressions; the
// value of a last expression is shown (see print.go for how). Variables,
// functions and types live on from cell to cell. Packages are imported by
// their real import paths; fmt, strings, game, zmachine and stories are
// imported from the start, and any other bound package on its first use.
// The session's game is the variable g.
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
// Errors name the line of the cell they refer to. yaegi v0.16.1's known
// gaps (range over an integer, min and max, generic functions of compiled
// packages) are explained in words saying what to write instead. A panic
// in a cell is reported with its trace, and the session goes on; so does
// a cell interrupted by cancelling Eval's context (Ctrl-C). The session
// variable ctx is the running cell's context: an interruption cancels it
// first, so that a compiled call given it (ep.Run(ctx, 100)) returns and
// the cell ends by itself; a cell still running a moment later is stopped
// by the interpreter, and Eval returns once it has unwound (see run).
// What the interpreter cannot undo: a call into compiled code that
// ignores ctx runs to its end in the background, and a
// goroutine that a cell starts with go and that panics ends the process,
// as in Go.
//
// Every session also has an agent episode, the variable ep (see
// EpisodeVar), which the magics :step, :play and :prompt act on.
package repl
