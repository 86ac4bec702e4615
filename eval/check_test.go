package eval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent"
)

// wrongFib is a Fib that fails the hidden tests: Fib(n) = n.
const wrongFib = "package fib\n\nfunc Fib(n int) int { return n }\n"

// exitZeroTestMain is the attack of issue 11, item 12: a test file whose
// TestMain ends the test binary with status 0 before any test runs.
const exitZeroTestMain = `package fib

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(0) }
`

// runPolicy runs task with a policy that plays acts, and returns the
// result.
func runPolicy(t *testing.T, task Task, acts ...agent.Action) *TaskResult {
	t.Helper()
	a := NewCodingAgent(CodingDefaults())
	a.Policy = &ReferencePolicy{Actions: append(acts, agent.Action{Tool: "finish", Args: map[string]any{}})}
	res, err := RunTask(context.Background(), a, task, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A wrong Fib with a zz_test.go whose TestMain exits 0 passed fibonacci
// when the hidden tests ran in the agent's workspace. It fails now: the
// agent's test files are not in the folder verified, and the hidden
// tests run.
func TestCheatingTestMainFails(t *testing.T) {
	if _, err := FindGo(); err != nil {
		t.Fatal(err)
	}
	fibTask := task(t, "fibonacci")

	// The attack is real: in the agent's own folder, with the hidden
	// tests planted, go test succeeds.
	dir := t.TempDir()
	files := map[string]string{"fib.go": wrongFib, "zz_test.go": exitZeroTestMain}
	for p, text := range fibTask.Hidden {
		files[p] = text
	}
	for p, text := range fibTask.Files {
		files[p] = text
	}
	if err := writeFiles(dir, files, false); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), TaskEnv()...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the attack does not work on go test itself (%v): %s", err, out)
	}

	res := runPolicy(t, fibTask, write("fib.go", wrongFib), write("zz_test.go", exitZeroTestMain))
	if res.Pass {
		t.Fatalf("a wrong Fib with TestMain calling os.Exit(0) passes: %s", res.Verdict.Reason)
	}
	if !strings.Contains(res.Verdict.Reason, "Fib(2) = 2, want 1") {
		t.Errorf("reason %q does not say the hidden tests failed", res.Verdict.Reason)
	}

	// A right Fib with the same test file passes: the agent's tests are
	// left out, not held against it.
	right := fibTask.Reference[0]
	if res := runPolicy(t, fibTask, right, write("zz_test.go", exitZeroTestMain)); !res.Pass {
		t.Errorf("a right Fib with an extra test file fails: %s", res.Verdict.Reason)
	}
}

// A test file the task planted (fix_the_bug's stats_test.go) is verified
// as the task wrote it: an agent that rewrites it with a TestMain of its
// own, leaving the bug, fails.
func TestCheatingPlantedTestFileFails(t *testing.T) {
	bugTask := task(t, "fix_the_bug")
	cheat := "package stats\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n"
	res := runPolicy(t, bugTask, write("stats_test.go", cheat))
	if res.Pass {
		t.Fatalf("a rewritten stats_test.go passes with the bug left in: %s", res.Verdict.Reason)
	}
	if !strings.Contains(res.Verdict.Reason, "want 1.5") {
		t.Errorf("reason %q does not say Mean is wrong", res.Verdict.Reason)
	}
}

// Check verifies a copy: the agent's folder gets no hidden file, keeps
// its own test files, and links out of it are not followed.
func TestCheckLeavesTheWorkspaceAlone(t *testing.T) {
	hidden := "test \"$(cat answer.txt)\" = 42\n"
	tk := Task{ID: "answer", Files: map[string]string{"check_test.go": "task's\n"},
		Hidden: map[string]string{"hidden.sh": hidden},
		Verify: AllOf(TestsPass("sh hidden.sh", nil), FileContains("check_test.go", "task's"),
			FileContains("mine_test.go", "agent's"))}
	w := workspace(t, map[string]string{"answer.txt": "42", "check_test.go": "agent's\n", "mine_test.go": "agent's\n"})
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("secret"), 0o600)
	os.Symlink(outside, filepath.Join(w.Dir, "link.txt"))

	v := tk.Check(context.Background(), w.Dir, TaskEnv(), 0)
	if v.Pass || !strings.Contains(v.Reason, "1 of 3 checks failed: mine_test.go cannot be read") {
		t.Errorf("verdict %v: want the agent's test file left out and the task's put back", v)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, "hidden.sh")); err == nil {
		t.Error("the hidden file was written into the agent's workspace")
	}
	if b, _ := os.ReadFile(filepath.Join(w.Dir, "check_test.go")); string(b) != "agent's\n" {
		t.Errorf("the agent's file was changed: %q", b)
	}

	// protected: [] trusts the agent's files.
	tk.Protected = []string{}
	tk.Verify = AllOf(TestsPass("sh hidden.sh", nil), FileContains("check_test.go", "agent's"), FileContains("mine_test.go", "agent's"),
		ShellOutput("cat link.txt 2>&1 || true", "No such file"))
	if v := tk.Check(context.Background(), w.Dir, TaskEnv(), 0); !v.Pass {
		t.Errorf("with nothing protected: %v", v)
	}
}

func TestIsProtected(t *testing.T) {
	for _, c := range []struct {
		rel  string
		want bool
	}{
		{"fib_test.go", true}, {"sub/pkg/x_test.go", true}, {"fib.go", false},
		{"test_fib.py", true}, {"tests/conftest.py", true}, {"fib.py", false}, {"testdata/x", false},
	} {
		if got := isProtected(c.rel, DefaultProtected); got != c.want {
			t.Errorf("isProtected(%q) = %v, want %v", c.rel, got, c.want)
		}
	}
	if !isProtected("checks/run.sh", []string{"checks/*"}) || isProtected("x/checks/run.sh", []string{"checks/*"}) {
		t.Error("a pattern with a slash matches the path from the root")
	}
}
