package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// playerCommands are what the scripted model plays, in turn.
var playerCommands = []string{"look", "west", "open toolbox", "take lantern", "east", "inventory", "south", "north", "examine me", "frobnicate"}

var stepHeader = regexp.MustCompile(`\[Step (\d+) `)

// playerReply answers a request as a plausible model would, in the
// THOUGHT/TOOL/ARGS format: a command chosen from the step number and the
// request's seed, and now and then a look at the map. It depends on the
// request alone, so that runs are reproducible whatever the order in which
// parallel episodes ask.
func playerReply(req llmtest.Request) llmtest.Response {
	step := 1
	if m := stepHeader.FindStringSubmatch(req.LastUser()); m != nil {
		step, _ = strconv.Atoi(m[1])
	}
	seed := 0
	if req.Seed != nil {
		seed = *req.Seed
	}
	if step%4 == 0 {
		return llmtest.Text("THOUGHT: Where have I been?\nTOOL: get_map\nARGS: {}")
	}
	cmd := playerCommands[(step+seed)%len(playerCommands)]
	return llmtest.Text(fmt.Sprintf("THOUGHT: I will try %s.\nTOOL: play_action\nARGS: {\"action\": %q}", cmd, cmd))
}

// playerServer is a local model server that plays like playerReply,
// answering after delay.
func playerServer(t testing.TB, delay time.Duration) *llmtest.Server {
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	srv.Fallback(func(req llmtest.Request) llmtest.Response { return playerReply(req).After(delay) })
	return srv
}

// baselineConfig is a baseline and two models on the default story. (The
// random and explorer baselines ask the game for its valid actions at
// every step, which is slow under the race detector: the experiments'
// tests in cmd/grue play them.)
func baselineConfig(srv *llmtest.Server, seeds ...int64) *Config {
	return &Config{
		Name: "test",
		Variants: []Variant{
			{Name: "hot", Model: "scripted", BaseURL: srv.URL(), Temperature: ptr(1.0)},
			{Name: "walk", Policy: PolicyWalkthrough},
			{Name: "model", Model: "scripted", BaseURL: srv.URL(), Memory: "window", Window: 3},
		},
		Games:    []string{"lantern"},
		Seeds:    seeds,
		MaxSteps: 12,
		Parallel: 3,
	}
}

func ptr[T any](v T) *T { return &v }

// comparable is a record without what changes from run to run: times.
func comparable(r EpisodeRecord) EpisodeRecord {
	r.Started, r.Finished, r.DurationMS = time.Time{}, time.Time{}, 0
	return r
}

func TestRunExperiment(t *testing.T) {
	srv := playerServer(t, 0)
	cfg := baselineConfig(srv, 1, 2)
	out := filepath.Join(t.TempDir(), "run")
	var log bytes.Buffer
	rs, err := Run(context.Background(), cfg, RunOptions{Out: out, Progress: &log, Command: []string{"grue", "exp", "run"}, Version: "test-version"})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 6 || len(rs.Problems) > 0 {
		t.Fatalf("%d records (problems %v), want 3 variants x 2 seeds", rs.Len(), rs.Problems)
	}
	for _, r := range rs.Records {
		if r.Failed() || r.Steps == 0 || r.ConfigHash != cfg.Hash() || r.GrueVersion != "test-version" || len(r.ScoreByStep) != r.Steps {
			t.Errorf("record %s: %+v", r.Key(), r)
		}
		tr, err := ReadTrajectory(out, r)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Variant != r.Variant || tr.Seed != r.Seed || len(tr.History) != r.Steps || tr.FinalScore != r.FinalScore {
			t.Errorf("trajectory %s does not match its record", r.Trajectory)
		}
		want := LLMSeed(0, r.Variant, r.Game, r.Seed)
		if r.LLMSeed != want {
			t.Errorf("%s: llm seed %d, want %d", r.Key(), r.LLMSeed, want)
		}
	}
	walk, _ := rs.Lookup(EpisodeKey{"walk", "lantern", 1})
	if walk.FinalScore == 0 || walk.Model != "" {
		t.Errorf("the walkthrough scored %d in 12 steps (model %q)", walk.FinalScore, walk.Model)
	}
	model, _ := rs.Lookup(EpisodeKey{"model", "lantern", 2})
	if model.Model != "scripted" || model.Tokens.TotalTokens == 0 || model.InvalidActions == 0 {
		t.Errorf("the model's record: model %q, tokens %+v, invalid %d", model.Model, model.Tokens, model.InvalidActions)
	}
	// Each model request carried its episode's seed.
	seeds := map[int]bool{}
	for _, req := range srv.Requests() {
		if req.Seed != nil {
			seeds[*req.Seed] = true
		}
	}
	if !seeds[int(model.LLMSeed)] || len(seeds) != 4 {
		t.Errorf("seeds sent: %v, want the 4 model episodes' (%d...)", seeds, model.LLMSeed)
	}

	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.ConfigHash != cfg.Hash() || m.GrueVersion != "test-version" || m.Episodes != 6 || m.Started.IsZero() ||
		len(m.Endpoints) != 2 || m.Endpoints[1].Model != "scripted" || m.Config.Name != "test" || len(m.Command) != 3 {
		t.Errorf("manifest: %+v", m)
	}
	lines := strings.Count(log.String(), "\n")
	if !strings.Contains(log.String(), "test: 6 episodes (3 variants x 1 games x 2 seeds), 3 at a time") || lines != 7 ||
		!regexp.MustCompile(`(?m)^\[6/6\] \S+/lantern/\d: score \d+/60 in \d+ steps`).MatchString(log.String()) {
		t.Errorf("progress:\n%s", log.String())
	}

	// Run again into the same directory: refused without --resume.
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out}); err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("a second run into %s: %v", out, err)
	}
	// Resumed, it has nothing to do.
	served := len(srv.Requests())
	again, err := Run(context.Background(), cfg, RunOptions{Out: out, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != 6 || len(again.Problems) > 0 || len(srv.Requests()) != served {
		t.Errorf("resuming a finished run: %d records, problems %v, %d new requests", again.Len(), again.Problems, len(srv.Requests())-served)
	}
	// Another config is refused.
	other := baselineConfig(srv, 1, 2, 3)
	if _, err := Run(context.Background(), other, RunOptions{Out: out, Resume: true}); !errors.Is(err, ErrHashMismatch) || !strings.Contains(err.Error(), "seeds: [1,2] in the run, [1,2,3] now") {
		t.Errorf("resuming with another config: %v, want the seeds named as what differs", err)
	}
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "none"), Resume: true}); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
		t.Errorf("resuming nothing: %v", err)
	}
}

func TestRunDrainAndResume(t *testing.T) {
	srv := playerServer(t, 5*time.Millisecond)
	cfg := baselineConfig(srv, 1, 2, 3, 4)
	cfg.Parallel = 2
	out := filepath.Join(t.TempDir(), "run")
	drain := make(chan struct{})
	var once sync.Once
	rs, err := Run(context.Background(), cfg, RunOptions{Out: out, Drain: drain, OnRecord: func(EpisodeRecord) {
		once.Do(func() { close(drain) })
	}})
	if err != nil {
		t.Fatal(err)
	}
	drained := rs.Len()
	if drained < 1 || drained > 3 {
		t.Fatalf("a drained run recorded %d episodes; want the one that ended and those in flight (at most 3)", drained)
	}
	rs, err = Run(context.Background(), cfg, RunOptions{Out: out, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 12 || len(rs.Problems) > 0 {
		t.Fatalf("after the resume: %d records, problems %v", rs.Len(), rs.Problems)
	}
	m, _ := ReadManifest(out)
	if len(m.Resumes) != 1 || m.Resumes[0].Remaining != 12-drained || m.Resumes[0].Time.IsZero() {
		t.Errorf("manifest resumes: %+v, want one with %d remaining", m.Resumes, 12-drained)
	}

	// The same experiment in one go gives the same records.
	whole, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "whole")})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range whole.Records {
		r, ok := rs.Lookup(w.Key())
		if !ok {
			t.Errorf("%s missing from the resumed run", w.Key())
			continue
		}
		if fmt.Sprintf("%+v", comparable(r)) != fmt.Sprintf("%+v", comparable(w)) {
			t.Errorf("%s differs:\nresumed %+v\nwhole   %+v", w.Key(), comparable(r), comparable(w))
		}
	}
}

func TestRunCancel(t *testing.T) {
	srv := playerServer(t, 20*time.Millisecond)
	cfg := baselineConfig(srv, 1, 2, 3)
	cfg.Variants = cfg.Variants[2:] // the model only: every step waits
	out := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	rs, err := Run(ctx, cfg, RunOptions{Out: out, Parallel: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if rs == nil || rs.Len() != 0 {
		t.Fatalf("a run cancelled in its first episode recorded %v", rs)
	}
	if _, err := os.Stat(filepath.Join(out, ManifestFile)); err != nil {
		t.Errorf("no manifest after a cancelled run: %v", err)
	}
}

func TestRunRetries(t *testing.T) {
	// Episode seed 1 fails its first attempt; seed 2 fails every time.
	srv := llmtest.NewServer()
	defer srv.Close()
	var mu sync.Mutex
	calls := map[int]int{}
	cfg := &Config{
		Name:     "flaky",
		Variants: []Variant{{Name: "model", Model: "scripted", BaseURL: srv.URL()}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2, 3},
		MaxSteps: 3,
		Retries:  2,
	}
	failing := map[int]int{int(LLMSeed(0, "model", "lantern", 1)): 1, int(LLMSeed(0, "model", "lantern", 2)): 99}
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		mu.Lock()
		defer mu.Unlock()
		seed := *req.Seed
		calls[seed]++
		if calls[seed] <= failing[seed] {
			return llmtest.Error(400, "", "bad request for this episode")
		}
		return playerReply(req)
	})
	var log bytes.Buffer
	rs, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run"), Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	check := func(seed int64, attempts int, failed bool) {
		t.Helper()
		r, ok := rs.Lookup(EpisodeKey{"model", "lantern", seed})
		if !ok || r.Attempts != attempts || r.Failed() != failed {
			t.Errorf("seed %d: attempts %d, error %q; want %d attempts, failed %v", seed, r.Attempts, r.Error, attempts, failed)
		}
		if !failed && r.Steps != 3 {
			t.Errorf("seed %d: %d steps after its retry, want 3", seed, r.Steps)
		}
	}
	check(1, 2, false)
	check(2, 3, true)
	check(3, 1, false)
	if got := strings.Count(log.String(), "retry model/lantern/"); got != 3 {
		t.Errorf("%d retries reported, want 3:\n%s", got, log.String())
	}
	if !strings.Contains(log.String(), "model/lantern/2: FAILED after 3 attempt(s): ") || !strings.Contains(log.String(), "bad request for this episode") {
		t.Errorf("the failure is not reported:\n%s", log.String())
	}
}

func TestRunRateLimit(t *testing.T) {
	srv := playerServer(t, 0)
	cfg := &Config{
		Name: "limited",
		Variants: []Variant{
			{Name: "a", Model: "scripted", BaseURL: srv.URL()},
			{Name: "b", Model: "scripted", BaseURL: srv.URL()},
		},
		Games:     []string{"lantern"},
		Seeds:     []int64{1, 2, 3},
		MaxSteps:  3,
		Parallel:  6,
		RateLimit: 10,
	}
	start := time.Now()
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")}); err != nil {
		t.Fatal(err)
	}
	// 18 requests to one endpoint at 10 a second, 10 at once at most:
	// the last 8 wait for 0.8 s.
	n := len(srv.Requests())
	if took := time.Since(start); n != 18 || took < 700*time.Millisecond {
		t.Errorf("%d requests took %v; at 10 a second (burst 10) 18 take at least 0.8 s", n, took)
	}
}

func TestRunNeedsAModel(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("GRUE_MODEL", "")
	cfg := &Config{Name: "nomodel", Variants: []Variant{{Name: "m"}}, Games: []string{"lantern"}}
	_, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")})
	if err == nil || !strings.Contains(err.Error(), "variant m: no model configured") {
		t.Errorf("a model variant with no model anywhere: %v", err)
	}
}

func TestTrajectoryPath(t *testing.T) {
	a := trajectoryPath(EpisodeSpec{Variant: "v1", Game: "zork1", Seed: 3})
	if a != "trajectories/v1/zork1_3.json" {
		t.Errorf("path %q", a)
	}
	b := trajectoryPath(EpisodeSpec{Variant: "v1", Game: "games/my story.z5", Seed: 3})
	c := trajectoryPath(EpisodeSpec{Variant: "v1", Game: "other/my story.z5", Seed: 3})
	if b == c || strings.ContainsAny(strings.TrimPrefix(b, "trajectories/v1/"), "/ ") || !strings.HasPrefix(b, "trajectories/v1/my_story-") {
		t.Errorf("paths %q and %q", b, c)
	}
}
