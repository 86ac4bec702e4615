package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/grue-lab/grue/internal/atomicfile"
)

// shardRun is the shards of a run directory as read: each one's manifest
// and results, in the order of their folders.
type shardRun struct {
	dir       string
	manifests []ShardManifest
	sets      []*ResultSet
}

// loadShards reads every shard of run directory dir (or the run itself
// when it is not sharded), refusing shards of different configs.
func loadShards(dir string) (*shardRun, error) {
	ms, err := ReadShardManifests(dir)
	if err != nil {
		return nil, err
	}
	sr := &shardRun{dir: dir, manifests: ms}
	for _, m := range ms {
		if m.ConfigHash != ms[0].ConfigHash {
			return nil, fmt.Errorf("%s: shard %s has config hash %.12s and shard %s %.12s: %w; shards of one run directory must run one config",
				dir, m.Dir, m.ConfigHash, ms[0].Dir, ms[0].ConfigHash, ErrHashMismatch)
		}
		if m.Config == nil {
			return nil, fmt.Errorf("%s: the manifest of %s holds no config", dir, cmpDir(m.Dir))
		}
		rs := &ResultSet{}
		// A shard just started has its manifest and not yet its results.
		if exists(filepath.Join(dir, m.Dir, ResultsFile)) {
			if rs, err = LoadResults(filepath.Join(dir, m.Dir)); err != nil {
				return nil, err
			}
		}
		for _, rec := range rs.Records {
			if rec.ConfigHash != "" && rec.ConfigHash != m.ConfigHash {
				return nil, fmt.Errorf("%s: %s holds a record of %s with config hash %.12s, not its manifest's %.12s: %w",
					dir, cmpDir(m.Dir), rec.Key(), rec.ConfigHash, m.ConfigHash, ErrHashMismatch)
			}
		}
		sr.sets = append(sr.sets, rs)
	}
	return sr, nil
}

// cmpDir names a shard folder for messages: "the run" for "".
func cmpDir(d string) string {
	if d == "" {
		return "the run"
	}
	return d
}

// Duplicate is an episode recorded by more than one shard, and the shard
// whose record was kept.
type Duplicate struct {
	Key  EpisodeKey `json:"key"`
	Kept string     `json:"kept"`
	// Dropped are the shard folders whose records of Key were left out.
	Dropped []string `json:"dropped"`
}

// Merged is the records of all the shards of a run directory, one for
// each episode.
type Merged struct {
	Dir        string
	Manifest   *Manifest
	Results    *ResultSet
	Duplicates []Duplicate
	// Problems are those the shards' results files had, with their file.
	Problems []LoadProblem
}

// merge keeps one record of each episode: when shards disagree (a run
// directory played with two shard counts, or a shard restarted by hand),
// a record that did not fail beats one that did, and then the shard
// whose folder sorts first wins. The result does not depend on when the
// shards ran or the order they are read in. Each record's trajectory is
// made relative to the run directory.
func (sr *shardRun) merge() *Merged {
	out := &Merged{Dir: sr.dir, Results: &ResultSet{}}
	type pick struct {
		rec   EpisodeRecord
		shard string
	}
	best := map[EpisodeKey]pick{}
	dups := map[EpisodeKey]*Duplicate{}
	var order []EpisodeKey
	for i, m := range sr.manifests {
		out.Problems = append(out.Problems, sr.sets[i].Problems...)
		for _, rec := range sr.sets[i].Records {
			if rec.Trajectory != "" {
				rec.Trajectory = filepath.ToSlash(filepath.Join(m.Dir, rec.Trajectory))
			}
			k := rec.Key()
			old, had := best[k]
			if !had {
				best[k] = pick{rec, m.Dir}
				order = append(order, k)
				continue
			}
			d := dups[k]
			if d == nil {
				d = &Duplicate{Key: k}
				dups[k] = d
			}
			if better(rec, m.Dir, old.rec, old.shard) {
				d.Dropped = append(d.Dropped, old.shard)
				best[k] = pick{rec, m.Dir}
			} else {
				d.Dropped = append(d.Dropped, m.Dir)
			}
		}
	}
	// The config's order, then any record of an episode the config does
	// not have (there should be none) in the order read.
	pos := map[EpisodeKey]int{}
	for i, s := range sr.manifests[0].Config.Episodes() {
		pos[s.Key()] = i
	}
	slices.SortStableFunc(order, func(a, b EpisodeKey) int {
		pa, oka := pos[a]
		pb, okb := pos[b]
		switch {
		case oka && okb:
			return pa - pb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	for _, k := range order {
		out.Results.Add(best[k].rec)
		if d := dups[k]; d != nil {
			d.Kept = best[k].shard
			slices.Sort(d.Dropped)
			out.Duplicates = append(out.Duplicates, *d)
		}
	}
	out.Manifest = sr.mergedManifest()
	return out
}

// better reports whether record a of shard folder sa is kept over record
// b of shard folder sb.
func better(a EpisodeRecord, sa string, b EpisodeRecord, sb string) bool {
	if a.Failed() != b.Failed() {
		return !a.Failed()
	}
	return sa < sb
}

// mergedManifest is the manifest of the merged results: the config, the
// earliest start and the latest finish of the shards.
func (sr *shardRun) mergedManifest() *Manifest {
	first := sr.manifests[0].Manifest
	m := &Manifest{Config: first.Config, ConfigHash: first.ConfigHash, ConfigFile: first.ConfigFile,
		GrueVersion: first.GrueVersion, Started: first.Started, Command: first.Command, Episodes: len(first.Config.Episodes()),
		Baseline: first.Baseline, Benchmark: first.Benchmark}
	for _, s := range sr.manifests {
		if s.Started.Before(m.Started) {
			m.Started = s.Started
		}
		if s.Finished != nil && (m.Finished == nil || s.Finished.After(*m.Finished)) {
			f := *s.Finished
			m.Finished = &f
		}
	}
	return m
}

// MergeShards reads every shard of run directory dir and keeps one record
// of each episode (see Merged): the results of the whole experiment. It
// refuses shards whose config hash differs (ErrHashMismatch). A run that
// is not sharded merges to its own results.
func MergeShards(dir string) (*Merged, error) {
	sr, err := loadShards(dir)
	if err != nil {
		return nil, fmt.Errorf("merge shards: %w", err)
	}
	return sr.merge(), nil
}

// LoadRun reads the results of run directories as LoadResults does, the
// shards of a sharded one merged (MergeShards). Results files named
// directly are read as they are.
func LoadRun(paths ...string) (*ResultSet, error) {
	if !slices.ContainsFunc(paths, IsSharded) {
		return LoadResults(paths...)
	}
	parts := make([]*ResultSet, 0, len(paths))
	for _, p := range paths {
		var part *ResultSet
		if IsSharded(p) {
			m, err := MergeShards(p)
			if err != nil {
				return nil, fmt.Errorf("load results: %w", err)
			}
			part = m.Results
			part.Problems = m.Problems
			abs, err := filepath.Abs(p)
			if err != nil {
				abs = p
			}
			part.Runs = []RunSource{sourceOf(p, filepath.Base(abs), m.Manifest)}
		} else {
			var err error
			if part, err = loadOne(p); err != nil {
				return nil, err
			}
		}
		parts = append(parts, part)
	}
	if len(parts) == 1 {
		parts[0].Runs[0].Variants = parts[0].Variants()
		return parts[0], nil
	}
	return combine(parts), nil
}

// Write writes the merged results into the run directory: results.jsonl
// (the records in the config's order) and manifest.json, each replaced
// atomically, so that every tool that reads a run directory reads the
// merged run. The shards are left as they are. It refuses a run
// directory that is not sharded, whose manifest it would replace.
func (m *Merged) Write() error {
	if !IsSharded(m.Dir) {
		return fmt.Errorf("write merged results: %s is not sharded: its results are already one file", m.Dir)
	}
	var b bytes.Buffer
	for _, r := range m.Results.Records {
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("write merged results: %s: %w", r.Key(), err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := atomicfile.Write(filepath.Join(m.Dir, ResultsFile), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write merged results: %w", err)
	}
	if m.Manifest.Finished == nil {
		now := stamp(time.Now())
		m.Manifest.Finished = &now
	}
	if err := m.Manifest.Write(m.Dir); err != nil {
		return fmt.Errorf("write merged results: %w", err)
	}
	return nil
}
