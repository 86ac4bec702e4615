package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/harness"
)

// writeConfig writes an experiment config into dir.
func writeConfig(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const shardedConfig = `name: sharded
variants:
  - name: walkthrough
    policy: walkthrough
  - name: random
    policy: random
games: [lantern]
seeds: [1, 2, 3, 4, 5]
max_steps: 8
parallel: 2
`

// grue exp run takes its shard from --shard or from a Slurm array task's
// environment; status names the shards' states and the missing episodes;
// merge refuses a run with episodes missing (unless --partial) and then
// merges; compare reads the shards as one run.
func TestExpRunShardStatusMerge(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sharded.yaml", shardedConfig)
	out := filepath.Join(dir, "run")

	if _, stderr, code := grueExp(t, "run", cfg, "--shard", "0/2", "-q"); code != 2 || !strings.Contains(stderr, "--shard needs --out") {
		t.Errorf("--shard without --out: exit %d: %s", code, stderr)
	}
	if _, stderr, code := grueExp(t, "run", cfg, "--out", out, "--shard", "2/2", "-q"); code != 2 || !strings.Contains(stderr, "from 0 to 1") {
		t.Errorf("--shard 2/2: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := grueExp(t, "run", cfg, "--out", out, "--shard", "0/2", "-q")
	if code != 0 || !strings.Contains(stdout, "(5 of 5 episodes)") || !strings.Contains(stdout, filepath.Join(out, "shards", "000-of-002")) {
		t.Fatalf("shard 0/2: exit %d\n%s\n%s", code, stdout, stderr)
	}

	stdout, _, code = grueExp(t, "status", out)
	if code != 1 {
		t.Errorf("status of a half-done run: exit %d, want 1", code)
	}
	for _, s := range []string{"shards/000-of-002", "done", "shards/001-of-002", "pending", "5/10 episodes", "missing 5:"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("status lacks %q:\n%s", s, stdout)
		}
	}
	if _, stderr, code := grueExp(t, "merge", out); code != 1 || !strings.Contains(stderr, "5 of 10 episodes are missing") {
		t.Errorf("merge of a half-done run: exit %d: %s", code, stderr)
	}
	if stdout, _, code := grueExp(t, "merge", out, "--partial"); code != 0 || !strings.Contains(stdout, "5 of 10 episodes") {
		t.Errorf("merge --partial: exit %d: %s", code, stdout)
	}

	// The other shard, as a Slurm array task would run it.
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
	if stdout, stderr, code := grueExp(t, "run", cfg, "--out", out, "--resume", "-q"); code != 0 || !strings.Contains(stdout, "001-of-002") {
		t.Fatalf("shard from SLURM_ARRAY_TASK_ID: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if stdout, _, code := grueExp(t, "status", out); code != 0 || !strings.Contains(stdout, "10/10 episodes") {
		t.Errorf("status when done: exit %d\n%s", code, stdout)
	}
	if stdout, stderr, code := grueExp(t, "merge", out); code != 0 || !strings.Contains(stdout, "10 of 10 episodes, 0 duplicates") {
		t.Errorf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	whole := filepath.Join(dir, "whole")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	if _, stderr, code := grueExp(t, "run", cfg, "--out", whole, "-q"); code != 0 {
		t.Fatal(stderr)
	}
	a, _ := harness.LoadResults(out)
	b, _ := harness.LoadResults(whole)
	sameOutcomes(t, a, b)
	// compare reads the shards (not only the merged file) as one run.
	if err := os.Remove(filepath.Join(out, harness.ResultsFile)); err != nil {
		t.Fatal(err)
	}
	got, _, code := grueExp(t, "compare", out, "--format", "csv")
	want, _, _ := grueExp(t, "compare", whole, "--format", "csv")
	if code != 0 || dropColumn(got, "mean_duration_s") != dropColumn(want, "mean_duration_s") {
		t.Errorf("compare of the shards:\n%s\nof the unsharded run:\n%s", got, want)
	}
}

// dropColumn removes the named column from CSV text (simple fields only).
func dropColumn(csv, name string) string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	col := -1
	for i, h := range strings.Split(lines[0], ",") {
		if h == name {
			col = i
		}
	}
	if col < 0 {
		return csv
	}
	for i, l := range lines {
		f := strings.Split(l, ",")
		if col < len(f) {
			f = append(f[:col], f[col+1:]...)
		}
		lines[i] = strings.Join(f, ",")
	}
	return strings.Join(lines, "\n")
}

// A simulated large run on one machine: 2,000 baseline episodes over 8
// shards, each its own grue process, as 8 array tasks would be. It fails
// when an episode is lost or duplicated, and reports the time to play,
// and the time and peak memory of status, merge and compare on the
// results (figures in docs/scaling.md):
//
//	go test -run '^$' -bench ShardedRun2000 -benchtime 1x ./cmd/grue
func BenchmarkShardedRun2000(b *testing.B) {
	for range b.N {
		shardedRun2000(b)
	}
}

func shardedRun2000(t *testing.B) {
	t.Helper()
	grue, err := exec.LookPath("grue")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "large.yaml", `name: large
variants:
  - name: walkthrough
    policy: walkthrough
  - name: random
    policy: random
games: [lantern]
trials: 1000
max_steps: 10
parallel: 1
`)
	out := filepath.Join(dir, "run")
	start := time.Now()
	var procs []*exec.Cmd
	for i := range 8 {
		cmd := exec.Command(grue, "exp", "run", cfg, "--out", out, "--shard", fmt.Sprintf("%d/8", i), "-q")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("shard %d/8: %v: %s", i, err, p.Stderr.(*bytes.Buffer))
		}
	}
	played := time.Since(start)

	timed := func(args ...string) (string, time.Duration, int64) {
		cmd := exec.CommandContext(context.Background(), grue, args...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("grue %v: %v\n%s", args, err, e.String())
		}
		took := time.Since(t0)
		return o.String(), took, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	}
	_, statusTook, statusRSS := timed("exp", "status", out)
	_, mergeTook, mergeRSS := timed("exp", "merge", out)
	_, compareTook, compareRSS := timed("exp", "compare", out)

	rs, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[harness.EpisodeKey]bool{}
	for _, r := range rs.Records {
		if seen[r.Key()] {
			t.Errorf("%s twice", r.Key())
		}
		seen[r.Key()] = true
	}
	lines := 0
	for i := range 8 {
		b, _ := os.ReadFile(filepath.Join(out, harness.Shard{Index: i, Count: 8}.Dir(), harness.ResultsFile))
		lines += bytes.Count(b, []byte("\n"))
	}
	if rs.Len() != 2000 || len(rs.Problems) != 0 || lines != 2000 {
		t.Errorf("%d merged records (problems %v) from %d shard lines; want 2000 and 2000", rs.Len(), rs.Problems, lines)
	}
	t.ReportMetric(played.Seconds(), "play-s")
	t.ReportMetric(float64(statusTook.Milliseconds()), "status-ms")
	t.ReportMetric(float64(mergeTook.Milliseconds()), "merge-ms")
	t.ReportMetric(float64(compareTook.Milliseconds()), "compare-ms")
	t.ReportMetric(float64(max(statusRSS, mergeRSS, compareRSS)>>10), "peak-rss-MiB")
	t.Logf("2000 episodes over 8 shard processes: played in %v; status %v (max RSS %d MiB), merge %v (%d MiB), compare %v (%d MiB)",
		played.Round(time.Millisecond), statusTook.Round(time.Millisecond), statusRSS>>10, mergeTook.Round(time.Millisecond), mergeRSS>>10,
		compareTook.Round(time.Millisecond), compareRSS>>10)
}
