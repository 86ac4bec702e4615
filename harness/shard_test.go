package harness

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"0/1": {0, 1}, "3/4": {3, 4}, " 2 / 8 ": {2, 8}} {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "3", "4/4", "-1/4", "0/0", "a/b", "1/2/3"} {
		if _, err := ParseShard(in); err == nil || !strings.Contains(err.Error(), "shard") {
			t.Errorf("ParseShard(%q): error %v, want one naming the shard", in, err)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		env  func(string) string
		want Shard
		ok   bool
		err  string
	}{
		{env: env(), ok: false},
		{env: env("SLURM_ARRAY_TASK_ID", "2", "SLURM_ARRAY_TASK_COUNT", "5"), want: Shard{2, 5}, ok: true},
		{env: env("JOB_COMPLETION_INDEX", "0", "GRUE_SHARD_COUNT", "3"), want: Shard{0, 3}, ok: true},
		{env: env("JOB_COMPLETION_INDEX", "1"), err: "GRUE_SHARD_COUNT is not set"},
		{env: env("SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "5"), err: "from 0 to 4"},
	}
	for i, c := range cases {
		got, ok, err := ShardFromEnv(c.env)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("case %d: error %v, want %q", i, err, c.err)
			}
			continue
		}
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("case %d: %v %v %v; want %v %v", i, got, ok, err, c.want, c.ok)
		}
	}
}

// Every episode falls in exactly one shard, the shards are the same size
// give or take one, and so is each variant's part in them.
func TestShardEpisodesPartition(t *testing.T) {
	cfg := &Config{Variants: []Variant{{Name: "a"}, {Name: "b"}, {Name: "c"}}, Games: []string{"g1", "g2"}, Trials: 7}
	all := cfg.Episodes()
	for n := 1; n <= 9; n++ {
		seen := map[EpisodeKey]int{}
		for i := range n {
			part := Shard{i, n}.Episodes(all)
			if len(part) < len(all)/n || len(part) > len(all)/n+1 {
				t.Errorf("shard %d/%d has %d of %d episodes", i, n, len(part), len(all))
			}
			per := map[string]int{}
			for _, s := range part {
				seen[s.Key()]++
				per[s.Variant]++
			}
			for v, k := range per {
				if want := 14 / n; k < want || k > want+1 {
					t.Errorf("shard %d/%d has %d episodes of variant %s; want %d or %d", i, n, k, v, want, want+1)
				}
			}
		}
		if len(seen) != len(all) {
			t.Errorf("%d shards cover %d of %d episodes", n, len(seen), len(all))
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: %s is in %d of them", n, k, c)
			}
		}
	}
}

// shardConfig is a small experiment of baseline policies on the built-in
// story, cheap under the race detector (random asks for the valid
// actions at every step, the walkthrough does not).
func shardConfig() *Config {
	return &Config{
		Name:     "sharded",
		Variants: []Variant{{Name: "walk", Policy: PolicyWalkthrough}, {Name: "random", Policy: PolicyRandom}, {Name: "walk2", Policy: PolicyWalkthrough}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2, 3, 4},
		MaxSteps: 4,
		Parallel: 2,
	}
}

// The shards of a run, each played on its own into its own folder,
// merge into the results of the same run unsharded, times aside; the
// manifest of each says which shard it is and where it ran.
func TestShardedRunMergesToUnsharded(t *testing.T) {
	cfg := shardConfig()
	whole, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "whole")})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sharded")
	for i := range 3 {
		rs, err := Run(context.Background(), cfg, RunOptions{Out: dir, Shard: &Shard{i, 3}})
		if err != nil {
			t.Fatal(err)
		}
		if rs.Len() != 4 {
			t.Errorf("shard %d/3 recorded %d episodes, want 4 of 12", i, rs.Len())
		}
		m, err := ReadManifest(filepath.Join(dir, Shard{i, 3}.Dir()))
		if err != nil {
			t.Fatal(err)
		}
		host, _ := os.Hostname()
		if m.Shard == nil || *m.Shard != (Shard{i, 3}) || m.Host != host || m.Finished == nil || m.Episodes != 12 || m.ShardEpisodes != 4 {
			t.Errorf("shard %d manifest: shard %v host %q finished %v episodes %d/%d", i, m.Shard, m.Host, m.Finished, m.ShardEpisodes, m.Episodes)
		}
		if _, err := os.Stat(filepath.Join(dir, Shard{i, 3}.Dir(), HeartbeatFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("shard %d left its heartbeat: %v", i, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ResultsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the shards wrote a results file shared between them: %v", err)
	}
	merged, err := MergeShards(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Duplicates) != 0 {
		t.Errorf("duplicates %v", merged.Duplicates)
	}
	assertSameResults(t, merged.Results, whole)
	for _, r := range merged.Results.Records {
		if _, err := ReadTrajectory(dir, r); err != nil {
			t.Errorf("merged record's trajectory: %v", err)
		}
	}
	if err := merged.Write(); err != nil {
		t.Fatal(err)
	}
	file, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	assertSameResults(t, file, whole)
	loaded, err := LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	assertSameResults(t, loaded, whole)
	st, err := ReadStatus(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done() || st.Recorded != 12 || len(st.Shards) != 3 || len(st.Incomplete()) != 0 {
		t.Errorf("status %+v", st)
	}
}

// assertSameResults checks that got holds the records of want, times,
// order and trajectory folders aside.
func assertSameResults(t *testing.T, got, want *ResultSet) {
	t.Helper()
	strip := func(rs *ResultSet) []EpisodeRecord {
		var out []EpisodeRecord
		for _, r := range rs.Records {
			r = comparable(r)
			r.Trajectory = filepath.Base(filepath.Dir(r.Trajectory)) + "/" + filepath.Base(r.Trajectory)
			out = append(out, r)
		}
		slices.SortFunc(out, func(a, b EpisodeRecord) int { return strings.Compare(a.Key().String(), b.Key().String()) })
		return out
	}
	g, w := strip(got), strip(want)
	if len(g) != len(w) {
		t.Fatalf("%d records, want %d", len(g), len(w))
	}
	for i := range w {
		if !reflect.DeepEqual(g[i], w[i]) {
			t.Errorf("record %d: %+v\nwant %+v", i, g[i], w[i])
		}
	}
}

// A shard killed part way (here: stopped by its context after two
// episodes) reads as failed with the episodes it lacks named, a shard
// never started as pending; resuming each plays only what it lacks, and
// a shard resumed that never started starts.
func TestShardStatusAndResume(t *testing.T) {
	cfg := shardConfig()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: dir, Shard: &Shard{0, 3}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Run(ctx, cfg, RunOptions{Out: dir, Shard: &Shard{1, 3}, Parallel: 1, OnRecord: func(EpisodeRecord) {
		if n++; n == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled shard: %v", err)
	}
	st, err := ReadStatus(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, s := range st.Shards {
		states[s.Shard.String()] = s.State
	}
	want := map[string]string{"0/3": ShardDone, "1/3": ShardFailed, "2/3": ShardPending}
	if !maps.Equal(states, want) {
		t.Errorf("states %v, want %v", states, want)
	}
	if st.Recorded != 6 || len(st.Missing) != 6 || st.Done() {
		t.Errorf("status: %d/%d recorded, missing %v", st.Recorded, st.Episodes, st.Missing)
	}
	if got := st.Incomplete(); !slices.Equal(got, []Shard{{1, 3}, {2, 3}}) {
		t.Errorf("incomplete %v", got)
	}
	var b strings.Builder
	if err := st.Write(&b, 0); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"6/12 episodes", "missing 6:", st.Missing[0].String(), "pending", "context canceled"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("status table lacks %q:\n%s", s, b.String())
		}
	}
	for _, i := range []int{1, 2} {
		if _, err := Run(context.Background(), cfg, RunOptions{Out: dir, Shard: &Shard{i, 3}, Resume: true}); err != nil {
			t.Fatalf("resume shard %d: %v", i, err)
		}
	}
	m, err := MergeShards(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Results.Len() != 12 || len(m.Duplicates) != 0 || len(m.Problems) != 0 {
		t.Errorf("after resume: %d records, duplicates %v, problems %v", m.Results.Len(), m.Duplicates, m.Problems)
	}
	rs, _ := LoadResults(filepath.Join(dir, Shard{1, 3}.Dir()))
	if rs.Len() != 4 || len(rs.Problems) != 0 {
		t.Errorf("shard 1 holds %d records (problems %v), want its 4 once each", rs.Len(), rs.Problems)
	}
}

// A running shard (its heartbeat fresh, no finish) reads as running, and
// as failed once its heartbeat is stale.
func TestShardRunningByHeartbeat(t *testing.T) {
	cfg := shardConfig()
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	var st, later *Status
	_, _ = Run(ctx, cfg, RunOptions{Out: dir, Shard: &Shard{0, 2}, Parallel: 1, OnRecord: func(EpisodeRecord) {
		if st == nil {
			st, _ = ReadStatus(dir, time.Now())
			later, _ = ReadStatus(dir, time.Now().Add(HeartbeatStale+time.Second))
			cancel()
		}
	}})
	if st == nil || later == nil {
		t.Fatal("no status read while running")
	}
	if st.Shards[0].State != ShardRunning || later.Shards[0].State != ShardFailed {
		t.Errorf("while running: %s, with a stale heartbeat: %s", st.Shards[0].State, later.Shards[0].State)
	}
}

// Shards of another config are refused, by Run and by MergeShards; an
// episode recorded by two shards is kept once, the same one whatever the
// order: one that did not fail over one that did, then the first shard.
func TestMergeRefusesOtherConfigAndResolvesDuplicates(t *testing.T) {
	cfg := shardConfig()
	dir := filepath.Join(t.TempDir(), "run")
	for i := range 2 {
		if _, err := Run(context.Background(), cfg, RunOptions{Out: dir, Shard: &Shard{i, 2}}); err != nil {
			t.Fatal(err)
		}
	}
	// The same episodes again under another shard count: every one twice.
	if _, err := Run(context.Background(), cfg, RunOptions{Out: dir, Shard: &Shard{0, 1}}); err != nil {
		t.Fatal(err)
	}
	m, err := MergeShards(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Results.Len() != 12 || len(m.Duplicates) != 12 {
		t.Fatalf("%d records, %d duplicates; want 12 and 12", m.Results.Len(), len(m.Duplicates))
	}
	for _, d := range m.Duplicates {
		if d.Kept != (Shard{0, 1}).Dir() { // "shards/000-of-001" sorts first
			t.Errorf("%s: kept %s's record", d.Key, d.Kept)
		}
	}
	// A failed record in the first shard loses to the good one.
	path := filepath.Join(dir, Shard{0, 1}.Dir(), ResultsFile)
	bad := m.Results.Records[0]
	bad.Error, bad.Trajectory = "model down", ""
	if err := AppendRecord(path, bad); err != nil {
		t.Fatal(err)
	}
	m2, err := MergeShards(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := m2.Results.Lookup(bad.Key()); r.Failed() || !strings.HasPrefix(r.Trajectory, ShardsDir+"/") {
		t.Errorf("kept %+v, want the record that did not fail", r)
	}

	other := shardConfig()
	other.MaxSteps = 5
	_, err = Run(context.Background(), other, RunOptions{Out: dir, Shard: &Shard{1, 3}})
	if !errors.Is(err, ErrHashMismatch) {
		t.Errorf("a shard of another config in the run: %v, want ErrHashMismatch", err)
	}
	// Planted by hand (or run before the check): merge refuses it.
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	if _, err := Run(context.Background(), other, RunOptions{Out: elsewhere, Shard: &Shard{1, 3}}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(elsewhere, Shard{1, 3}.Dir()), filepath.Join(dir, Shard{1, 3}.Dir())); err != nil {
		t.Fatal(err)
	}
	if _, err := MergeShards(dir); !errors.Is(err, ErrHashMismatch) || !strings.Contains(err.Error(), Shard{1, 3}.Dir()) {
		t.Errorf("merge with a shard of another config: %v, want ErrHashMismatch naming the shard", err)
	}
	if _, err := ReadStatus(dir, time.Now()); !errors.Is(err, ErrHashMismatch) {
		t.Errorf("status with a shard of another config: %v, want ErrHashMismatch", err)
	}
}

// Each of N shards takes 1/N of the config's rate limit: two shards at
// 10 a second together send no more than one run would.
func TestShardRateLimitShare(t *testing.T) {
	srv := playerServer(t, 0)
	cfg := &Config{
		Name:      "limited",
		Variants:  []Variant{{Name: "a", Model: "scripted", BaseURL: srv.URL()}},
		Games:     []string{"lantern"},
		Seeds:     []int64{1, 2, 3, 4, 5, 6},
		MaxSteps:  3,
		Parallel:  6,
		RateLimit: 10,
	}
	if got := cfg.share(4).RateLimit; got != 2.5 || cfg.RateLimit != 10 {
		t.Errorf("share of 4: %g (config now %g), want 2.5 (config unchanged)", got, cfg.RateLimit)
	}
	start := time.Now()
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run"), Shard: &Shard{0, 2}}); err != nil {
		t.Fatal(err)
	}
	// 3 episodes of 3 requests at 5 a second (burst 5): the last 4 wait
	// 0.8 s; at the whole limit (burst 10) none would.
	if n, took := len(srv.Requests()), time.Since(start); n != 9 || took < 700*time.Millisecond {
		t.Errorf("%d requests took %v; at half of 10 a second 9 take at least 0.8 s", n, took)
	}
}
