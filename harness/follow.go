package harness

import (
	"io"
	"time"
)

// Follower shows the progress of a run that other processes play (the
// shards of a cluster job), with the display Run draws: bars a variant on
// a terminal, else a line an episode. It learns of episodes from the
// shards' results files, so it runs on any host that sees the run
// directory.
type Follower struct {
	dir  string
	p    *progress
	seen map[EpisodeKey]bool
}

// NewFollower starts showing, on w, the progress of the run of cfg in run
// directory dir; bars forces bars on a w that is no terminal.
func NewFollower(dir string, cfg *Config, w io.Writer, bars bool) *Follower {
	var names []string
	for _, v := range cfg.Variants {
		names = append(names, v.Name)
	}
	return &Follower{dir: dir, p: newProgress(w, names, cfg.Episodes(), nil, bars || isTerminal(w)), seen: map[EpisodeKey]bool{}}
}

// Update reads the run's status at time now and shows the episodes
// recorded since the last update. Before any shard has started it returns
// a nil status and no error.
func (f *Follower) Update(now time.Time) (*Status, error) {
	if _, err := ReadShardManifests(f.dir); err != nil {
		return nil, nil // no shard has started yet
	}
	st, err := ReadStatus(f.dir, now)
	if err != nil {
		return nil, err
	}
	m, err := MergeShards(f.dir)
	if err != nil {
		return nil, err
	}
	for _, r := range m.Results.Records {
		if f.seen[r.Key()] {
			continue
		}
		f.seen[r.Key()] = true
		f.p.begin(EpisodeSpec{Variant: r.Variant})
		f.p.end(r)
	}
	return st, nil
}

// Printf writes a line above the bars, or among the lines.
func (f *Follower) Printf(format string, args ...any) { f.p.printf(format, args...) }

// Close stops the display.
func (f *Follower) Close() { f.p.close() }
