package web

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/harness"
)

// A runs folder is input (issue 35, item 6): an episode.json that is a
// named pipe, a run whose manifest is a link to /dev/zero, a results file
// of one 256 MiB line and a record whose trajectory is outside the run
// neither hang the server, nor take it to huge memory, nor stop the good
// run from listing; the outside trajectory is not served (item 7).
func TestRunsFolderIsInput(t *testing.T) {
	runs := t.TempDir()
	cfg, err := harness.ParseConfig([]byte(quickYAML("good", 1, 60, "walkthrough")), "good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(runs, "good-1")
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: good}); err != nil {
		t.Fatal(err)
	}
	// A copy of the good run whose record points out of it.
	evil := filepath.Join(runs, "evil-1")
	if err := os.MkdirAll(filepath.Join(runs, "..", "outside"), 0o755); err != nil {
		t.Fatal(err)
	}
	rs, err := harness.LoadResults(good)
	if err != nil {
		t.Fatal(err)
	}
	rec := rs.Records[0]
	b, _ := os.ReadFile(filepath.Join(good, rec.Trajectory))
	if err := os.WriteFile(filepath.Join(runs, "..", "outside", "t.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := os.ReadFile(filepath.Join(good, harness.ManifestFile))
	if err := os.MkdirAll(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(evil, harness.ManifestFile), m, 0o644)
	rec.Trajectory = "../../outside/t.json"
	if err := harness.AppendRecord(filepath.Join(evil, harness.ResultsFile), rec); err != nil {
		t.Fatal(err)
	}
	// A results file of one huge line.
	huge := filepath.Join(runs, "huge-1")
	os.MkdirAll(huge, 0o755)
	os.WriteFile(filepath.Join(huge, harness.ManifestFile), m, 0o644)
	if err := os.WriteFile(filepath.Join(huge, harness.ResultsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(huge, harness.ResultsFile), 256<<20); err != nil {
		t.Fatal(err)
	}
	// A manifest that is a link to /dev/zero.
	zero := filepath.Join(runs, "zero-1")
	os.MkdirAll(zero, 0o755)
	if err := os.Symlink("/dev/zero", filepath.Join(zero, harness.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	// An episode whose info file is a named pipe.
	ep := filepath.Join(runs, EpisodesDir, "ep-1")
	os.MkdirAll(ep, 0o755)
	if err := syscall.Mkfifo(filepath.Join(ep, episodeFile), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}

	started := make(chan *testServer, 1)
	go func() { started <- newTestServer(t, Options{Runs: runs}) }()
	var s *testServer
	select {
	case s = <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not start: a file of the runs folder blocked it")
	}
	var list []ExperimentInfo
	s.json("GET", "/api/experiments", nil, 200, &list)
	byID := map[string]ExperimentInfo{}
	for _, x := range list {
		byID[x.ID] = x
	}
	if g := byID["good-1"]; g.Status != ExpComplete {
		t.Errorf("the good run is not listed as complete beside the broken ones: %+v", list)
	}
	if z, ok := byID["zero-1"]; !ok || z.Status != ExpFailed || z.Error == "" {
		t.Errorf("the run whose manifest is /dev/zero is not listed as unreadable: %+v", z)
	}
	q := "/api/experiments/evil-1/trajectory?variant=" + rec.Variant + "&game=" + rec.Game + "&seed=1"
	if code, body := s.do("GET", q, nil); code == 200 {
		t.Errorf("a trajectory outside the run was served: %.200s", body)
	}
}
