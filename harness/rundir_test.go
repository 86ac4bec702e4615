package harness

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A run directory is input: one made elsewhere (shared, unpacked from an
// archive, tampered with) may hold links that lead out of it. Resuming it
// must not append a record to, or write a trajectory into, anything
// outside it (issue 35, item 7).
func TestResumeDoesNotWriteThroughLinks(t *testing.T) {
	cfg := &Config{
		Name:     "walk",
		Variants: []Variant{{Name: "walk", Policy: PolicyWalkthrough}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2},
		MaxSteps: 3,
	}
	base := t.TempDir()
	out := filepath.Join(base, "runs", "r")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "victim")
	if err := os.MkdirAll(filepath.Join(victim, "tdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(victim, "profile")
	const secret = "export PATH=/usr/bin\n"
	if err := os.WriteFile(profile, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}

	// results.jsonl -> ../../victim/profile
	results := filepath.Join(out, ResultsFile)
	if err := os.Remove(results); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../victim/profile", results); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), cfg, RunOptions{Out: out, Resume: true})
	if err == nil {
		t.Error("a resume through results.jsonl linked out of the run directory succeeded")
	}
	if b, _ := os.ReadFile(profile); string(b) != secret {
		t.Errorf("the file results.jsonl links to was written:\n%s", b)
	}

	// trajectories -> ../../victim/tdir, with no records (all to play).
	if err := os.Remove(results); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(out, TrajectoriesDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../victim/tdir", filepath.Join(out, TrajectoriesDir)); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, RunOptions{Out: out, Resume: true})
	if err == nil {
		t.Error("a resume through trajectories linked out of the run directory succeeded")
	}
	var outside []string
	filepath.WalkDir(filepath.Join(victim, "tdir"), func(p string, d os.DirEntry, err error) error {
		if err == nil && p != filepath.Join(victim, "tdir") {
			outside = append(outside, p)
		}
		return nil
	})
	if len(outside) > 0 {
		t.Errorf("the resume wrote outside the run directory: %v", outside)
	}
}

// A record says where its trajectory is; the trajectory is read only from
// inside the run directory, whatever the record says (issue 35, item 7).
func TestReadTrajectoryStaysInTheRun(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "runs", "r")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, TrajectoriesDir), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal(Trajectory{Variant: "v", Game: "g", Seed: 1})
	if err := os.WriteFile(filepath.Join(outside, "t.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../outside/t.json", filepath.Join(dir, TrajectoriesDir, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, TrajectoriesDir, "own.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../../outside/t.json", filepath.Join(outside, "t.json"), "trajectories/link.json"} {
		rec := EpisodeRecord{Variant: "v", Game: "g", Seed: 1, Trajectory: name}
		if tr, err := ReadTrajectory(dir, rec); err == nil {
			t.Errorf("trajectory %q read from outside the run: %+v", name, tr)
		}
	}
	if _, err := ReadTrajectory(dir, EpisodeRecord{Variant: "v", Game: "g", Seed: 1, Trajectory: "trajectories/own.json"}); err != nil {
		t.Errorf("a trajectory inside the run: %v", err)
	}
}

// A results file of one huge line (here 256 MiB of a sparse file with no
// newline, then a record) is skipped line by line without being held in
// memory; the record after it loads (issue 35, item 6).
func TestLoadResultsHugeLine(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	const huge = 256 << 20
	rec, _ := json.Marshal(EpisodeRecord{Variant: "v", Game: "g", Seed: 1})
	if _, err := f.WriteAt(append([]byte("\n"), append(rec, '\n')...), huge); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rs, err := LoadResults(dir)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("loading allocated %d MiB for a file of one %d MiB line", grew>>20, huge>>20)
	}
	if rs.Len() != 1 {
		t.Errorf("%d records, want the one after the huge line", rs.Len())
	}
	if len(rs.Problems) != 1 || !strings.Contains(rs.Problems[0].Msg, "longer than the limit") {
		t.Errorf("problems %v, want the huge line reported", rs.Problems)
	}
}

// A run directory's files that are named pipes or links to a device
// (results, manifest, heartbeat) are refused at once, not read forever
// (issue 35, item 6).
func TestRunFilesNotRegular(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{ManifestFile, HeartbeatFile} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skipf("cannot make a named pipe here: %v", err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, ResultsFile)); err != nil {
		t.Fatal(err)
	}
	done := make(chan []error, 1)
	go func() {
		_, e1 := ReadManifest(dir)
		_, e2 := readHeartbeat(dir)
		_, e3 := LoadResults(dir)
		done <- []error{e1, e2, e3}
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if err == nil {
				t.Errorf("file %d read", i)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading the run directory blocked")
	}
}
