package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/eval"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
)

// TestEvalScripts runs the scripts of grue eval, in testdata/script/eval.
// They run the go command, so they get the user's build cache (test
// scripts have no home): with a cold one, each task would build the
// standard library anew.
func TestEvalScripts(t *testing.T) {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	gocache := strings.TrimSpace(string(out))
	tasks, err := filepath.Abs(filepath.Join("..", "..", "experiments", "tasks"))
	if err != nil {
		t.Fatal(err)
	}
	pytest, pytestPath := findPytest()
	if !pytest && os.Getenv("CI") != "" {
		t.Error("python3 -m pytest is not available in CI (.ci/run installs python3-pytest): the pytest task is not run")
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script/eval",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GOCACHE", gocache)
			env.Setenv("TASKS", tasks)
			if pytestPath != "" {
				env.Setenv("PATH", pytestPath)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "pytest" {
				return pytest, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// findPytest reports whether a python3 with pytest is there, and the
// PATH that finds it first when it is Debian's (python3-pytest, in
// /usr/bin) behind another python3; "" when PATH will do.
func findPytest() (bool, string) {
	if exec.Command("python3", "-m", "pytest", "--version").Run() == nil {
		return true, ""
	}
	if exec.Command("/usr/bin/python3", "-m", "pytest", "--version").Run() == nil {
		return true, "/usr/bin" + string(os.PathListSeparator) + os.Getenv("PATH")
	}
	return false, ""
}

// grue eval with a model: the model's replies come from a local
// OpenAI-compatible server; the agent writes hello.go and passes.
func TestEvalWithAModel(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "HF_TOKEN", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Reply("THOUGHT: write it\nTOOL: write_file\nARGS: {\"path\": \"hello.go\", \"content\": \"package main\\n\\nimport \\\"fmt\\\"\\n\\nfunc main() { fmt.Println(\\\"Hello, World!\\\") }\\n\"}").
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"hello.go\"}")
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"eval", "--task", "hello_world", "--model", "tiny-coder", "--base-url", srv.URL(), "--out", dir}, nil, &stdout, &stderr)
	if code != cli.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "PASS  hello_world    2 steps   2 tool calls") ||
		!strings.HasPrefix(lines[2], "tiny-coder: 1/1 passed (100.0%), 2 steps, 2 tool calls") || strings.Contains(lines[0], " 0 tokens") {
		t.Errorf("output:\n%s", stdout.String())
	}
	if req := srv.Requests()[0]; req.Model != "tiny-coder" || req.Seed == nil || *req.Seed != 1 {
		t.Errorf("request: model %q, seed %v", req.Model, req.Seed)
	}
	rs, err := harness.LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 1 || rs.Records[0].Variant != "tiny-coder" || rs.Records[0].Model != "tiny-coder" || rs.Records[0].FinalScore != 1 ||
		rs.Records[0].GrueVersion != cli.Version() {
		t.Errorf("records %+v", rs.Records)
	}

	// A model server that refuses every request: the task fails with the
	// episode's error, and grue eval says so in its exit status.
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"eval", "--task", "hello_world", "--model", "m", "--base-url", srv.URL(), "--out", filepath.Join(dir, "2")}, nil, &stdout, &stderr)
	if code != cli.ExitError || !strings.Contains(stdout.String(), "FAIL  hello_world") || !strings.Contains(stdout.String(), "error: ") ||
		!strings.Contains(stderr.String(), "1 of 1 tasks ended in an error") {
		t.Errorf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

// grue eval --trials with a model that solves hello_world only when its
// seed is odd: each trial sends its own seed, and the pass rate is over
// the trials, with its interval.
func TestEvalTrialsWithAModel(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "HF_TOKEN", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	srv := llmtest.NewServer()
	defer srv.Close()
	var mu sync.Mutex
	wrote := map[int]bool{}
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		mu.Lock()
		defer mu.Unlock()
		seed := *req.Seed
		if seed%2 == 1 && !wrote[seed] {
			wrote[seed] = true
			return llmtest.Text("THOUGHT: write it\nTOOL: write_file\nARGS: {\"path\": \"hello.go\", \"content\": \"package main\\n\\nimport \\\"fmt\\\"\\n\\nfunc main() { fmt.Println(\\\"Hello, World!\\\") }\\n\"}")
		}
		return llmtest.Text("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"done\"}")
	})
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"eval", "--task", "hello_world", "--model", "m", "--base-url", srv.URL(), "--out", dir, "--trials", "3"}, nil, &stdout, &stderr)
	if code != cli.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		"PASS  hello_world   seed 1 ", "FAIL  hello_world   seed 2 ", "PASS  hello_world   seed 3 ",
		"m: 2/3 passed (66.7%) in 3 trials, ",
		"  hello_world   2/3 passed  66.7% [0.0, 100.0]\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	var seeds []int
	for _, req := range srv.Requests() {
		if n := len(seeds); n == 0 || seeds[n-1] != *req.Seed {
			seeds = append(seeds, *req.Seed)
		}
	}
	if fmt.Sprint(seeds) != "[1 2 3]" {
		t.Errorf("the model got seeds %v, want each trial's: 1, 2, 3", seeds)
	}
	rs, err := harness.LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 3 || len(rs.Problems) > 0 {
		t.Errorf("%d records, problems %v", rs.Len(), rs.Problems)
	}
}

// A task whose model sent no usage shows its tokens as an estimate.
func TestPrintTaskResultMarksEstimatedTokens(t *testing.T) {
	r := &eval.TaskResult{Task: "hello_world", Pass: true, Steps: 2,
		Tokens: llm.Usage{TotalTokens: 812}, Run: &agent.RunResult{EstimatedTokens: 812}}
	var b bytes.Buffer
	printTaskResult(&b, r, false)
	if !strings.Contains(b.String(), " ~812 tokens") {
		t.Errorf("estimated tokens not marked:\n%s", b.String())
	}
	r.Run.EstimatedTokens = 0
	b.Reset()
	printTaskResult(&b, r, false)
	if !strings.Contains(b.String(), "  812 tokens") || strings.Contains(b.String(), "~") {
		t.Errorf("counted tokens marked as an estimate:\n%s", b.String())
	}
}
