package eval

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/tools"
)

// workspace returns a workspace in a fresh folder holding files.
func workspace(t *testing.T, files map[string]string) *tools.Workspace {
	t.Helper()
	dir := t.TempDir()
	if err := writeFiles(dir, files, false); err != nil {
		t.Fatal(err)
	}
	return &tools.Workspace{Dir: dir, Env: TaskEnv()}
}

// verdict runs v on w and checks its outcome and that its reason holds
// every one of want.
func verdict(t *testing.T, v Verifier, w *tools.Workspace, pass bool, want ...string) Verdict {
	t.Helper()
	got := v.Verify(context.Background(), w)
	if got.Pass != pass {
		t.Errorf("%s: pass = %v, want %v (reason: %s)", got.Check, got.Pass, pass, got.Reason)
	}
	for _, w := range want {
		if !strings.Contains(got.Reason, w) {
			t.Errorf("%s: reason %q does not say %q", got.Check, got.Reason, w)
		}
	}
	return got
}

func TestFileExists(t *testing.T) {
	w := workspace(t, map[string]string{"hello.go": "package main\n", "sub/x.txt": "x"})
	verdict(t, FileExists("hello.go"), w, true, "hello.go exists")
	verdict(t, FileExists("sub/x.txt"), w, true, "sub/x.txt exists")
	verdict(t, FileExists("nope.go"), w, false, "nope.go does not exist", "no such file")
	verdict(t, FileExists("sub"), w, false, "sub is a folder, not a file")

	// A link out of the workspace is not a file in it.
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(w.Dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	verdict(t, FileExists("link.txt"), w, false, "link.txt does not exist")
}

func TestFileContains(t *testing.T) {
	w := workspace(t, map[string]string{"fib.go": "package fib\n\nfunc Fib(n int) int { return n }\n"})
	verdict(t, FileContains("fib.go", "func Fib(n int) int"), w, true, `fib.go contains "func Fib(n int) int"`)
	verdict(t, FileContains("fib.go", "func Fib(n int64)"), w, false, `fib.go does not contain "func Fib(n int64)"`)
	verdict(t, FileContains("gone.go", "x"), w, false, "gone.go cannot be read (no such file)")
	verdict(t, FileMatches("fib.go", `(?m)^func Fib\(\w+ int\) int`), w, true, "fib.go matches /")
	verdict(t, FileMatches("fib.go", `^func`), w, false, "fib.go does not match /^func/")
	verdict(t, FileMatches("fib.go", `(`), w, false, "is not a regular expression")
}

func TestShellOutput(t *testing.T) {
	w := workspace(t, nil)
	verdict(t, ShellOutput("echo Hello, World!", "Hello, World!"), w, true, "the output of `echo Hello, World!` contains")
	v := verdict(t, ShellOutput("echo Goodbye", "Hello"), w, false, "`echo Goodbye` printed \"Goodbye\", which does not contain \"Hello\"")
	if v.Output != "Goodbye" {
		t.Errorf("output = %q, want the command's", v.Output)
	}
	// The right text from a failing command is a failure.
	verdict(t, ShellOutput("echo Hello; exit 3", "Hello"), w, false, "`echo Hello; exit 3` failed (exit status 3)")
	verdict(t, ShellMatches("printf 'a\\nHello, World!\\n'", `(?m)^Hello, World!$`), w, true, "matches")
	verdict(t, ShellMatches("echo 'Hello, World!!'", `(?m)^Hello, World!$`), w, false, "does not match /(?m)^Hello, World!$/")
	verdict(t, ShellOutput("true", "x"), w, false, "printed nothing")

	slow := &tools.Workspace{Dir: w.Dir, ShellTimeout: 100_000_000} // 100 ms
	verdict(t, ShellOutput("sleep 5", "x"), slow, false, "ran past its time limit of 100ms")
}

func TestTestsPass(t *testing.T) {
	hidden := map[string]string{"checks/hidden.sh": "test \"$(cat answer.txt)\" = 42 || { echo \"answer.txt holds $(cat answer.txt), want 42\"; exit 1; }\n"}
	v := TestsPass("sh checks/hidden.sh", hidden)
	if got := v.HiddenFiles(); !reflect.DeepEqual(got, []string{"checks/hidden.sh"}) {
		t.Errorf("HiddenFiles = %v", got)
	}

	right := workspace(t, map[string]string{"answer.txt": "42"})
	if _, err := os.Stat(filepath.Join(right.Dir, "checks", "hidden.sh")); err == nil {
		t.Fatal("the hidden file is there before verifying")
	}
	verdict(t, v, right, true, "`sh checks/hidden.sh` passed")
	if b, err := os.ReadFile(filepath.Join(right.Dir, "checks", "hidden.sh")); err != nil || string(b) != hidden["checks/hidden.sh"] {
		t.Errorf("the hidden file was not planted when verifying: %q, %v", b, err)
	}

	wrong := workspace(t, map[string]string{"answer.txt": "41"})
	got := verdict(t, v, wrong, false, "`sh checks/hidden.sh` failed (exit status 1)")
	if !strings.Contains(got.Output, "answer.txt holds 41, want 42") {
		t.Errorf("output = %q, want the check's message", got.Output)
	}

	// An agent's file of the same name, or a link in its place, is
	// replaced by the hidden one.
	cheat := workspace(t, map[string]string{"answer.txt": "41", "checks/hidden.sh": "exit 0\n"})
	verdict(t, v, cheat, false, "failed")
	linked := workspace(t, map[string]string{"answer.txt": "41"})
	target := filepath.Join(t.TempDir(), "elsewhere.sh")
	os.WriteFile(target, []byte("exit 0\n"), 0o644)
	os.MkdirAll(filepath.Join(linked.Dir, "checks"), 0o755)
	if err := os.Symlink(target, filepath.Join(linked.Dir, "checks", "hidden.sh")); err != nil {
		t.Fatal(err)
	}
	verdict(t, v, linked, false, "failed")
	if b, _ := os.ReadFile(target); string(b) != "exit 0\n" {
		t.Errorf("planting the hidden file wrote through the agent's link: %q", b)
	}
}

func TestFirstFailure(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"--- FAIL: TestMean (0.00s)\n    stats_test.go:7: Mean([1 2]) = 1, want 1.5\nFAIL\n", "--- FAIL: TestMean (0.00s) stats_test.go:7: Mean([1 2]) = 1, want 1.5"},
		{"# example.com/fib [example.com/fib.test]\n./fib_hidden_test.go:7:13: undefined: Fib\nFAIL\texample.com/fib [build failed]\n", "./fib_hidden_test.go:7:13: undefined: Fib"},
		{"panic: test timed out after 30s\n\trunning tests:\n", "panic: test timed out after 30s"},
		{"ok  \texample.com/fib\t0.01s\n", ""},
	} {
		if got := firstFailure(c.out); got != c.want {
			t.Errorf("firstFailure(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

func TestAllOf(t *testing.T) {
	w := workspace(t, map[string]string{"hello.go": "package main\n"})
	verdict(t, AllOf(FileExists("hello.go"), FileContains("hello.go", "package main")), w, true,
		"hello.go exists; hello.go contains")
	got := verdict(t, AllOf(FileExists("hello.go"), FileExists("a.go"), FileContains("hello.go", "func main")), w, false,
		"2 of 3 checks failed: a.go does not exist", `hello.go does not contain "func main"`)
	if len(got.Checks) != 3 || !got.Checks[0].Pass || got.Checks[1].Pass {
		t.Errorf("checks = %+v, want every check's verdict in order", got.Checks)
	}
	verdict(t, AllOf(), w, false, "no checks")

	custom := VerifierFunc(func(ctx context.Context, w *tools.Workspace) Verdict {
		return Verdict{Check: "custom", Reason: "the custom check says no"}
	})
	verdict(t, AllOf(FileExists("hello.go"), custom), w, false, "1 of 2 checks failed: the custom check says no")

	all := AllOf(TestsPass("true", map[string]string{"b_test.go": ""}), AllOf(TestsPass("true", map[string]string{"a_test.go": "", "b_test.go": ""})))
	if got := HiddenFiles(all); !reflect.DeepEqual(got, []string{"a_test.go", "b_test.go"}) {
		t.Errorf("HiddenFiles = %v", got)
	}
}
