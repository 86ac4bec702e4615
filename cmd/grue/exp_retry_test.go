package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
)

// grue exp run against a local model server that fails, then works: the
// failed episodes keep their records; --resume leaves them and says how
// to play them again; --resume --retry-failed plays them, and the run
// then counts every episode once, with no failure, in grue exp run's and
// grue exp compare's tables alike.
func TestExpRetryFailed(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	var broken atomic.Bool
	broken.Store(true)
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		if broken.Load() {
			return llmtest.Error(400, "", "the model is down for maintenance")
		}
		return llmtest.Text("THOUGHT: Look around.\nTOOL: play_action\nARGS: {\"action\": \"look\"}")
	})
	modelEnv(t, srv)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "flaky.yaml")
	os.WriteFile(cfg, []byte("name: flaky\nvariants:\n  - name: walk\n    policy: walkthrough\n  - name: model\ngames: [lantern]\nseeds: [1, 2, 3]\nmax_steps: 3\nretries: 1\n"), 0o644)
	out := filepath.Join(dir, "run")
	retry := "play them again with:\n  grue exp run " + cfg + " --out " + out + " --resume --retry-failed\n"

	stdout, stderr, code := grueExp(t, "run", cfg, "--out", out, "--quiet")
	if code != cli.ExitOK || !strings.Contains(stdout, "Results: "+out+" (6 of 6 episodes)") ||
		!strings.Contains(stdout, "Failed: 3 episodes (see their error in results.jsonl); "+retry) {
		t.Fatalf("a run whose model is down: exit %d\n%s%s", code, stdout, stderr)
	}

	// The model is back. --resume alone plays nothing and says what it
	// left.
	broken.Store(false)
	served := len(srv.Requests())
	stdout, stderr, code = grueExp(t, "run", cfg, "--out", out, "--resume", "--quiet")
	if code != cli.ExitOK || len(srv.Requests()) != served ||
		!strings.Contains(stdout, "Failed: 3 episodes, 3 of them left as they were by --resume (see their error in results.jsonl); "+retry) {
		t.Errorf("--resume: exit %d, %d requests\n%s%s", code, len(srv.Requests())-served, stdout, stderr)
	}

	stdout, stderr, code = grueExp(t, "run", cfg, "--out", out, "--resume", "--retry-failed")
	if code != cli.ExitOK || !strings.Contains(stdout, "Results: "+out+" (6 of 6 episodes)") || strings.Contains(stdout, "\nFailed:") {
		t.Errorf("--resume --retry-failed: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "flaky: 6 episodes (2 variants x 1 games x 3 seeds), 3 already done, 3 failed to play again") ||
		strings.Count(stderr, "\n[") != 3 || strings.Contains(stderr, "duplicate") {
		t.Errorf("--resume --retry-failed progress:\n%s", stderr)
	}

	// Every count sees each episode once; the failed records stay in
	// results.jsonl, superseded.
	rs, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 6 || len(rs.Problems) != 0 {
		t.Errorf("loaded %d records, problems %v; want 6 and none", rs.Len(), rs.Problems)
	}
	for _, r := range rs.Records {
		if r.Failed() || r.Steps != 3 {
			t.Errorf("%s: %d steps, error %q", r.Key(), r.Steps, r.Error)
		}
	}
	data, _ := os.ReadFile(filepath.Join(out, harness.ResultsFile))
	if n := bytes.Count(data, []byte("\n")); n != 9 || bytes.Count(data, []byte("down for maintenance")) != 3 {
		t.Errorf("results.jsonl has %d lines, want 6 + the 3 failed", n)
	}
	stdout, stderr, code = grueExp(t, "compare", out, "--format", "csv")
	if code != cli.ExitOK || !strings.Contains(stdout, "\nmodel,lantern,3,0,") || !strings.Contains(stdout, "\nwalk,lantern,3,0,") || stderr != "" {
		t.Errorf("compare after the retry (want 3 episodes and 0 errors a variant): exit %d\n%s%s", code, stdout, stderr)
	}

	// --retry-failed needs --resume.
	if _, stderr, code := grueExp(t, "run", cfg, "--out", filepath.Join(dir, "new"), "--retry-failed"); code != cli.ExitUsage || !strings.Contains(stderr, "--retry-failed goes with --resume") {
		t.Errorf("--retry-failed alone: exit %d, %s", code, stderr)
	}

	// Another model from the environment is refused, naming both.
	t.Setenv("GRUE_MODEL", "another-model")
	if _, stderr, code := grueExp(t, "run", cfg, "--out", out, "--resume"); code != cli.ExitError ||
		!strings.Contains(stderr, `variant model was played with model "scripted-model"`) || !strings.Contains(stderr, `now gets model "another-model"`) {
		t.Errorf("resuming with another GRUE_MODEL: exit %d, %s", code, stderr)
	}
}
