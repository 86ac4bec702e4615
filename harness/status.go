package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grue-lab/grue/internal/boundedfile"
)

// ShardManifest is the manifest of one part of a run directory: a shard's
// folder (Dir, relative to the run directory, such as
// shards/001-of-004), or the run directory itself ("") when it is not
// sharded.
type ShardManifest struct {
	Dir string
	*Manifest
}

// IsSharded reports whether run directory dir holds shards (ShardsDir).
func IsSharded(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, ShardsDir))
	return err == nil && fi.IsDir()
}

// ReadShardManifests reads the manifests of the shards in run directory
// dir, in the order of their folders, or the run's own manifest when it
// is not sharded. A shard folder with no manifest yet is left out.
func ReadShardManifests(dir string) ([]ShardManifest, error) {
	if !IsSharded(dir) {
		m, err := ReadManifest(dir)
		if err != nil {
			return nil, err
		}
		return []ShardManifest{{Manifest: m}}, nil
	}
	entries, err := os.ReadDir(filepath.Join(dir, ShardsDir))
	if err != nil {
		return nil, fmt.Errorf("read shards: %w", err)
	}
	var out []ShardManifest
	for _, e := range entries {
		if _, ok := shardOfDir(e.Name()); !ok || !e.IsDir() {
			continue
		}
		rel := filepath.Join(ShardsDir, e.Name())
		m, err := ReadManifest(filepath.Join(dir, rel))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ShardManifest{Dir: rel, Manifest: m})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read shards: %s has no shard with a manifest yet", filepath.Join(dir, ShardsDir))
	}
	return out, nil
}

// Shard states, as Status gives them.
const (
	ShardDone    = "done"    // all its episodes have a record
	ShardRunning = "running" // its heartbeat is fresh
	ShardFailed  = "failed"  // it stopped, or was killed, with episodes left
	ShardPending = "pending" // it has not started
)

// ShardStatus is where one shard of a run stands.
type ShardStatus struct {
	Shard Shard  `json:"shard"`
	Dir   string `json:"dir"`
	State string `json:"state"`
	Host  string `json:"host,omitempty"`
	// Episodes is how many episodes the shard plays; Recorded how many
	// of them have a record, Failed how many of those are errors.
	Episodes int `json:"episodes"`
	Recorded int `json:"recorded"`
	Failed   int `json:"failed"`
	// Started is when the shard was first started, Finished when it last
	// returned (nil while running or when killed), Heartbeat when it last
	// said it was alive.
	Started   *time.Time `json:"started,omitempty"`
	Finished  *time.Time `json:"finished,omitempty"`
	Heartbeat *time.Time `json:"heartbeat,omitempty"`
	// Stopped is why the shard stopped early, when it said.
	Stopped string `json:"stopped,omitempty"`
}

// Status is where a run directory stands, sharded or not.
type Status struct {
	Dir        string `json:"dir"`
	Name       string `json:"name"`
	ConfigHash string `json:"config_hash"`
	// Episodes is how many episodes the experiment has; Recorded how many
	// of them have a record in some shard, Failed how many of those
	// records are errors.
	Episodes int           `json:"episodes"`
	Recorded int           `json:"recorded"`
	Failed   int           `json:"failed"`
	Shards   []ShardStatus `json:"shards"`
	// Missing are the episodes with no record, in the config's order.
	Missing []EpisodeKey `json:"missing,omitempty"`
	// Duplicates counts the episodes recorded by more than one shard
	// (MergeShards resolves them).
	Duplicates int `json:"duplicates,omitempty"`
}

// Done reports whether every episode has a record.
func (s *Status) Done() bool { return s.Recorded == s.Episodes }

// Incomplete returns the shards (of the run's shard count) that are not
// done: those to run again.
func (s *Status) Incomplete() []Shard {
	var out []Shard
	for _, sh := range s.Shards {
		if sh.State != ShardDone {
			out = append(out, sh.Shard)
		}
	}
	return out
}

// ReadStatus says where run directory dir stands at time now: for each
// shard whether it is done, running (its heartbeat is younger than
// HeartbeatStale), failed or pending (not started), and over the whole
// experiment how many episodes are recorded and which are missing. It
// reads the shards' manifests and results and nothing else, so it works
// on any host that sees the directory. A run that is not sharded reads as
// one shard.
func ReadStatus(dir string, now time.Time) (*Status, error) {
	sr, err := loadShards(dir)
	if err != nil {
		return nil, err
	}
	cfg := sr.manifests[0].Config
	st := &Status{Dir: dir, Name: cfg.Name, ConfigHash: sr.manifests[0].ConfigHash}
	all := cfg.Episodes()
	st.Episodes = len(all)
	counts := map[int]bool{}
	for i, m := range sr.manifests {
		st.Shards = append(st.Shards, shardStatus(dir, m, sr.sets[i], all, now))
		counts[st.Shards[len(st.Shards)-1].Shard.Count] = true
	}
	// The shards of each count that never started.
	for n := range counts {
		for i := range n {
			sh := Shard{Index: i, Count: n}
			if !slices.ContainsFunc(st.Shards, func(s ShardStatus) bool { return s.Shard == sh }) {
				st.Shards = append(st.Shards, ShardStatus{Shard: sh, Dir: sh.Dir(), State: ShardPending, Episodes: len(sh.Episodes(all))})
			}
		}
	}
	slices.SortFunc(st.Shards, func(a, b ShardStatus) int { return strings.Compare(a.Dir, b.Dir) })
	merged := sr.merge()
	st.Duplicates = len(merged.Duplicates)
	for _, s := range all {
		rec, ok := merged.Results.Lookup(s.Key())
		switch {
		case !ok:
			st.Missing = append(st.Missing, s.Key())
		case rec.Failed():
			st.Failed++
			st.Recorded++
		default:
			st.Recorded++
		}
	}
	return st, nil
}

// shardStatus is where one shard stands.
func shardStatus(dir string, m ShardManifest, rs *ResultSet, all []EpisodeSpec, now time.Time) ShardStatus {
	sh := Shard{Index: 0, Count: 1}
	if m.Shard != nil {
		sh = *m.Shard
	}
	st := ShardStatus{Shard: sh, Dir: m.Dir, Host: m.Host, Finished: m.Finished, Stopped: m.Stopped}
	started := m.Started
	st.Started = &started
	for _, s := range sh.Episodes(all) {
		st.Episodes++
		if rec, ok := rs.Lookup(s.Key()); ok {
			st.Recorded++
			if rec.Failed() {
				st.Failed++
			}
		}
	}
	if hb, err := readHeartbeat(filepath.Join(dir, m.Dir)); err == nil {
		st.Heartbeat = &hb.Time
	}
	switch {
	case st.Recorded == st.Episodes:
		st.State = ShardDone
	case m.Finished == nil && st.Heartbeat != nil && now.Sub(*st.Heartbeat) < HeartbeatStale:
		st.State = ShardRunning
	default:
		st.State = ShardFailed
	}
	return st
}

// maxHeartbeatBytes is the largest heartbeat file read: one is a line of
// JSON of a host, a process id and a time.
const maxHeartbeatBytes = 64 << 10

// readHeartbeat reads the heartbeat of the run in dir.
func readHeartbeat(dir string) (Heartbeat, error) {
	var hb Heartbeat
	b, err := boundedfile.ReadFileIn(dir, HeartbeatFile, maxHeartbeatBytes)
	if err != nil {
		return hb, err
	}
	if err := json.Unmarshal(b, &hb); err != nil {
		return hb, fmt.Errorf("heartbeat in %s: %w", dir, err)
	}
	return hb, nil
}

// Write prints the status as a table: a line a shard, then the whole run
// as "N/M episodes" and the missing episodes (the first limit of them; 0
// names them all).
func (s *Status) Write(w io.Writer, limit int) error {
	return s.WriteWidth(w, limit, DefaultTableWidth)
}

// statusFixed is the width of a status line's columns before its note.
const statusFixed = 20 + 1 + 8 + 1 + 9 + 1 + 20 + 1 + 9 + 1

// WriteWidth is Write with lines that fit width columns (at least 80): a
// shard's host and note are shortened with "…" to fit, and the missing
// episodes are wrapped.
func (s *Status) WriteWidth(w io.Writer, limit, width int) error {
	width = max(width, 80)
	ew := &errWriter{w: w}
	ew.printf("%s (config %.12s)\n", s.Dir, s.ConfigHash)
	ew.printf("%-20s %-8s %-9s %-20s %-9s %s\n", "SHARD", "STATE", "EPISODES", "HOST", "FOR", "NOTE")
	for _, sh := range s.Shards {
		took := ""
		if sh.Started != nil {
			end := sh.Finished
			if end == nil && sh.Heartbeat != nil {
				end = sh.Heartbeat
			}
			if end != nil {
				took = end.Sub(*sh.Started).Round(time.Second).String()
			}
		}
		note := sh.Stopped
		if sh.Failed > 0 {
			note = strings.TrimSpace(fmt.Sprintf("%d failed episodes; %s", sh.Failed, note))
		}
		if sh.State == ShardFailed && sh.Finished == nil && note == "" {
			note = "killed: no heartbeat since " + sh.Heartbeat.Format(time.RFC3339)
			if sh.Heartbeat == nil {
				note = "killed"
			}
		}
		name := sh.Dir
		if name == "" {
			name = "(not sharded)"
		}
		ew.printf("%-20s %-8s %-9s %-20s %-9s %s\n", fitCell(name, 20), sh.State, fmt.Sprintf("%d/%d", sh.Recorded, sh.Episodes),
			fitCell(sh.Host, 20), took, fitCell(strings.Join(strings.Fields(note), " "), width-statusFixed))
	}
	ew.printf("\n%d/%d episodes", s.Recorded, s.Episodes)
	if s.Failed > 0 {
		ew.printf(" (%d failed)", s.Failed)
	}
	if s.Duplicates > 0 {
		ew.printf(", %d recorded by more than one shard", s.Duplicates)
	}
	ew.printf("\n")
	if len(s.Missing) > 0 {
		line := fmt.Sprintf("missing %d:", len(s.Missing))
		add := func(word string) {
			if utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width {
				ew.printf("%s\n", line)
				line = " "
			}
			line += " " + word
		}
		for i, k := range s.Missing {
			if limit > 0 && i == limit {
				add(fmt.Sprintf("... and %d more", len(s.Missing)-limit))
				break
			}
			add(fitCell(k.String(), width-2))
		}
		ew.printf("%s\n", line)
	}
	return ew.err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// fitCell shortens s to n columns (runes), ending it with "…" when cut.
func fitCell(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
