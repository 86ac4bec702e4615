package repl

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// newSession starts a session on the default story, writing to a buffer.
func newSession(t testing.TB) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, Stderr: &out, Stdin: strings.NewReader(""), Policy: "explorer"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

// evalOK evaluates a cell that must succeed and returns its output.
func evalOK(t *testing.T, s *Session, src string) string {
	t.Helper()
	res, err := s.Eval(context.Background(), src)
	if err != nil {
		t.Fatalf("Eval(%q): %v", src, err)
	}
	return res.Output
}

// TestEval runs cells in one session, in order, each with the output it
// must show (in full, or containing want with contains set) or the error.
func TestEval(t *testing.T) {
	s, _ := newSession(t)
	for _, tc := range []struct {
		src      string
		want     string // the output, exactly
		contains []string
		err      string // the error must contain this
	}{
		{src: `g.Info().Location`, want: "Meadow\n"},
		{src: "x := 2\ny := 3\nx * y", want: "6\n"},
		{src: "func sq(n int) int { return n * n }\nsq(x + 2)", want: "16\n"},
		{src: `"hello"`, want: "hello\n"},
		{src: `""`, want: "\"\"\n"},
		{src: `nil`, want: "nil\n"},
		{src: `fmt.Println("hi")`, want: "hi\n"},
		{src: `fmt.Printf("%d-%d\n", x, y)`, want: "2-3\n"},
		{src: `errors.New("just a value")`, want: "error: just a value\n"},
		{src: `func two() (int, error) { return 7, nil }`, want: ""},
		{src: `two()`, want: "7\n"},
		{src: `func pair() (string, int) { return "a", 1 }`, want: ""},
		{src: `pair()`, want: "a\n1\n"},
		{src: `func bad() (int, error) { return 0, errors.New("no luck") }`, want: ""},
		{src: "\nbad()", want: "0\n", err: "line 2: no luck"},
		{src: `time.Now().Year() > 2000`, want: "true\n"},         // imported on first use
		{src: `import "github.com/grue-lab/grue/game"`, want: ""}, // imported already: no error
		{src: "import \"math\"\nmath.Sqrt(16)", want: "4\n"},
		{src: `import m2 "math"`, want: ""},
		{src: `m2.Abs(-2)`, want: "2\n"},
		{src: `import "math/rand"`, want: ""},
		{src: `for i := 0; i < 3; i++ { fmt.Print(i) }`, want: "012"},
		{src: "total := 0\nfor _, n := range []int{1, 2, 3} {\n\ttotal += n\n}\ntotal", want: "6\n"},
		{src: `if total > 5 { fmt.Println("big") } else { fmt.Println("small") }`, want: "big\n"},
		{src: `g.Step("look")`, contains: []string{"game.StepResult", "Observation", "Meadow", "Info ", "Moves: 1"}},
		{src: `:type g.Step`, want: "func(string) (game.StepResult, error)\n"},
		{src: `:type x, y`, err: "line 1: expected 1 expression"},
		{src: `:type pair()`, want: "(string, int)\n"},
		{src: `type point struct{ X, Y int }`, want: ""},
		{src: `point{1, 2}`, want: "struct\n  X  1\n  Y  2\n"},
		{src: `[]point{{1, 2}, {3, 4}}`, contains: []string{"│ X │ Y │", "│ 1 │ 2 │", "│ 3 │ 4 │"}},
		{src: `map[string]int{"b": 2, "a": 1}`, want: "map[string]int, 2 entries:\n  \"a\": 1\n  \"b\": 2\n"},

		// Errors name the line of the cell they refer to.
		{src: `undefinedName + 1`, err: "line 1: undefined: undefinedName"},
		{src: "a := 1\nb := 2\nc := nope + a + b", err: "line 3: undefined: nope"},
		{src: "fmt.Println(\"unterminated)", err: "line 1: string literal not terminated"},
		{src: "var q = nope", err: "line 1: undefined: nope"},
		{src: `func main() {}`, err: "func main cannot be declared in a session"},
		{src: `type point struct{ Z int }`, err: "type point is declared already"},
		{src: `import "github.com/nobody/nothing"`, err: `cannot import "github.com/nobody/nothing"`},
		{src: `:nonesuch`, err: "unknown magic :nonesuch"},

		// yaegi's gaps, explained.
		{src: `for i := range 3 { fmt.Println(i) }`, err: "cannot range over an integer"},
		{src: "n := 4\nfor i := range n { fmt.Println(i) }", err: "write for i := 0; i < n; i++"},
		{src: `min(1, 2)`, err: "no built-in min"},
		{src: `max(1, 2)`, err: "no built-in max"},
		{src: "mm := map[int]int{1: 1}\nclear(mm)", err: "line 2: yaegi v0.16.1 has no built-in clear"},
		{src: "import \"slices\"\nslices.Max([]int{1, 2})", err: "line 2: slices.Max cannot be called here"},
		{src: `slices.Contains([]int{1, 2}, 2)`, want: "true\n"}, // the generic functions yaegi has from source work

		// Panics are reported, with the line; the session goes on.
		{src: "\npanic(\"boom\")", err: "panic: line 2: boom"},
		{src: "var none []int\nnone[3]", err: "panic: line 2:"},
		{src: "func inner() { panic(\"deep\") }\nfunc outer() {\n\tinner()\n}", want: ""},
		{src: "outer()", err: "panic: line 1: deep\n\tat main.inner (cell 50, line 1)\n\tat main.outer (cell 50, line 2)"},
		{src: `x + y`, want: "5\n"},
	} {
		res, err := s.Eval(context.Background(), tc.src)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Eval(%q): error %v, want one with %q", tc.src, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("Eval(%q): %v", tc.src, err)
		case tc.contains == nil && tc.err == "" && res.Output != tc.want:
			t.Errorf("Eval(%q) printed %q, want %q", tc.src, res.Output, tc.want)
		}
		for _, c := range tc.contains {
			if !strings.Contains(res.Output, c) {
				t.Errorf("Eval(%q) printed %q, want it to contain %q", tc.src, res.Output, c)
			}
		}
	}
}

func TestEvalValues(t *testing.T) {
	s, _ := newSession(t)
	res, err := s.Eval(context.Background(), `g.Step("north")`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Values) != 2 || res.Values[0].Type().String() != "game.StepResult" || res.Values[1].IsValid() {
		t.Fatalf("Values = %v, want a game.StepResult and a nil error", res.Values)
	}
	vals, err := s.EvalValues(context.Background(), `g.Info().Moves`)
	if err != nil || len(vals) != 1 || vals[0].Int() != 1 {
		t.Fatalf("EvalValues(g.Info().Moves) = %v, %v; want 1", vals, err)
	}
	if _, err := s.EvalValues(context.Background(), `z := 1`); err == nil {
		t.Error("EvalValues of a statement: no error")
	}
}

func TestErrorType(t *testing.T) {
	s, _ := newSession(t)
	_, err := s.Eval(context.Background(), "a := 1\nundefinedThing()")
	var e *Error
	if !errors.As(err, &e) || e.Kind != "error" || e.Line != 2 || e.File != "" {
		t.Fatalf("error %#v, want an *Error of kind error at line 2 of the cell", err)
	}
	s.Eval(context.Background(), "func boom() {\n\tpanic(\"x\")\n}")
	_, err = s.Eval(context.Background(), "\n\nboom()")
	if !errors.As(err, &e) || e.Kind != "panic" || e.Line != 3 || len(e.Trace) != 1 || !strings.Contains(e.Trace[0], "main.boom (cell 2, line 1)") {
		t.Fatalf("error %#v, want a panic at line 3 traced to boom in cell 2, line 1", err)
	}
}

// TestInterrupt cancels a cell in a loop that never ends: Eval returns,
// the loop stops, and the session goes on.
func TestInterrupt(t *testing.T) {
	s, _ := newSession(t)
	for _, src := range []string{
		"n := 0\nfor {\n\tn++\n}",                         // a loop among the cell's own statements
		"func spin() {\n\tfor {\n\t\tn++\n\t}\n}\nspin()", // a loop in a function
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		_, err := s.Eval(ctx, src)
		cancel()
		var e *Error
		if !errors.As(err, &e) || e.Kind != "interrupted" {
			t.Fatalf("Eval(%q) = %v, want interrupted", src, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("the interrupt took %s", d)
		}
		time.Sleep(20 * time.Millisecond) // the loop's goroutine sees the interrupt
		first := evalOK(t, s, "n")
		time.Sleep(50 * time.Millisecond)
		if again := evalOK(t, s, "n"); again != first || first == "0\n" {
			t.Fatalf("after the interrupt n = %q then %q: want it moved, then stopped", first, again)
		}
	}
	if out := evalOK(t, s, "1 + 1"); out != "2\n" {
		t.Fatalf("after the interrupts 1 + 1 printed %q", out)
	}
}

func TestDefineAndReset(t *testing.T) {
	s, _ := newSession(t)
	type rec struct{ Name string }
	if err := s.Define("r", &rec{"hello"}); err != nil {
		t.Fatal(err)
	}
	if out := evalOK(t, s, "r.Name"); out != "hello\n" {
		t.Fatalf("r.Name printed %q", out)
	}
	evalOK(t, s, "x := 1")
	evalOK(t, s, `g.Step("north")`)
	evalOK(t, s, ":step 2")
	old := s.Episode()
	if out := evalOK(t, s, ":reset"); !strings.Contains(out, "session reset: game: lantern (seed 1), policy: explorer") {
		t.Fatalf(":reset printed %q", out)
	}
	if out := evalOK(t, s, "len(ep.Agent.History)"); out != "0\n" || s.Episode() == old {
		t.Errorf("after :reset ep has %q steps: want a new episode", out)
	}
	if _, err := old.Step(context.Background()); err == nil {
		t.Error("the episode before :reset still plays: :reset must close it")
	}
	if _, err := s.Eval(context.Background(), "x"); err == nil {
		t.Error("x survived :reset")
	}
	if out := evalOK(t, s, "r.Name + \" again\""); out != "hello again\n" {
		t.Errorf("after :reset r.Name printed %q: Define'd values must stay", out)
	}
	if out := evalOK(t, s, "g.Info().Moves"); out != "0\n" {
		t.Errorf("after :reset the game has %q moves, want a fresh game", out)
	}
	if s.Game() == nil || s.Game().Moves() != 0 {
		t.Error("Game() is not the fresh game")
	}
}

func TestOptions(t *testing.T) {
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, NoGame: true, Width: 30, Args: []string{"prog", "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval(context.Background(), "g"); err == nil {
		t.Error("NoGame: g is defined")
	}
	if got := evalOK(t, s, "os.Args"); got != "[\"prog\" \"a\"]\n" {
		t.Errorf("os.Args printed %q", got)
	}
	got := evalOK(t, s, `strings.Repeat("word ", 10)`)
	for _, l := range strings.Split(strings.TrimRight(got, "\n"), "\n") {
		if len(l) > 30 {
			t.Errorf("line %q is longer than the width 30", l)
		}
	}
	if _, err := New(Options{Game: "/nonexistent/story.z5"}); err == nil || !strings.Contains(err.Error(), "open game") {
		t.Errorf("New with a missing story: %v", err)
	}
}

func BenchmarkNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := New(Options{Stdout: &bytes.Buffer{}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Eval(context.Background(), "g.Info()"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEval(b *testing.B) {
	s, _ := newSession(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.Eval(context.Background(), "g.Info().Score + 1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlay is a step of the session's game through :play, the way a
// user steps it by hand.
func BenchmarkPlay(b *testing.B) {
	s, _ := newSession(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.Eval(context.Background(), ":play look"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestImportInSignature: a package named only in a declaration's
// signature is imported too, as in any other cell (yaegi's compiler
// panics on it rather than calling it undefined).
func TestImportInSignature(t *testing.T) {
	s, _ := newSession(t)
	evalOK(t, s, "type T struct{}\nfunc (T) half(d time.Duration) time.Duration { return d / 2 }")
	if got := evalOK(t, s, "T{}.half(3 * time.Second)"); got != "1.5s\n" {
		t.Errorf("T{}.half(3s) printed %q", got)
	}
	evalOK(t, s, "func elapsed(since time.Time) bool { return !since.IsZero() }")
	if _, err := s.Eval(context.Background(), "func bad(x nonesuch.Type) {}"); err == nil || !strings.Contains(err.Error(), "nonesuch") {
		t.Errorf("an unknown package in a signature: %v", err)
	}
}
