package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/harness"
)

// listOne starts a server on runs, lists the experiments, stops the
// server and returns the one run listed.
func listOne(t *testing.T, runs string) ExperimentInfo {
	t.Helper()
	ts := newTestServer(t, Options{Runs: runs})
	var list []ExperimentInfo
	ts.json("GET", "/api/experiments", nil, http.StatusOK, &list)
	ts.close()
	if len(list) != 1 {
		t.Fatalf("listed %d runs: %+v", len(list), list)
	}
	return list[0]
}

// A restarted server lists a run from the summaries its predecessor
// kept while the run's files are unchanged, reads the run again once its
// results change, and lists it all the same when the kept file is
// garbage. The list counts records as harness does: a failed episode
// played again counts once, a line that is no record not at all.
func TestExperimentSummariesKept(t *testing.T) {
	runs := t.TempDir()
	cfg, err := harness.ParseConfig([]byte(quickYAML("kept", 2, 60, "walkthrough", "short=walkthrough")), "kept.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(runs, "kept-1")
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: dir}); err != nil {
		t.Fatal(err)
	}
	first := listOne(t, runs)
	if first.Name != "kept" || first.Recorded != 4 || first.Status != ExpComplete || first.Variants[0].MeanScore != 60 {
		t.Fatalf("first list: %+v", first)
	}
	kept := filepath.Join(runs, SummariesFile)
	data, err := os.ReadFile(kept)
	if err != nil {
		t.Fatalf("no summaries kept: %v", err)
	}

	// Unchanged files: the kept summary is what is listed.
	var d summariesDisk
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	r := d.Runs["kept-1"]
	r.Info.Name = "from-the-kept-file"
	d.Runs["kept-1"] = r
	data, _ = json.Marshal(d)
	if err := os.WriteFile(kept, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := listOne(t, runs); got.Name != "from-the-kept-file" {
		t.Errorf("the kept summary was not used: %+v", got)
	}

	// Changed results: read again, as harness reads them.
	rs, err := harness.LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := rs.ByVariant("walkthrough").Records[0]
	failed := rec
	failed.Seed, failed.Error = 99, "model unreachable"
	retried := failed
	retried.Error, retried.FinalScore = "", 30
	f, err := os.OpenFile(filepath.Join(dir, harness.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []harness.EpisodeRecord{failed, retried} {
		line, _ := json.Marshal(r)
		f.Write(append(line, '\n'))
	}
	f.WriteString("{\"variant\": \"walkthrough\", \"game\": \"lan\n")
	f.Close()
	got := listOne(t, runs)
	if got.Name != "kept" || got.Recorded != 5 || got.Failed != 0 || got.Variants[0].Episodes != 3 || got.Variants[0].MeanScore != 50 {
		t.Errorf("after new results: %+v", got)
	}

	if err := os.WriteFile(kept, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again := listOne(t, runs); again.Name != "kept" || again.Recorded != 5 {
		t.Errorf("with a garbage summaries file: %+v", again)
	}
	if data, _ := os.ReadFile(kept); !strings.HasPrefix(string(data), "{") {
		t.Errorf("the garbage file was not replaced: %.40s", data)
	}
}
