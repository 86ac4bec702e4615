package harness

import (
	"context"
	"path/filepath"
	"testing"
)

// A run recorded through the response cache replays with no endpoint at
// all, or another one: the cache's keys do not depend on the base URL.
func TestRunReplaysWithAnotherOrNoEndpoint(t *testing.T) {
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "HF_TOKEN", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	srv := playerServer(t, 0)
	cache := filepath.Join(t.TempDir(), "cache")
	cfg := &Config{Name: "rec", Games: []string{"lantern"}, Seeds: []int64{1}, MaxSteps: 4,
		Variants: []Variant{{Name: "model", Model: "scripted", BaseURL: srv.URL()}},
		Cache:    CacheConfig{Dir: cache, Mode: "read-write"}}
	rec, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "rec")})
	if err != nil {
		t.Fatal(err)
	}
	want := rec.Records[0]
	if want.Failed() {
		t.Fatalf("recording failed: %s", want.Error)
	}
	srv.Close()

	for name, base := range map[string]string{"no endpoint": "", "another endpoint": "http://127.0.0.1:9/v1"} {
		replay := &Config{Name: "rec", Games: cfg.Games, Seeds: cfg.Seeds, MaxSteps: cfg.MaxSteps,
			Variants: []Variant{{Name: "model", Model: "scripted", BaseURL: base}},
			Cache:    CacheConfig{Dir: cache, Mode: "replay"}}
		rs, err := Run(context.Background(), replay, RunOptions{Out: filepath.Join(t.TempDir(), "replay")})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := rs.Records[0]
		if got.Failed() || got.FinalScore != want.FinalScore || got.Steps != want.Steps {
			t.Errorf("%s: replayed score %d in %d steps (error %q), recorded %d in %d", name, got.FinalScore, got.Steps, got.Error, want.FinalScore, want.Steps)
		}
	}
}
