package harness

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A run directory written by the previous grue (times with nanoseconds,
// trajectories with locations_visited as the list and durations in
// nanoseconds) resumes, and its results and trajectories read as new
// ones.
func TestResumeRunOfPreviousVersion(t *testing.T) {
	cfg := &Config{
		Name:     "old",
		Variants: []Variant{{Name: "walk", Policy: PolicyWalkthrough}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2},
		MaxSteps: 5,
	}
	out := filepath.Join(t.TempDir(), "run")
	rs, err := Run(context.Background(), cfg, RunOptions{Out: out})
	if err != nil || rs.Len() != 2 {
		t.Fatalf("run: %v, %d records", err, rs.Len())
	}
	first, _ := rs.Lookup(EpisodeKey{"walk", "lantern", 1})

	// Rewrite it as the previous version wrote it, seed 2 not yet played.
	old := strings.Replace(jsonLine(t, first), first.Started.Format(time.RFC3339Nano),
		"2026-11-20T09:15:02.123456789+01:00", 1)
	if err := os.WriteFile(filepath.Join(out, ResultsFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	trPath := filepath.Join(out, first.Trajectory)
	b, err := os.ReadFile(trPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trPath, oldTrajectory(t, b), 0o644); err != nil {
		t.Fatal(err)
	}

	rs, err = Run(context.Background(), cfg, RunOptions{Out: out, Resume: true})
	if err != nil || rs.Len() != 2 || len(rs.Problems) != 0 {
		t.Fatalf("resume: %v, %d records, problems %v", err, rs.Len(), rs.Problems)
	}
	got, _ := rs.Lookup(EpisodeKey{"walk", "lantern", 1})
	if !got.Started.Equal(time.Date(2026, 11, 20, 8, 15, 2, 123456789, time.UTC)) {
		t.Errorf("old record's start %v", got.Started)
	}
	tr, err := ReadTrajectory(out, got)
	if err != nil {
		t.Fatal(err)
	}
	if tr.LocationsVisited != first.LocationsVisited || len(tr.Locations) != first.LocationsVisited {
		t.Errorf("old trajectory: %d locations %v, want %d", tr.LocationsVisited, tr.Locations, first.LocationsVisited)
	}
	if tr.Duration <= 0 || tr.History[0].Wall <= 0 {
		t.Errorf("old trajectory's durations did not read: run %v, step 1 %v", tr.Duration, tr.History[0].Wall)
	}
}

// oldTrajectory turns a trajectory file into the previous version's form.
func oldTrajectory(t *testing.T, b []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	toNS := func(m map[string]any, from, to string) {
		if v, ok := m[from].(float64); ok {
			m[to] = int64(v * 1e6)
			delete(m, from)
		}
	}
	m["locations_visited"] = m["locations"]
	delete(m, "locations")
	toNS(m, "duration_ms", "duration")
	for _, s := range m["history"].([]any) {
		step := s.(map[string]any)
		for _, k := range []string{"wall", "llm_time", "tool_time", "memory_time", "overhead"} {
			toNS(step, k+"_ms", k)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "_ms") {
		t.Fatalf("the old form still has a *_ms field: %s", out)
	}
	return out
}
