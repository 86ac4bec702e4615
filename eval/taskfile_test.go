package eval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinTasksRead(t *testing.T) {
	tasks, err := BuiltinTasks()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tk := range tasks {
		ids = append(ids, tk.ID)
		if !slices.Contains(tk.Tags, "go") || len(tk.Reference) == 0 || tk.Verify == nil {
			t.Errorf("%s: tags %v, %d reference calls", tk.ID, tk.Tags, len(tk.Reference))
		}
	}
	if !slices.Equal(ids, []string{"hello_world", "fibonacci", "fix_the_bug"}) {
		t.Errorf("built-in tasks %v", ids)
	}
	if got := WithTag(tasks, "debugging"); len(got) != 1 || got[0].ID != "fix_the_bug" {
		t.Errorf("WithTag(debugging) = %v", got)
	}
}

// The example, in its exact format, reads.
const greetTask = `id: greet
prompt: Write greet.txt containing the word hello.
tags: [files, easy]
setup:                 # files planted before the agent starts
  notes.md: "Say hello."
hidden:                # files written only when verifying (the agent never sees them)
  greet_test.go: |
    package main
verify:                # composable
  all_of:
    - file_exists: greet.txt
    - file_contains: {path: greet.txt, pattern: hello}
    - any_of:
        - shell_output: {command: cat greet.txt, expect: "^hello"}
        - tests_pass: "false"
reference:             # the known solution, applied by --policy reference
  greet.txt: "hello\n"
`

func TestParseTask(t *testing.T) {
	tk, err := ParseTask([]byte(greetTask), "greet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if tk.ID != "greet" || tk.Summary != "Write greet.txt containing the word hello." || !slices.Equal(tk.Tags, []string{"files", "easy"}) ||
		tk.Files["notes.md"] != "Say hello." || tk.Hidden["greet_test.go"] != "package main\n" || len(tk.Reference) != 1 || tk.Protected != nil {
		t.Errorf("task %+v", tk)
	}
	w := workspace(t, map[string]string{"greet.txt": "hello\n"})
	verdict(t, tk.Verify, w, true, "greet.txt exists", "greet.txt matches /hello/", "the output of `cat greet.txt` matches /^hello/")
	w = workspace(t, map[string]string{"greet.txt": "goodbye\n"})
	verdict(t, tk.Verify, w, false, "2 of 3 checks failed", "none of 2 checks passed", "`false` failed (exit status 1)")
	c, err := CheckTask(context.Background(), tk, Options{})
	if err != nil || !c.OK() {
		t.Errorf("CheckTask = %+v, %v", c, err)
	}

	nothing, err := ParseTask([]byte("id: x\nprompt: p\nprotected: []\nverify: {file_exists: a}\n"), "x.yaml")
	if err != nil || nothing.Protected == nil || len(nothing.Protected) != 0 {
		t.Errorf("protected: [] gives %#v, %v; want an empty list", nothing.Protected, err)
	}
}

// Errors in a task file name the file, line, column and field.
func TestParseTaskErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"id: a\nprompt: p\nverify: {file_exists: a}\nhiden: {}\n", "t.yaml:4:1: field hiden: unknown field (misspelt? a task has id"},
		{"id: a\nprompt: p\ntags: 3\nverify: {file_exists: a}\n", "t.yaml:3:7: field tags: "},
		{"id: a\nprompt: p\nverify:\n  all_of:\n    - file_exists: a\n    - file_contains: {path: a, pattern: \"(\"}\n",
			"t.yaml:6:41: field verify.all_of[1].file_contains.pattern: /(/ is not a regular expression"},
		{"id: a\nprompt: p\nverify:\n  all_of:\n    - file_exists: a\n      tests_pass: go test\n",
			"t.yaml:5:7: field verify.all_of[0]: give exactly one check (all_of, any_of, file_exists, file_contains, shell_output or tests_pass), not 2"},
		{"id: a\nprompt: p\nverify: {any_of: []}\n", "field verify.any_of: any_of needs at least one check"},
		{"id: a b\nprompt: p\nverify: {file_exists: a}\n", `t.yaml:1:5: field id: "a b" is not an id`},
		{"id: a\nverify: {file_exists: a}\n", "field prompt: a task needs a prompt"},
		{"id: a\nprompt: p\n", "field verify: a task needs a verify"},
		{"id: a\nprompt: p\nverify: {file_exists: a}\nsetup:\n  ../x.go: hi\n", `t.yaml:5:12: field setup["../x.go"]: "../x.go" is not a path inside the workspace`},
		{"id: a\nprompt: p\nverify: {shell_output: {command: '', expect: x}}\n", "field verify.shell_output: shell_output needs a command"},
		{"id: a\nid: b\n", `t.yaml:2:1: field id: mapping key "id" already defined`},
	} {
		_, err := ParseTask([]byte(c.yaml), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseTask(%q) = %v, want %q", c.yaml, err, c.want)
		}
	}
}

func TestLoadTasksErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("id: same\nprompt: p\nverify: {file_exists: a}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("id: same\nprompt: p\nverify: {file_exists: a}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.yaml"), []byte("id: c\nprompt: p\nverify: {file_exist: a}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a task"), 0o644)
	_, err := LoadTasks(dir)
	for _, want := range []string{"b.yaml: field id: task \"same\" is in " + filepath.Join(dir, "a.yaml"), "c.yaml:3:10: field file_exist: unknown field"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadTasks = %v, want %q", err, want)
		}
	}
	if _, err := LoadTasks(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no task files") {
		t.Errorf("an empty folder: %v", err)
	}
}

// CheckTask reports a task whose reference fails, and one that passes
// with nothing done.
func TestCheckTaskCatchesBrokenTasks(t *testing.T) {
	wrong, err := ParseTask([]byte("id: wrong\nprompt: p\nverify: {file_contains: {path: a.txt, pattern: '^42$'}}\nreference: {a.txt: '41'}\n"), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := CheckTask(context.Background(), wrong, Options{})
	if err != nil || c.OK() || !strings.Contains(strings.Join(c.Problems, "; "), "its reference solution fails: a.txt does not match /^42$/") {
		t.Errorf("wrong reference: %+v, %v", c, err)
	}
	easy, _ := ParseTask([]byte("id: easy\nprompt: p\nsetup: {a.txt: x}\nverify: {file_exists: a.txt}\nreference: {a.txt: y}\n"), "e.yaml")
	c, err = CheckTask(context.Background(), easy, Options{})
	if err != nil || c.OK() || !strings.Contains(strings.Join(c.Problems, "; "), "its workspace passes with nothing done: a.txt exists") {
		t.Errorf("a task done as planted: %+v, %v", c, err)
	}
}

// A reference that fails because the verifier's tool is missing shows
// what the verifier printed on stderr, its end, bounded.
func TestCheckTaskShowsVerifierStderr(t *testing.T) {
	tk, err := ParseTask([]byte("id: nopytest\nprompt: p\nverify:\n  all_of:\n    - file_exists: a.txt\n    - tests_pass: \"i=0; while [ $i -lt 2000 ]; do echo noise line $i; i=$((i+1)); done; echo '/usr/bin/python3: No module named pytest' >&2; exit 1\"\nreference: {a.txt: x}\n"), "n.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := CheckTask(context.Background(), tk, Options{})
	if err != nil || c.OK() {
		t.Fatalf("CheckTask = %+v, %v", c, err)
	}
	if !strings.Contains(c.Output, "No module named pytest") {
		t.Errorf("the check's output %q lacks the verifier's stderr", c.Output)
	}
	if len(c.Output) > MaxCheckOutput+len("[...]\n") {
		t.Errorf("the check's output is %d bytes, past %d", len(c.Output), MaxCheckOutput)
	}
}

// usePytest puts a python3 that has pytest first on PATH (Debian's
// python3-pytest is in /usr/bin), and reports whether there is one.
func usePytest(t *testing.T) bool {
	if exec.Command("python3", "-m", "pytest", "--version").Run() == nil {
		return true
	}
	if exec.Command("/usr/bin/python3", "-m", "pytest", "--version").Run() == nil {
		t.Setenv("PATH", "/usr/bin:"+os.Getenv("PATH"))
		return true
	}
	return false
}

// The example task files of experiments/tasks are sound: each reference
// passes, each workspace as planted fails.
func TestExampleTaskFiles(t *testing.T) {
	tasks, err := LoadTasks(filepath.Join("..", "experiments", "tasks"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 5 {
		t.Fatalf("%d example tasks, want 5 or more", len(tasks))
	}
	pytest := usePytest(t)
	for _, tk := range tasks {
		if slices.Contains(tk.Tags, "pytest") && !pytest {
			if os.Getenv("CI") != "" {
				t.Errorf("%s: python3 -m pytest is not available in CI (.ci/run installs python3-pytest)", tk.ID)
			} else {
				t.Logf("%s: left out: python3 -m pytest is not available (apt-get install python3-pytest)", tk.ID)
			}
			continue
		}
		c, err := CheckTask(context.Background(), tk, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !c.OK() {
			t.Errorf("%s: %s\n%s", tk.ID, strings.Join(c.Problems, "; "), c.Reference.Output)
		}
	}
}

// A conftest.py of the agent's cannot mark the hidden pytest tests
// passed: it is not in the folder verified.
func TestCheatingConftestFails(t *testing.T) {
	if !usePytest(t) {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 -m pytest is not available in CI")
		}
		t.Skip("python3 -m pytest is not available (apt-get install python3-pytest)")
	}
	tk, err := LoadTask(filepath.Join("..", "experiments", "tasks", "python_slugify.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	conftest := "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    out = yield\n    r = out.get_result()\n    r.outcome = 'passed'\n"
	w := workspace(t, map[string]string{"slug.py": "def slugify(text):\n    return text\n", "conftest.py": conftest})
	for p, text := range tk.Hidden {
		writeFiles(w.Dir, map[string]string{p: text}, false)
	}
	if res, _ := w.Run(context.Background(), "python3 -m pytest -q -p no:cacheprovider"); res.ExitCode != 0 {
		t.Fatalf("the conftest attack does not work on pytest itself: %s", res.Output)
	}
	for p := range tk.Hidden {
		os.Remove(filepath.Join(w.Dir, p))
	}
	if v := tk.Check(context.Background(), w.Dir, TaskEnv(), 0); v.Pass {
		t.Errorf("a wrong slugify with a conftest.py that passes every test passes: %s", v.Reason)
	}
}
