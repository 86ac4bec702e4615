package repl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMagics(t *testing.T) {
	s, _ := newSession(t)
	evalOK(t, s, "x := 41\nfunc inc(n int) int { return n + 1 }")
	for _, tc := range []struct {
		src  string
		want []string // the output contains each
		not  []string // and none of these
		err  string
	}{
		{src: ":help", want: []string{"Type Go: statements", "Packages fmt, strings are imported", ":doc SYMBOL", ":table [--md|--csv] EXPR", ":quit"}, not: []string{":step", "variable g"}},
		{src: ":help time", want: []string{":time CODE", "how long it took"}},
		{src: ":help imports", want: []string{"A cell or script can import"}},
		{src: ":doc strings.Split", want: []string{"func strings.Split(string, string) []string"}},
		{src: ":doc strings", want: []string{"package strings", "go doc strings"}},
		{src: ":doc inc", want: []string{"inc func(int) int"}},
		{src: ":doc strings.Nonesuch", err: "strings has no exported Nonesuch"},
		{src: ":doc x", want: []string{"x int"}},
		{src: ":doc nonesuch", err: "no symbol nonesuch"},
		{src: ":doc :who", want: []string{":who", "variables"}},
		{src: ":who", want: []string{"│ ctx ", "the running cell's context", "│ x ", "│ int ", "41", "│ inc ", "func(int) int", "│ strings ", "import", "\"strings\""}, not: []string{privatePkg}},
		{src: ":type x", want: []string{"int\n"}},
		{src: ":type strings.NewReader(\"\")", want: []string{"*strings.Reader\n"}},
		{src: ":type", err: "want one expression"},
		{src: ":table struct{ Name, Class string }{\"lamp\", \"tool\"}", want: []string{"│ Field ", "│ Name ", "Class"}},
		{src: ":table --md []struct{ A int; B string }{{1, \"x|y\"}}", want: []string{"| A |", "| B |", "x\\|y"}},
		{src: ":table --csv []struct{ A int; B string }{{1, \"a, b\"}}", want: []string{"A,B\n1,\"a, b\"\n"}},
		{src: ":table map[string]int{\"b\": 2, \"a\": 1}", want: []string{"│ Key │ Value │", "│ a   │ 1     │"}},
		{src: ":table []string{\"n\", \"s\"}", want: []string{"│ # │ Value │", "│ 1 │ s     │"}},
		{src: ":table x", err: "a int is not a table"},
		{src: ":table", err: "usage: :table"},
		{src: ":time inc(x)", want: []string{"42\n", "time: "}},
		{src: ":time for i := 0; i < 3; i++ {\n\tx++\n}", want: []string{"time: "}},
		{src: ":play look", err: "unknown magic :play"},
		{src: ":nonesuch", err: "unknown magic :nonesuch"},
	} {
		res, err := s.Eval(context.Background(), tc.src)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Eval(%q): error %v, want %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Eval(%q): %v", tc.src, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(res.Output, w) {
				t.Errorf("Eval(%q) printed\n%s\nwant it to contain %q", tc.src, res.Output, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(res.Output, w) {
				t.Errorf("Eval(%q) printed\n%s\nwith %q in it", tc.src, res.Output, w)
			}
		}
	}
	if out := evalOK(t, s, "x"); out != "44\n" {
		t.Errorf(":time ran its code in the session: x = %q, want 44", out)
	}
	hist := evalOK(t, s, ":history")
	if !strings.HasPrefix(hist, "[1] x := 41\n    func inc(n int) int { return n + 1 }\n[2] :help\n") {
		t.Errorf(":history printed\n%s", hist)
	}
	if _, err := s.Eval(context.Background(), ":quit"); !errors.Is(err, ErrQuit) {
		t.Errorf(":quit gave %v, want ErrQuit", err)
	}
}

func TestAddMagic(t *testing.T) {
	s, _ := newSession(t)
	var got string
	s.AddMagic(Magic{Name: "step", Usage: "[N]", Help: "step the episode", Run: func(ctx context.Context, s *Session, args string) error {
		got = args
		fmt.Fprintln(s.Stdout(), "stepped", args)
		return nil
	}})
	if out := evalOK(t, s, ":step 3"); out != "stepped 3\n" || got != "3" {
		t.Errorf(":step 3 printed %q, got args %q", out, got)
	}
	if help := evalOK(t, s, ":help"); !strings.Contains(help, ":step [N]") {
		t.Errorf(":help does not list the added magic:\n%s", help)
	}
	evalOK(t, s, ":reset")
	if out := evalOK(t, s, ":step"); out != "stepped \n" {
		t.Errorf("after :reset :step printed %q: magics must stay", out)
	}
	if s.Complete(":time f(") || !s.Complete(":step f(") {
		t.Error("Complete: a Code magic goes on while its Go does; others are one line")
	}
}

func TestLoadAndRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lib := write("lib.go", `package main

import "strings"

// shout is loaded into the session.
func shout(s string) string { return strings.ToUpper(s) + "!" }

type counter struct{ N int }

func main() {
	panic("main must not run on :load")
}
`)
	script := write("script.go", `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("script args:", os.Args[1:])
}
`)
	broken := write("broken.go", "package main\n\nfunc helper() {\n\tnope()\n}\n")
	s, _ := newSession(t)
	if out := evalOK(t, s, ":load "+lib); !strings.Contains(out, "func main not run") {
		t.Errorf(":load printed %q", out)
	}
	if out := evalOK(t, s, `shout("hi")`); out != "HI!\n" {
		t.Errorf("shout after :load printed %q", out)
	}
	if out := evalOK(t, s, `counter{N: 2}.N`); out != "2\n" {
		t.Errorf("counter after :load printed %q", out)
	}
	_, err := s.Eval(context.Background(), ":load "+broken)
	var e *Error
	if !errors.As(err, &e) || e.File != broken || e.Line != 4 || !strings.Contains(e.Msg, "undefined: nope") {
		t.Errorf(":load of a broken file: %#v, want undefined: nope at %s:4", err, broken)
	}
	if out := evalOK(t, s, ":run "+script+" a b"); out != "script args: [a b]\n" {
		t.Errorf(":run printed %q", out)
	}
	if _, err := s.Eval(context.Background(), "os.Args"); err != nil {
		t.Errorf("the session's os.Args after :run: %v", err)
	}
	if _, err := s.Eval(context.Background(), ":load "+filepath.Join(dir, "missing.go")); err == nil {
		t.Error(":load of a missing file: no error")
	}
}

func TestSaveNotebook(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "notes.md")
	s, _ := newSession(t)
	s.SetBanner("a test session")
	evalOK(t, s, "x := 20")
	evalOK(t, s, "func half(n int) int {\n\treturn n / 2\n}")
	evalOK(t, s, "half(x)")
	evalOK(t, s, "fmt.Println(\"```not a fence```\")")
	s.Eval(context.Background(), "undefinedThing")
	evalOK(t, s, ":history")
	if out := evalOK(t, s, ":save "+nb); !strings.Contains(out, "saved 4 cells") {
		t.Errorf(":save printed %q", out)
	}
	data, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"# grue session", "a test session", "```go\nhalf(x)\n```\n\n```\n10\n```", "````go\nfmt.Println(\"```not a fence```\")\n````"} {
		if !strings.Contains(text, want) {
			t.Errorf("the notebook lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, ":history") || strings.Contains(text, ":save") || strings.Contains(text, "undefinedThing") {
		t.Errorf("the notebook keeps :history, :save or a failed cell:\n%s", text)
	}
	cells, err := ParseNotebook(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 4 || cells[1] != "func half(n int) int {\n\treturn n / 2\n}" {
		t.Fatalf("ParseNotebook = %q", cells)
	}
	// It runs again as saved.
	var out strings.Builder
	if err := RunFile(context.Background(), nb, nil, Options{Stdout: &out, Stderr: &out}); err != nil {
		t.Errorf("RunFile(notebook) = %v", err)
	}
	if !strings.Contains(out.String(), "--- [3] half(x)\n10\n") {
		t.Errorf("RunFile(notebook) printed\n%s", out.String())
	}
	// A notebook edited to fail stops at its failing cell.
	broken := filepath.Join(dir, "broken.md")
	if err := os.WriteFile(broken, []byte(text+"\n```go\nundefinedThing\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = RunFile(context.Background(), broken, nil, Options{Stdout: &out, Stderr: &out})
	if err == nil || !strings.Contains(err.Error(), "broken.md: cell 5 (undefinedThing): line 1:1: undefined: undefinedThing") {
		t.Errorf("RunFile(broken notebook) = %v", err)
	}
	// :save keeps nothing from before a :reset.
	evalOK(t, s, ":reset")
	evalOK(t, s, "y := 3")
	if out := evalOK(t, s, ":save "+nb); !strings.Contains(out, "saved 1 cells") {
		t.Errorf(":save after :reset printed %q", out)
	}
	if data, _ := os.ReadFile(nb); strings.Contains(string(data), "half") {
		t.Errorf("the notebook keeps cells from before :reset:\n%s", data)
	}
	// :load runs a notebook's cells in the session.
	s2, _ := newSession(t)
	if _, err := s2.Eval(context.Background(), ":load "+broken); err == nil {
		t.Error(":load of the notebook: no error from its failing cell")
	}
	if got := evalOK(t, s2, "half(x)"); got != "10\n" {
		t.Errorf("after :load of the notebook half(x) printed %q", got)
	}
	if _, err := ParseNotebook("```go\nx := 1\n"); err == nil {
		t.Error("ParseNotebook of an unclosed block: no error")
	}
}

// TestLoadEditedTwice loads a file, edits it (a method's body, a field of
// its type, a function's body) and loads it again: the new definitions
// win, values built before keep working, and a line names each
// redefinition.
func TestLoadEditedTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "builder.go")
	write := func(version string, extra string) {
		src := `package main

import "fmt"

type Builder struct {
	Name string` + extra + `
}

func (b Builder) Build() string { return fmt.Sprint(b.Name, " ` + version + `") }

func describe(b Builder) string { return "built: " + b.Build() }
`
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := newSession(t)
	write("V1", "")
	evalOK(t, s, ":load "+path)
	evalOK(t, s, `old := Builder{Name: "a"}`)
	if out := evalOK(t, s, `describe(old)`); out != "built: a V1\n" {
		t.Errorf("after the first :load, describe printed %q", out)
	}
	write("V2", "")
	out := evalOK(t, s, ":load "+path)
	if !strings.Contains(out, "redefined method Builder.Build") || !strings.Contains(out, "redefined func describe") || strings.Contains(out, "redefined type") {
		t.Errorf("the second :load (the type unchanged) printed %q", out)
	}
	if out := evalOK(t, s, `describe(old)`); out != "built: a V2\n" {
		t.Errorf("after the second :load, describe printed %q", out)
	}
	write("V3", "\n\tN int")
	out = evalOK(t, s, ":load "+path)
	if !strings.Contains(out, "redefined type Builder") {
		t.Errorf("the third :load (a field added) printed %q", out)
	}
	if out := evalOK(t, s, `describe(Builder{Name: "b", N: 1})`); out != "built: b V3\n" {
		t.Errorf("after the third :load, describe printed %q", out)
	}
	if out := evalOK(t, s, `old.Build()`); out != "a V2\n" {
		t.Errorf("a value of the old type: Build printed %q", out)
	}
}

// TestTableFitsWidth: on a terminal (SetFit), :table leaves out the
// columns past the width and says so; columns named are kept in order.
func TestTableFitsWidth(t *testing.T) {
	s, _ := newSession(t)
	s.SetWidth(40)
	evalOK(t, s, "type rec struct{ Alpha, Beta, Gamma, Delta, Epsilon, Zeta string }\nrs := []rec{{\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"}}")
	if out := evalOK(t, s, ":table rs"); !strings.Contains(out, "Zeta") {
		t.Errorf("not fitting, :table printed\n%s", out)
	}
	s.SetFit(true)
	out := evalOK(t, s, ":table rs")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if len([]rune(l)) > 40 && !strings.HasPrefix(l, "...") {
			t.Errorf("a line wider than 40: %q", l)
		}
	}
	if strings.Contains(out, "Zeta") || !strings.Contains(out, "more columns, past the width") {
		t.Errorf("fitting, :table printed\n%s", out)
	}
	if out := evalOK(t, s, ":table rs zeta alpha"); !strings.Contains(out, "│ Zeta │ Alpha │") {
		t.Errorf(":table rs zeta alpha printed\n%s", out)
	}
}

// In pipe mode a cell whose output does not end its line still leaves the
// next cell's mark at the start of a line.
func TestPipeMarkStartsALine(t *testing.T) {
	var out strings.Builder
	s, err := New(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunPipe(context.Background(), strings.NewReader("for i := range 3 { fmt.Print(i) }\n1+1\n")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "012\n--- [2] 1+1\n2\n") {
		t.Errorf("pipe output %q", out.String())
	}
}

// TestSaveSaysWhatItLeftOut: :save names the cells it left out because
// they failed, and the notebook it writes runs again (issue 37).
func TestSaveSaysWhatItLeftOut(t *testing.T) {
	s, _ := newSession(t)
	path := filepath.Join(t.TempDir(), "notes.md")
	evalOK(t, s, "x := 2")
	if _, err := s.Eval(context.Background(), "var s string = 5"); err == nil {
		t.Fatal("var s string = 5 ran")
	}
	if _, err := s.Eval(context.Background(), "y := x +\n\"a\""); err == nil {
		t.Fatal(`x + "a" ran`)
	}
	evalOK(t, s, "x * 3")
	out := evalOK(t, s, ":save "+path)
	want := "saved 2 cells to " + path + "\nleft out 2 cells that failed:\n  [2] var s string = 5\n  [3] y := x + …\n"
	if out != want {
		t.Errorf(":save printed %q, want %q", out, want)
	}
	var got strings.Builder
	if err := RunFile(context.Background(), path, nil, Options{Stdout: &got, Stderr: &got, CheckOutputs: true}); err != nil {
		t.Errorf("grue run --check of the saved notebook: %v\n%s", err, got.String())
	}
}
