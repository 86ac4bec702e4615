package repl

import (
	"context"
	"reflect"
	"time"
	_ "unsafe" // go:linkname

	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// How an interrupted unit is stopped.
//
// yaegi stops running code only through EvalWithContext: when its context
// ends it stops the interpreter and returns at once, while the goroutine
// that ran the code is still unwinding. Nothing then orders that
// goroutine's last steps (it still reads the interpreter's global frame)
// before the next cell, which writes that frame: a data race, which the
// race detector reports and which could corrupt the frame. So the REPL
// runs each unit in a goroutine of its own, through EvalWithContext with
// a context that never ends, and stops it with the interpreter's own stop
// method, reached by go:linkname; then it waits for the goroutine to
// report, which orders everything that goroutine did before the next
// cell. yaegi is pinned (go.mod); TestInterruptLeavesNothingBehind fails
// if a new version changes what stop does.

// stopInterpreter is (*interp.Interpreter).stop: it moves the
// interpreter's run id on, so that every running frame returns at its
// next check, and closes the channel that channel operations select on.
// It may be called once for each EvalWithContext.
//
//go:linkname stopInterpreter github.com/grue-lab/grue/internal/yaegi/interp.(*Interpreter).stop
func stopInterpreter(*interp.Interpreter)

// interruptGrace is how long an interrupted unit has to end by itself
// before the interpreter stops it; lingerWait is how long the REPL then
// waits for it to unwind, which only a call into compiled code that
// ignores ctx makes it outlast.
const (
	interruptGrace = 250 * time.Millisecond
	lingerWait     = 2 * time.Second
)

// evalResult is what a unit's EvalWithContext returned.
type evalResult struct {
	v   reflect.Value
	err error
}

// run evaluates src in the interpreter, in a goroutine of its own. When
// ctx ends the unit gets interruptGrace to end by itself (the session's
// ctx is cancelled at once, see cellContext, so that a long call given it
// returns), then the interpreter stops it, and run waits up to lingerWait
// for it to unwind. finished is false when it did not: a compiled call
// that ignores ctx goes on in the background, and the next unit races
// with it (run waits for it at the next unit only if it is done by then).
func (s *Session) run(ctx context.Context, src string) (r evalResult, finished bool) {
	if s.lingering != nil {
		select {
		case <-s.lingering: // it ended: what it did comes before this unit
			s.lingering = nil
		default:
		}
	}
	done := make(chan evalResult, 1)
	go func() {
		v, err := s.in.EvalWithContext(context.Background(), src)
		done <- evalResult{v, err}
	}()
	select {
	case r = <-done:
		return r, true
	case <-ctx.Done():
	}
	grace := time.NewTimer(interruptGrace)
	defer grace.Stop()
	select {
	case r = <-done:
		return r, true
	case <-grace.C:
	}
	// EvalWithContext set the channel that stop closes, under the
	// interpreter's lock, in the unit's goroutine; taking that lock here
	// (Symbols reads under it) orders that write before stop reads it.
	s.in.Symbols("\x00")
	stopInterpreter(s.in)
	linger := time.NewTimer(lingerWait)
	defer linger.Stop()
	select {
	case r = <-done:
		return r, true
	case <-linger.C:
		s.lingering = done
		return evalResult{}, false
	}
}
