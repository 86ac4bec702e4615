package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestInterruptLeavesNothingBehind: an interrupted loop has stopped for
// good when Eval returns, so the cells after it (which declare variables
// and so grow the interpreter's global frame) do not race with it: run
// with -race, this fails if the loop's goroutine is still unwinding.
func TestInterruptLeavesNothingBehind(t *testing.T) {
	s, _ := newSession(t)
	evalOK(t, s, "n := 0")
	for i := range 10 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := s.Eval(ctx, "for {\n\tn++\n}")
		cancel()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInterrupted || e.Msg != "interrupted" {
			t.Fatalf("the interrupted loop: %v, want a plain interruption", err)
		}
		name := fmt.Sprintf("v%d", i)
		if got := evalOK(t, s, fmt.Sprintf("%s := n\n%s > 0", name, name)); got != "true\n" {
			t.Fatalf("after the interrupt %s > 0 printed %q", name, got)
		}
		if a, b := evalOK(t, s, "n"), evalOK(t, s, "n"); a != b {
			t.Fatalf("the loop goes on after its interrupt: n = %s then %s", a, b)
		}
	}
}

// TestInterruptCompiledCall: a cell stuck in a compiled call that ignores
// its context is reported as interrupted with the call still running, and
// the session goes on.
func TestInterruptCompiledCall(t *testing.T) {
	s, _ := newSession(t)
	evalOK(t, s, `import "time"`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Eval(ctx, "time.Sleep(4 * time.Second)")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInterrupted) || !strings.Contains(e.Msg, "still running in the background") {
		t.Fatalf("the cell in time.Sleep: %v, want interrupted with the call still running", err)
	}
	if d := time.Since(start); d > 3500*time.Millisecond {
		t.Errorf("the interrupted cell returned after %s, not before the sleep ended", d)
	}
	if got := evalOK(t, s, "1 + 1"); got != "2\n" {
		t.Errorf("after the interrupt 1 + 1 printed %q", got)
	}
}
