package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// A run whose model server fails for some episodes, resumed: without
// RetryFailed the failed episodes are left as they are; with it they are
// played again, their new records appended, and every count sees each
// episode once, as in a run that never failed.
func TestRunResumeRetryFailed(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	var broken atomic.Bool
	broken.Store(true)
	failing := map[int]bool{int(LLMSeed(0, "model", "lantern", 2)): true, int(LLMSeed(0, "model", "lantern", 3)): true}
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		if broken.Load() && failing[*req.Seed] {
			return llmtest.Error(400, "", "the server is having a bad day")
		}
		return playerReply(req)
	})
	cfg := &Config{
		Name: "flaky",
		Variants: []Variant{
			{Name: "walk", Policy: PolicyWalkthrough},
			{Name: "model", Model: "scripted", BaseURL: srv.URL()},
		},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2, 3},
		MaxSteps: 3,
		Retries:  1,
	}
	out := filepath.Join(t.TempDir(), "run")
	rs, err := Run(context.Background(), cfg, RunOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	failedKeys := func(rs *ResultSet) []string {
		var keys []string
		for _, r := range rs.Records {
			if r.Failed() {
				keys = append(keys, r.Key().String())
			}
		}
		return keys
	}
	if got := failedKeys(rs); rs.Len() != 6 || len(got) != 2 {
		t.Fatalf("%d records, failed %v; want 6, of which model/lantern/2 and 3 failed", rs.Len(), got)
	}
	failed, _ := rs.Lookup(EpisodeKey{"model", "lantern", 2})

	// The server works again. Resumed without RetryFailed, the run has
	// nothing to play and says what it leaves.
	broken.Store(false)
	served := len(srv.Requests())
	var log bytes.Buffer
	rs, err = Run(context.Background(), cfg, RunOptions{Out: out, Resume: true, Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.Requests()) != served || len(failedKeys(rs)) != 2 {
		t.Errorf("resumed without RetryFailed: %d requests, failed %v; want none and the 2 failed left", len(srv.Requests())-served, failedKeys(rs))
	}
	if !strings.Contains(log.String(), "6 already done (2 of them failed, left as they are)") {
		t.Errorf("progress does not say that failed episodes are left:\n%s", log.String())
	}

	// With RetryFailed they are played again.
	log.Reset()
	rs, err = Run(context.Background(), cfg, RunOptions{Out: out, Resume: true, RetryFailed: true, Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "4 already done, 2 failed to play again") || strings.Count(log.String(), "\n[") != 2 {
		t.Errorf("progress:\n%s", log.String())
	}
	if rs.Len() != 6 || len(failedKeys(rs)) != 0 || len(rs.Problems) != 0 {
		t.Fatalf("after the retry: %d records, failed %v, problems %v; want 6, none failed, no problems", rs.Len(), failedKeys(rs), rs.Problems)
	}
	// results.jsonl only grew: the failed records are still there.
	data, err := os.ReadFile(filepath.Join(out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 8 || bytes.Count(data, []byte("bad day")) != 2 {
		t.Errorf("results.jsonl has %d lines (%d errors), want 6 + 2 retried, the 2 failed kept", n, bytes.Count(data, []byte("bad day")))
	}
	// So are their trajectories, beside the new ones.
	again, _ := rs.Lookup(EpisodeKey{"model", "lantern", 2})
	if again.Trajectory != "trajectories/model/lantern_2.retry1.json" || again.Trajectory == failed.Trajectory {
		t.Errorf("the retried episode's trajectory is %q (the failed one's %q)", again.Trajectory, failed.Trajectory)
	}
	if tr, err := ReadTrajectory(out, failed); err != nil || !strings.Contains(tr.Error, "bad day") {
		t.Errorf("the failed episode's trajectory: %v", err)
	}
	if tr, err := ReadTrajectory(out, again); err != nil || tr.Error != "" || len(tr.History) != 3 {
		t.Errorf("the retried episode's trajectory: %v", err)
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Resumes) != 2 || m.Resumes[0].Retried != 0 || m.Resumes[1].Retried != 2 || m.Resumes[1].Remaining != 2 {
		t.Errorf("manifest resumes %+v; want the second to have retried 2", m.Resumes)
	}

	// The records are those of a run that never failed.
	whole, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "whole")})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range whole.Records {
		r, _ := rs.Lookup(w.Key())
		r, w = comparable(r), comparable(w)
		r.Trajectory, w.Trajectory = "", ""
		if fmt.Sprintf("%+v", r) != fmt.Sprintf("%+v", w) {
			t.Errorf("%s differs:\nretried %+v\nwhole   %+v", w.Key(), r, w)
		}
	}

	// Nothing failed is left: retrying again plays nothing.
	served = len(srv.Requests())
	if rs, err = Run(context.Background(), cfg, RunOptions{Out: out, Resume: true, RetryFailed: true}); err != nil || rs.Len() != 6 || len(srv.Requests()) != served {
		t.Errorf("a second retry: %v, %d new requests", err, len(srv.Requests())-served)
	}
}

func TestRetryTrajectoryPath(t *testing.T) {
	for _, tc := range []struct{ old, want string }{
		{"trajectories/m/zork1_3.json", "trajectories/m/zork1_3.retry1.json"},
		{"trajectories/m/zork1_3.retry1.json", "trajectories/m/zork1_3.retry2.json"},
		{"trajectories/m/zork1_3.retry9.json", "trajectories/m/zork1_3.retry10.json"},
		{"", "trajectories/m/zork1_3.retry1.json"},
	} {
		if got := retryTrajectoryPath("trajectories/m/zork1_3.json", tc.old); got != tc.want {
			t.Errorf("retry of %q: %q, want %q", tc.old, got, tc.want)
		}
	}
}

// A variant that takes its model from the environment: resuming its run
// with another model or endpoint there is refused, naming the variant and
// both models, and leaves the run as it was.
func TestRunResumeWithAnotherModelFromTheEnvironment(t *testing.T) {
	srv := playerServer(t, 0)
	other := playerServer(t, 0)
	env := func(baseURL, model string) {
		t.Setenv("OPENAI_BASE_URL", baseURL)
		t.Setenv("GRUE_MODEL", model)
		t.Setenv("OPENAI_API_KEY", "")
		t.Setenv("HF_TOKEN", "")
	}
	cfg := &Config{Name: "env", Variants: []Variant{{Name: "m"}}, Games: []string{"lantern"}, Seeds: []int64{1, 2}, MaxSteps: 2}
	out := filepath.Join(t.TempDir(), "run")
	env(srv.URL(), "model-a")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(out, ManifestFile))
	results, _ := os.ReadFile(filepath.Join(out, ResultsFile))

	refused := func(what string, want ...string) {
		t.Helper()
		served := len(srv.Requests()) + len(other.Requests())
		_, err := Run(context.Background(), cfg, RunOptions{Out: out, Resume: true, RetryFailed: true})
		if !errors.Is(err, ErrEndpointMismatch) {
			t.Fatalf("resuming with %s: %v; want ErrEndpointMismatch", what, err)
		}
		for _, w := range append(want, "cannot resume "+out, "variant m") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("resuming with %s: %q does not say %q", what, err, w)
			}
		}
		m, _ := os.ReadFile(filepath.Join(out, ManifestFile))
		r, _ := os.ReadFile(filepath.Join(out, ResultsFile))
		if !bytes.Equal(m, manifest) || !bytes.Equal(r, results) || len(srv.Requests())+len(other.Requests()) != served {
			t.Errorf("resuming with %s changed the run", what)
		}
	}
	env(srv.URL(), "model-b")
	refused("another GRUE_MODEL", `model "model-a"`, `model "model-b"`, "from GRUE_MODEL and OPENAI_BASE_URL")
	env(other.URL(), "model-a")
	refused("another OPENAI_BASE_URL", srv.URL(), other.URL())

	// The same environment resumes.
	env(srv.URL(), "model-a")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out, Resume: true}); err != nil {
		t.Errorf("resuming with the same model: %v", err)
	}

	// A manifest from before endpoints were recorded: the records' model
	// decides.
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	m.Endpoints = nil
	if err := m.Write(out); err != nil {
		t.Fatal(err)
	}
	manifest, _ = os.ReadFile(filepath.Join(out, ManifestFile))
	env(srv.URL(), "model-b")
	refused("another model than the records'", `model "model-a"`, `model "model-b"`)
	env(srv.URL(), "model-a")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out, Resume: true}); err != nil {
		t.Errorf("resuming an old run with the same model: %v", err)
	}
}
