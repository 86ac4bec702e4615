package harness

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// ShardsDir is the folder of a sharded run directory that holds one run
// directory per shard: ShardsDir/<index>-of-<count>/ (Shard.Dir), each
// with its own manifest.json, results.jsonl and trajectories/. No two
// shards write to one file, so shards on different hosts can share a run
// directory on a network filesystem.
const ShardsDir = "shards"

// HeartbeatFile is the file a running shard rewrites every
// HeartbeatInterval: the host, process and time. A shard whose heartbeat
// is older than HeartbeatStale, and that has not finished, was killed.
const HeartbeatFile = "heartbeat"

// HeartbeatInterval is how often a running shard rewrites its heartbeat.
const HeartbeatInterval = 10 * time.Second

// HeartbeatStale is how old a heartbeat may be before the shard that
// wrote it is taken for dead.
const HeartbeatStale = 4 * HeartbeatInterval

// Shard is one part of an experiment's episodes: shard Index (from 0) of
// Count. The shards of a count split the episodes between them, each
// episode in exactly one (Shard.Episodes).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard reads a shard written "I/N", as --shard takes it: I from 0
// to N-1.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want I/N, the shard's index from 0 and the number of shards (0/4 to 3/4)", s)
	}
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N with two whole numbers", s)
	}
	sh := Shard{Index: idx, Count: count}
	if err := sh.Validate(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

// Environment variables ShardFromEnv reads.
const (
	// EnvSlurmArrayTaskID and EnvSlurmArrayTaskCount are set by Slurm in
	// each task of a job array (sbatch --array=0-N).
	EnvSlurmArrayTaskID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmArrayTaskCount = "SLURM_ARRAY_TASK_COUNT"
	// EnvJobCompletionIndex is set by Kubernetes in each pod of an
	// Indexed Job.
	EnvJobCompletionIndex = "JOB_COMPLETION_INDEX"
	// EnvShardCount is the number of shards of a Kubernetes Indexed Job
	// (its completions), which Kubernetes does not pass to the pod: grue
	// exp k8s sets it.
	EnvShardCount = "GRUE_SHARD_COUNT"
)

// ShardFromEnv returns the shard that the environment names: a Slurm
// array task (SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT, the array
// numbered from 0) or a Kubernetes Indexed Job's pod
// (JOB_COMPLETION_INDEX of GRUE_SHARD_COUNT). ok is false when none is
// set. getenv is os.Getenv, or a stand-in for tests.
func ShardFromEnv(getenv func(string) string) (sh Shard, ok bool, err error) {
	pairs := [][2]string{
		{EnvSlurmArrayTaskID, EnvSlurmArrayTaskCount},
		{EnvJobCompletionIndex, EnvShardCount},
	}
	for _, p := range pairs {
		idx := getenv(p[0])
		if idx == "" {
			continue
		}
		count := getenv(p[1])
		if count == "" {
			return Shard{}, false, fmt.Errorf("shard from the environment: %s is %s, but %s is not set: give --shard I/N", p[0], idx, p[1])
		}
		sh, err := ParseShard(idx + "/" + count)
		if err != nil {
			return Shard{}, false, fmt.Errorf("shard from the environment (%s=%s, %s=%s): %w", p[0], idx, p[1], count, err)
		}
		return sh, true, nil
	}
	return Shard{}, false, nil
}

// Validate reports whether the shard is one of its count.
func (s Shard) Validate() error {
	if s.Count < 1 {
		return fmt.Errorf("shard %s: the number of shards must be at least 1", s)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %s: the index must be from 0 to %d", s, s.Count-1)
	}
	return nil
}

// String returns "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Dir is the shard's run directory inside the experiment's:
// shards/003-of-008.
func (s Shard) Dir() string {
	w := max(3, len(strconv.Itoa(s.Count)))
	return filepath.Join(ShardsDir, fmt.Sprintf("%0*d-of-%0*d", w, s.Index, w, s.Count))
}

// shardDirName matches the name Shard.Dir gives a shard's folder.
var shardDirName = lazyregexp.New(`^(\d+)-of-(\d+)$`)

// shardOfDir reads the shard of a folder named as Shard.Dir names it.
func shardOfDir(name string) (Shard, bool) {
	m := shardDirName.FindStringSubmatch(name)
	if m == nil {
		return Shard{}, false
	}
	i, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	s := Shard{Index: i, Count: n}
	return s, s.Validate() == nil
}

// Episodes returns the shard's part of all: with the episodes ordered by
// variant, game and seed, every Count-th from the Index-th. Each shard
// gets the same number of episodes, give or take one, and of each
// variant, so that a slow variant does not fall to one shard; the split
// depends on the episodes alone, so every host computes the same one.
func (s Shard) Episodes(all []EpisodeSpec) []EpisodeSpec {
	sorted := slices.Clone(all)
	slices.SortStableFunc(sorted, func(a, b EpisodeSpec) int {
		return cmp.Or(variantOrder(all, a.Variant)-variantOrder(all, b.Variant), cmp.Compare(a.Game, b.Game), cmp.Compare(a.Seed, b.Seed))
	})
	var out []EpisodeSpec
	for i := s.Index; i < len(sorted); i += s.Count {
		out = append(out, sorted[i])
	}
	return out
}

// variantOrder is the position of variant v's first episode in all: the
// variants keep the config's order.
func variantOrder(all []EpisodeSpec, v string) int {
	return slices.IndexFunc(all, func(s EpisodeSpec) bool { return s.Variant == v })
}

// share returns the config with the part of the rate limit that one of
// count shards may use: the config's rate limit is the whole experiment's.
func (c *Config) share(count int) *Config {
	if count <= 1 || c.RateLimit <= 0 {
		return c
	}
	cc := *c
	cc.RateLimit = c.RateLimit / float64(count)
	return &cc
}

// Heartbeat is what a running shard writes in its HeartbeatFile.
type Heartbeat struct {
	Host string    `json:"host"`
	PID  int       `json:"pid"`
	Time time.Time `json:"time"`
}

// startHeartbeat writes dir's heartbeat now and every HeartbeatInterval
// until the returned function is called, which removes it.
func startHeartbeat(dir string) func() {
	host, _ := os.Hostname()
	path := filepath.Join(dir, HeartbeatFile)
	beat := func() {
		b := fmt.Appendf(nil, `{"host":%q,"pid":%d,"time":%q}`+"\n", host, os.Getpid(), stamp(time.Now()).Format(time.RFC3339Nano))
		_ = atomicfile.Write(path, b, 0o644) // a missed beat shows as a late one
	}
	beat()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(HeartbeatInterval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				beat()
			case <-stop:
				return
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		// A heartbeat left behind reads as stale, and the manifest's
		// finish time says the shard ended anyway.
		_ = os.Remove(path)
	}
}

// RunInfo is what a manifest says of the run's last start and its end:
// the host it ran on, the shard it played and when it finished. It is
// rewritten each time the run is started or resumed.
type RunInfo struct {
	// Host is the host the run was last started on.
	Host string `json:"host,omitempty"`
	// Shard is the part of the experiment the run plays, when sharded
	// (RunOptions.Shard); ShardEpisodes is how many episodes that is.
	Shard         *Shard `json:"shard,omitempty"`
	ShardEpisodes int    `json:"shard_episodes,omitempty"`
	// Finished is when the run last returned, nil while it runs (or when
	// it was killed); Stopped is why it stopped early, "" when it
	// played all it was to play.
	Finished *time.Time `json:"finished,omitempty"`
	Stopped  string     `json:"stopped,omitempty"`
}

// hostname is the host's name, "" when it cannot be had.
func hostname() string {
	h, _ := os.Hostname()
	return h
}

// useShard narrows a sharded run to its shard: its episodes of all, and
// its folder in the run directory.
func (r *runner) useShard(all []EpisodeSpec) ([]EpisodeSpec, error) {
	sh := r.opts.Shard
	if sh == nil {
		return all, nil
	}
	if err := sh.Validate(); err != nil {
		return nil, fmt.Errorf("run experiment: %w", err)
	}
	r.out = filepath.Join(r.out, sh.Dir())
	if r.opts.Resume && !exists(filepath.Join(r.out, ManifestFile)) {
		r.opts.Resume = false // a shard that never started starts now
	}
	if !r.opts.Resume {
		if m, err := ReadShardManifests(filepath.Dir(filepath.Dir(r.out))); err == nil {
			for _, other := range m {
				if other.ConfigHash != r.hash {
					return nil, fmt.Errorf("run experiment: %s holds shards of another config (shard %s, config hash %.12s, this config's %.12s): %w; run it into a new directory",
						filepath.Dir(filepath.Dir(r.out)), other.Dir, other.ConfigHash, r.hash, ErrHashMismatch)
				}
			}
		}
	}
	return sh.Episodes(all), nil
}

// shardCount is how many shards share the experiment: 1 when not sharded.
func (r *runner) shardCount() int {
	if r.opts.Shard == nil {
		return 1
	}
	return r.opts.Shard.Count
}

// noteRun records in the manifest where this start of the run is, and how
// many episodes the experiment and this shard have.
func (r *runner) noteRun(total, mine int) {
	r.manifest.Host = hostname()
	r.manifest.Finished, r.manifest.Stopped = nil, ""
	r.manifest.Episodes = total
	if r.opts.Shard != nil {
		sh := *r.opts.Shard
		r.manifest.Shard, r.manifest.ShardEpisodes = &sh, mine
	}
}

// finish records in the manifest that the run returned, stopped by
// cause when it is not nil.
func (r *runner) finish(cause error) error {
	now := stamp(time.Now())
	r.manifest.Finished = &now
	if r.clients != nil {
		r.clients.noteDropped(r.manifest.Endpoints)
	}
	if cause != nil {
		r.manifest.Stopped = cause.Error()
	}
	if err := r.manifest.Write(r.out); err != nil {
		return fmt.Errorf("run experiment: %w", err)
	}
	return nil
}
