package repl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(path string, args ...string) (string, error) {
		var out strings.Builder
		err := RunFile(context.Background(), path, args, Options{Stdout: &out, Stderr: &out})
		return out.String(), err
	}

	ok := write("ok.go", `package main

import (
	"fmt"
	"os"
	"strings"
)

type quiet struct{}

func (quiet) ReadFile(name string) ([]byte, error) { return nil, os.ErrNotExist }

func main() {
	_, err := quiet{}.ReadFile("x")
	fmt.Println(os.Args[1:], strings.ToUpper("shed"), err == os.ErrNotExist)
}
`)
	if out, err := run(ok, "-v", "x"); err != nil || out != "[-v x] SHED true\n" {
		t.Errorf("RunFile(ok.go) = %q, %v", out, err)
	}

	exit := write("exit.go", "package main\n\nimport \"os\"\n\nfunc main() {\n\tdefer println(\"deferred\")\n\tos.Exit(4)\n}\n")
	if _, err := run(exit); err == nil {
		t.Error("os.Exit(4): no error")
	} else if code, ok := ExitStatus(err); !ok || code != 4 {
		t.Errorf("os.Exit(4): ExitStatus(%v) = %d, %v", err, code, ok)
	}
	exit0 := write("exit0.go", "package main\n\nimport \"os\"\n\nfunc main() {\n\tos.Exit(0)\n}\n")
	if _, err := run(exit0); err != nil {
		t.Errorf("os.Exit(0): %v", err)
	}

	broken := write("broken.go", "package main\n\nfunc main() {\n\tx := nope\n\t_ = x\n}\n")
	_, err := run(broken)
	var e *Error
	if !errors.As(err, &e) || e.File != broken || e.Line != 4 || e.Msg != "undefined: nope" {
		t.Errorf("RunFile(broken.go) = %#v, want undefined: nope at line 4", err)
	}

	// A script ranges over an integer as a cell does,
	// and the same explanation where none can be made (a range over what
	// a call returns, whose type is not known before the script runs).
	modern := write("modern.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := range 3 {\n\t\tfmt.Print(i)\n\t}\n}\n")
	if out, err := run(modern); err != nil || out != "012" {
		t.Errorf("RunFile(modern.go) = %q, %v", out, err)
	}
	gap := write("gap.go", "package main\n\nfunc seq() func(func(int) bool) { return func(yield func(int) bool) {} }\n\nfunc main() {\n\tfor i := range seq() {\n\t\t_ = i\n\t}\n}\n")
	if _, err := run(gap); err == nil || !strings.Contains(err.Error(), "cannot range over a function") {
		t.Errorf("RunFile(gap.go) = %v", err)
	}

	// An assertion to an interface the script declares keeps its value
	// inside a function (internal/yaegi; upstream panicked).
	assertion := write("assert.go", "package main\n\nimport \"fmt\"\n\ntype Shape interface{ Area() float64 }\n\ntype Sq struct{}\n\nfunc (Sq) Area() float64 { return 2 }\n\nfunc area(v any) float64 {\n\ts, ok := v.(Shape)\n\tif !ok {\n\t\treturn 0\n\t}\n\treturn s.Area()\n}\n\nfunc main() {\n\tfmt.Print(area(Sq{}), area(3))\n}\n")
	if out, err := run(assertion); err != nil || out != "2 0" {
		t.Errorf("RunFile(assert.go) = %q, %v", out, err)
	}

	panics := write("panics.go", "package main\n\nfunc deep() {\n\tpanic(\"down here\")\n}\n\nfunc main() {\n\tdeep()\n}\n")
	_, err = run(panics)
	if !errors.As(err, &e) || e.Kind != KindPanic || e.Msg != "down here" || len(e.Trace) != 2 || e.Trace[0] != "main.deep ("+panics+":3)" {
		t.Errorf("RunFile(panics.go) = %#v", err)
	}

	if _, err := run(write("lib.go", "package lib\n\nfunc F() {}\n")); err == nil || !strings.Contains(err.Error(), "package main with a func main") {
		t.Errorf("RunFile(package lib) = %v", err)
	}
	if _, err := run(filepath.Join(dir, "missing.go")); err == nil {
		t.Error("RunFile(missing.go): no error")
	}

	spin := write("spin.go", "package main\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err = RunFile(ctx, spin, nil, Options{Stdout: &strings.Builder{}})
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("RunFile(spin.go) with a deadline = %v, want interrupted", err)
	}
}

// TestScriptStdioAndEnv: what a script writes to os.Stdout and os.Stderr
// goes where grue run sends its output, and it reads the environment.
func TestScriptStdioAndEnv(t *testing.T) {
	t.Setenv("GRUE_TEST_GREETING", "hello")
	path := filepath.Join(t.TempDir(), "stdio.go")
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Fprintln(os.Stdout, \"out:\", os.Getenv(\"GRUE_TEST_GREETING\"))\n\tfmt.Fprintln(os.Stderr, \"err: oops\")\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if err := RunFile(context.Background(), path, nil, Options{Stdout: &out, Stderr: &errs}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "out: hello\n" || errs.String() != "err: oops\n" {
		t.Errorf("stdout %q, stderr %q; want \"out: hello\\n\" and \"err: oops\\n\"", out.String(), errs.String())
	}
	// And in a session, a cell's os.Stdout is recorded with the cell.
	s, _ := newSession(t)
	if got := evalOK(t, s, `fmt.Fprintln(os.Stdout, "to stdout")`); !strings.HasPrefix(got, "to stdout\n") {
		t.Errorf("a cell's os.Stdout output: %q", got)
	}
}
