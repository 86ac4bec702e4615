package interp_test

// grue: panics in goroutines and the positions of panics (panic_grue.go).
// Not a file of upstream's.

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/bindings/std"
	"github.com/grue-lab/grue/internal/yaegi/interp"
)

func newTestInterp(t *testing.T, opt interp.Options) *interp.Interpreter {
	t.Helper()
	i := interp.New(opt)
	if err := i.Use(interp.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(std.Symbols()); err != nil {
		t.Fatal(err)
	}
	return i
}

// A panic in a goroutine that interpreted code started is given to
// Options.GoPanic, in Go's words, and the process and the interpreter go
// on: the next evaluation runs.
func TestGoroutinePanicRecovered(t *testing.T) {
	got := make(chan interp.Panic, 2)
	var out lockedBuilder
	i := newTestInterp(t, interp.Options{Stdout: &out, Stderr: &out, GoPanic: func(p interp.Panic) { got <- p }})
	src := `package main

import "sync"

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); var q []int; _ = q[3] }()
	go func(m map[string]int) { defer wg.Done(); m["x"] = 1 }(nil)
	wg.Wait()
}`
	if _, err := i.EvalWithContext(context.Background(), src); err != nil {
		t.Fatalf("the program failed: %v\n%s", err, out.String())
	}
	var msgs []string
	for range 2 {
		select {
		case p := <-got:
			msgs = append(msgs, interp.Panic{Value: p.Value}.Error())
		case <-time.After(5 * time.Second):
			t.Fatalf("a goroutine's panic was not reported; got %q", msgs)
		}
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"runtime error: index out of range [3] with length 0", "assignment to entry in nil map"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the goroutines' panics are %q, want one saying %q", msgs, want)
		}
	}
	if v, err := i.Eval(`1 + 1`); err != nil || v.Int() != 2 {
		t.Errorf("after the panics, 1 + 1 = %v, %v", v, err)
	}
}

// Without Options.GoPanic, a goroutine's panic is printed to the
// interpreter's stderr, and the program goes on.
func TestGoroutinePanicPrinted(t *testing.T) {
	var stdout, stderr lockedBuilder
	i := newTestInterp(t, interp.Options{Stdout: &stdout, Stderr: &stderr})
	src := `package main

import "fmt"

func main() {
	done := make(chan bool)
	go func() { defer close(done); panic("in a goroutine") }()
	<-done
	fmt.Println("after")
}`
	if _, err := i.EvalWithContext(context.Background(), src); err != nil {
		t.Fatalf("the program failed: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stderr.String(), "panic: in a goroutine") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the goroutine prints after its deferred close
	}
	if stdout.String() != "after\n" || !strings.Contains(stderr.String(), "panic: in a goroutine") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

// lockedBuilder is a strings.Builder that goroutines can write at once.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The interpreted traceback of a panic names the line and column of the
// expression that panicked and of each call on the way, not the first
// line of each function.
func TestPanicPosition(t *testing.T) {
	var stderr strings.Builder
	i := newTestInterp(t, interp.Options{Stderr: &stderr})
	src := `package main

func get(q []int, i int) int {
	x := i + 1
	_ = x
	return q[i]
}

func main() {
	var q []int
	println(get(q, 3))
}`
	_, err := i.EvalWithContext(context.Background(), src)
	if err == nil || err.Error() != "runtime error: index out of range [3] with length 0" {
		t.Errorf("the panic is %v", err)
	}
	for _, want := range []string{"6:9: panic: main.get(...)", "11:10: panic: main.main(...)"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the traceback\n%s\nhas no line %q", stderr.String(), want)
		}
	}
}
