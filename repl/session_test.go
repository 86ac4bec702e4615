package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// newSession starts a session on the default story, writing to a buffer.
func newSession(t testing.TB) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, Stderr: &out, Stdin: strings.NewReader("")})
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
		{src: `strings.ToUpper("meadow")`, want: "MEADOW\n"},
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
		{src: `time.Now().Year() > 2000`, want: "true\n"}, // imported on first use
		{src: `import "strings"`, want: ""},               // imported already: no error
		{src: "import \"math\"\nmath.Sqrt(16)", want: "4\n"},
		{src: `import m2 "math"`, want: ""},
		{src: `m2.Abs(-2)`, want: "2\n"},
		{src: `import "math/rand"`, want: ""},
		{src: `for i := 0; i < 3; i++ { fmt.Print(i) }`, want: "012"},
		{src: "total := 0\nfor _, n := range []int{1, 2, 3} {\n\ttotal += n\n}\ntotal", want: "6\n"},
		{src: `if total > 5 { fmt.Println("big") } else { fmt.Println("small") }`, want: "big\n"},
		{src: "import \"net/url\"\nu, _ := url.Parse(\"https://example.com/a?b=1\")\n*u", contains: []string{"url.URL\n", "Scheme", "\"https\"", "Host ", "example.com", "RawQuery"}},
		{src: `:type strings.Cut`, want: "func(string, string) (string, string, bool)\n"},
		{src: `:type x, y`, err: "line 1: expected 1 expression"},
		{src: `:type pair()`, want: "(string, int)\n"},
		{src: `type point struct{ X, Y int }`, want: ""},
		{src: `point{1, 2}`, want: "point\n  X  1\n  Y  2\n"},
		{src: `[]point{{1, 2}, {3, 4}}`, contains: []string{"│ X │ Y │", "│ 1 │ 2 │", "│ 3 │ 4 │"}},
		{src: `map[string]int{"b": 2, "a": 1}`, want: "map[string]int, 2 entries:\n  \"a\": 1\n  \"b\": 2\n"},

		// Errors name the line of the cell they refer to.
		{src: `undefinedName + 1`, err: "line 1:1: undefined: undefinedName"},
		{src: "a := 1\nb := 2\nc := nope + a + b", err: "line 3:6: undefined: nope"},
		{src: "fmt.Println(\"unterminated)", err: "line 1: string literal not terminated"},
		{src: "var q = nope", err: "line 1:9: undefined: nope"},
		{src: `func main() {}`, err: "func main cannot be declared in a session"},
		{src: `type point struct{ Z int }`, want: "redefined type point: values made before keep the old type and its methods; declare the methods again\n"},
		{src: `import "github.com/nobody/nothing"`, err: `cannot import "github.com/nobody/nothing"`},
		{src: `:nonesuch`, err: "unknown magic :nonesuch"},

		// yaegi's gaps, explained.
		{src: "n := 4\nfor i := range n { fmt.Println(i) }", want: "0\n1\n2\n3\n"},
		{src: "seq := func(yield func(int) bool) { yield(1) }\nfor x := range seq { fmt.Println(x) }", want: "1\n"},
		{src: `min(1, 2)`, want: "1\n"},
		{src: `max(1, 2)`, want: "2\n"},
		{src: "mm := map[int]int{1: 1}\nclear(mm)\nlen(mm)", want: "0\n"},
		{src: "import \"slices\"\nslices.Max([]int{1, 2})", want: "2\n"},
		{src: `slices.Contains([]int{1, 2}, 2)`, want: "true\n"}, // the generic functions yaegi has from source work

		// Panics are reported, with the line; the session goes on.
		{src: "\npanic(\"boom\")", err: "panic: line 2: boom"},
		{src: "var none []int\nnone[3]", err: "panic: line 2: runtime error: index out of range [3] with length 0 (none[3])"},
		{src: "func inner() { panic(\"deep\") }\nfunc outer() {\n\tinner()\n}", want: ""},
		{src: "outer()", err: "panic: line 1: deep\n\tat main.inner (cell 50, line 1)\n\tat main.outer (cell 50, line 3)"},
		{src: `x + y`, want: "5\n"},

		// A nil pointer dereference says so, whatever yaegi's words.
		{src: "var np *int\n*np", err: "panic: line 2: runtime error: invalid memory address or nil pointer dereference"},
		{src: "type node struct{ V int }\nvar nn *node\nnn.V", err: "panic: line 3: runtime error: invalid memory address or nil pointer dereference"},
		{src: "var np2 *int\nfmt.Println(*np2)", err: "nil pointer dereference"},

		// v, ok := x.(T) declares v as a T, whoever declared T; errors.As
		// with a cell's error type says what to write instead.
		{src: "type notFound struct{ What string }\nfunc (e *notFound) Error() string { return e.What + \" not found\" }", want: ""},
		{src: "var anErr error = &notFound{\"key\"}\nnf, isNF := anErr.(*notFound)\nfmt.Println(nf.What, isNF)", want: "key true\n"},
		{src: "_, isInt := anErr.(fmt.Stringer)\nisInt", want: "false\n"},
		{src: "var target *notFound\nerrors.As(fmt.Errorf(\"get: %w\", anErr), &target)", want: "true\n"},
		{src: "target.What", want: "key\n"},
		{src: "errors.Is(fmt.Errorf(\"get: %w\", anErr), anErr)", want: "true\n"},
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

// A value of a struct type a cell declared shows under the type's name
// (yaegi gives such types none); two types declared with the same fields
// are one type to yaegi, so neither name is given; a type declared again
// names its new values, and the values made before show as a struct.
func TestEvalStructTypeNames(t *testing.T) {
	s, _ := newSession(t)
	for _, tc := range []struct{ src, want string }{
		{"type room struct{ Name string; Exits int }", ""},
		{`room{"Hall", 2}`, "room\n  Name   \"Hall\"\n  Exits  2\n"},
		{`&room{"Hall", 2}`, "&room\n  Name   \"Hall\"\n  Exits  2\n"},
		{"type same1 struct{ Q int }\ntype same2 struct{ Q int }\nsame1{1}", "struct\n  Q  1\n"},
		{`old := room{"Cellar", 1}`, ""},
		{"type room struct{ Name string; Dark bool }", "redefined type room: values made before keep the old type and its methods; declare the methods again\n"},
		{`room{"Attic", true}`, "room\n  Name  \"Attic\"\n  Dark  true\n"},
		{`old`, "struct\n  Name   \"Cellar\"\n  Exits  1\n"},
		{"type box[T any] struct{ V T }\nbox[int]{3}", "struct\n  V  3\n"},
	} {
		res, err := s.Eval(context.Background(), tc.src)
		if err != nil || res.Output != tc.want {
			t.Errorf("Eval(%q) printed %q, %v; want %q", tc.src, res.Output, err, tc.want)
		}
	}
}

func TestEvalValues(t *testing.T) {
	s, _ := newSession(t)
	res, err := s.Eval(context.Background(), `strconv.Atoi("12")`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Values) != 2 || res.Values[0].Int() != 12 || res.Values[1].IsValid() {
		t.Fatalf("Values = %v, want 12 and a nil error", res.Values)
	}
	vals, err := s.EvalValues(context.Background(), `len("abc")`)
	if err != nil || len(vals) != 1 || vals[0].Int() != 3 {
		t.Fatalf("EvalValues(len(\"abc\")) = %v, %v; want 3", vals, err)
	}
	if _, err := s.EvalValues(context.Background(), `z := 1`); err == nil {
		t.Error("EvalValues of a statement: no error")
	}
}

func TestErrorType(t *testing.T) {
	s, _ := newSession(t)
	_, err := s.Eval(context.Background(), "a := 1\nundefinedThing()")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindError || e.Line != 2 || e.File != "" {
		t.Fatalf("error %#v, want an *Error of kind error at line 2 of the cell", err)
	}
	if errors.Is(err, ErrPanic) || errors.Is(err, ErrInterrupted) {
		t.Errorf("a compile error is a panic or an interruption: %v", err)
	}
	s.Eval(context.Background(), "func boom() {\n\tpanic(\"x\")\n}")
	_, err = s.Eval(context.Background(), "\n\nboom()")
	if !errors.As(err, &e) || e.Kind != KindPanic || e.Line != 3 || len(e.Trace) != 1 || !strings.Contains(e.Trace[0], "main.boom (cell 2, line 2)") {
		t.Fatalf("error %#v, want a panic at line 3 traced to boom in cell 2, line 2", err)
	}
	if !errors.Is(err, ErrPanic) || errors.Is(err, ErrInterrupted) {
		t.Errorf("errors.Is(panic, ErrPanic) is false, or it is an interruption: %v", err)
	}
	// The kind is in the JSON of a cell's error.
	if b, err := json.Marshal(e); err != nil || !strings.Contains(string(b), `"kind":"panic"`) {
		t.Errorf("json of the panic: %s, %v", b, err)
	}
	// Wrapped, as RunPipe wraps a cell's error, it is still an interruption.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = s.Eval(ctx, "for {\n}")
	if wrapped := fmt.Errorf("cell 3: %w", err); !errors.Is(wrapped, ErrInterrupted) || !errors.Is(wrapped, context.Canceled) {
		t.Errorf("errors.Is(%v, ErrInterrupted) or context.Canceled is false", wrapped)
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
		if !errors.Is(err, ErrInterrupted) {
			t.Fatalf("Eval(%q) = %v, want interrupted", src, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("the interrupt took %s", d)
		}
		// Eval waited for the cell's goroutine to end: nothing is left
		// running that could move n.
		if s.lingering != nil {
			t.Fatalf("Eval(%q) returned with the loop still running", src)
		}
		first := evalOK(t, s, "n")
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
	if out := evalOK(t, s, ":reset"); out != "session reset\n" {
		t.Fatalf(":reset printed %q", out)
	}
	if _, err := s.Eval(context.Background(), "x"); err == nil {
		t.Error("x survived :reset")
	}
	if out := evalOK(t, s, "r.Name + \" again\""); out != "hello again\n" {
		t.Errorf("after :reset r.Name printed %q: Define'd values must stay", out)
	}
}

// TestSetup: Options.Setup extends a session from outside: its magics,
// what it defines at the start and at each :reset (with the banner), and
// what Close releases; an error of its fails New.
func TestSetup(t *testing.T) {
	var out bytes.Buffer
	resets, closes := 0, 0
	setup := func(s *Session) error {
		s.AddMagic(Magic{Name: "count", Help: "the resets so far", Run: func(ctx context.Context, s *Session, args string) error {
			fmt.Fprintln(s.Stdout(), "resets:", resets)
			return nil
		}})
		s.OnReset(func(s *Session) error {
			resets++
			s.SetBanner(fmt.Sprintf("start %d", resets))
			return s.DefineVar("start", resets)
		})
		s.OnClose(func() error { closes++; return errors.New("closed") })
		return nil
	}
	s, err := New(Options{Stdout: &out, Setup: setup, Help: "The session counts its starts."})
	if err != nil {
		t.Fatal(err)
	}
	if got := evalOK(t, s, "start"); got != "1\n" || s.Banner() != "start 1" {
		t.Errorf("start = %q, banner %q; want 1, start 1", got, s.Banner())
	}
	if got := evalOK(t, s, ":reset"); got != "session reset: start 2\n" {
		t.Errorf(":reset printed %q", got)
	}
	if got := evalOK(t, s, "start + 10"); got != "12\n" {
		t.Errorf("after :reset start + 10 printed %q", got)
	}
	if got := evalOK(t, s, ":count"); got != "resets: 2\n" {
		t.Errorf(":count printed %q", got)
	}
	if got := evalOK(t, s, ":help"); !strings.Contains(got, "The session counts its starts.\nPackages fmt, strings are imported") || !strings.Contains(got, ":count") {
		t.Errorf(":help printed\n%s", got)
	}
	if err := s.Close(); err == nil || closes != 1 {
		t.Errorf("Close: %v after %d OnClose calls, want the error of the one", err, closes)
	}
	_, err = New(Options{Stdout: &out, Setup: func(s *Session) error {
		s.OnReset(func(*Session) error { return errors.New("no story") })
		s.OnClose(func() error { closes++; return nil })
		return nil
	}})
	if err == nil || err.Error() != "no story" || closes != 2 {
		t.Errorf("New with a failing OnReset: %v (%d closes), want its error and what it started closed", err, closes)
	}
}

// TestSymbols: a session binds the packages Options.Symbols gives, and
// no others; Docs documents them.
func TestSymbols(t *testing.T) {
	var out bytes.Buffer
	hello := reflect.ValueOf(func() string { return "hello" })
	syms := interp.Exports{
		"fmt/fmt":                 {"Sprint": reflect.ValueOf(fmt.Sprint)},
		"strings/strings":         {"ToUpper": reflect.ValueOf(strings.ToUpper)},
		"example.com/greet/greet": {"Hello": hello},
	}
	docs := fakeDocs{"example.com/greet.": "Package greet greets.", "example.com/greet.Hello": "Hello says hello."}
	s, err := New(Options{Stdout: &out, Symbols: syms, Docs: docs})
	if err != nil {
		t.Fatal(err)
	}
	if got := evalOK(t, s, "greet.Hello()"); got != "hello\n" {
		t.Errorf("greet.Hello() printed %q", got)
	}
	if _, err := s.Eval(context.Background(), `time.Now()`); err == nil || !strings.Contains(err.Error(), "undefined: time") {
		t.Errorf("time, which is not bound: %v", err)
	}
	if got := evalOK(t, s, ":doc greet.Hello"); !strings.Contains(got, "Hello says hello.") {
		t.Errorf(":doc greet.Hello printed %q", got)
	}
	if got := evalOK(t, s, ":help imports"); !strings.Contains(got, "example.com/greet") || !strings.Contains(got, "Package greet greets.") || strings.Contains(got, "strings") {
		t.Errorf(":help imports printed %q", got)
	}
}

// fakeDocs documents "PATH.NAME" with its text.
type fakeDocs map[string]string

func (d fakeDocs) Doc(path, name string) (Doc, bool) {
	text, ok := d[path+"."+name]
	return Doc{Path: path, Name: name, Decl: "func " + name + "()", Text: text}, ok
}

func (d fakeDocs) Symbols(path string) []Doc { return nil }

func TestOptions(t *testing.T) {
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, Width: 30, Args: []string{"prog", "a"}})
	if err != nil {
		t.Fatal(err)
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
	if s.Banner() != "" {
		t.Errorf("a session without Setup has the banner %q", s.Banner())
	}
}

// BenchmarkNew is the notebook's own start-up: the standard library bound,
// fmt and strings imported, a first cell.
func BenchmarkNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := New(Options{Stdout: &bytes.Buffer{}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Eval(context.Background(), `strings.ToUpper("x")`); err != nil {
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

// A cell's JSON gives its duration in milliseconds, as every duration
// grue writes, and reads back.
func TestCellJSONMillis(t *testing.T) {
	c := Cell{N: 3, Input: "1+1", Output: "2\n", Duration: 1500 * time.Microsecond}
	b, err := json.Marshal(c)
	if err != nil || !strings.Contains(string(b), `"duration_ms":1.5`) || strings.Contains(string(b), "duration_ns") {
		t.Fatalf("cell JSON %s, %v", b, err)
	}
	var back Cell
	if err := json.Unmarshal(b, &back); err != nil || back != c {
		t.Errorf("read back %+v, %v; want %+v", back, err, c)
	}
}
