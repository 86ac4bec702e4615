package web

import (
	"encoding/json"

	"errors"
	jsonv2 "github.com/go-json-experiment/json"
	"io"
	"os"
	"path/filepath"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// SummariesFile is the file under Options.Runs where the server keeps the
// summaries of the run directories it listed, each with the sizes and
// times of the run's manifest and results when it was read, so that a
// restarted server lists a thousand runs without reading their records
// again. It is only a cache: a run whose files changed since is read
// again, and a missing or unreadable file is the same as an empty one.
// The run directories themselves are never written to for the list.
const SummariesFile = ".grue-web-summaries.json"

// summariesVersion is the version of SummariesFile's format; a file of
// another version is ignored.
const summariesVersion = 1

// maxSummariesFile bounds what is read of SummariesFile.
const maxSummariesFile = 256 << 20

// summariesDisk is SummariesFile's content.
type summariesDisk struct {
	Version int                    `json:"version"`
	Runs    map[string]summaryDisk `json:"runs"`
}

// summaryDisk is one run's summary in SummariesFile.
type summaryDisk struct {
	Stamp string         `json:"stamp"`
	Open  bool           `json:"open"`
	Info  ExperimentInfo `json:"info"`
}

// loadSummaries fills the cache from SummariesFile, when there is one.
func (xs *experiments) loadSummaries() {
	data, err := boundedfile.ReadFile(filepath.Join(xs.s.opts.Runs, SummariesFile), maxSummariesFile)
	if err != nil {
		return
	}
	var d summariesDisk
	if json.Unmarshal(data, &d) != nil || d.Version != summariesVersion {
		return
	}
	xs.mu.Lock()
	defer xs.mu.Unlock()
	for id, r := range d.Runs {
		if r.Stamp == "" || !idPattern.MatchString(id) {
			continue
		}
		info := r.Info
		info.ID, info.open = id, r.Open
		xs.cache[id] = cachedRun{stamp: r.Stamp, info: info}
	}
}

// saveSummaries writes the cache to SummariesFile when it changed since
// it was read or last written, leaving out the runs no longer on disk.
func (xs *experiments) saveSummaries() error {
	xs.mu.Lock()
	if !xs.dirty {
		xs.mu.Unlock()
		return nil
	}
	d := summariesDisk{Version: summariesVersion, Runs: make(map[string]summaryDisk, len(xs.cache))}
	for id, c := range xs.cache {
		d.Runs[id] = summaryDisk{Stamp: c.stamp, Open: c.info.open, Info: c.info}
	}
	xs.dirty = false
	xs.mu.Unlock()
	for id := range d.Runs {
		if _, err := os.Stat(filepath.Join(xs.s.opts.Runs, id)); errors.Is(err, os.ErrNotExist) {
			delete(d.Runs, id)
		}
	}
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(xs.s.opts.Runs, SummariesFile), data, 0o644)
}

// listRecord is the part of a harness.EpisodeRecord the list needs:
// decoding only it skips the steps, locations and tokens of every record.
type listRecord struct {
	Variant    string `json:"variant"`
	Game       string `json:"game"`
	Seed       int64  `json:"seed"`
	FinalScore int    `json:"final_score"`
	MaxScore   int    `json:"max_score"`
	Victory    bool   `json:"victory"`
	Error      string `json:"error"`
}

// readListRecords reads the records of run directory dir's results as
// harness.LoadResults does (a line that is no record is skipped, a later
// record of the same episode replaces the earlier one), keeping only
// what the list needs, grouped by variant.
func readListRecords(dir string) (map[string][]listRecord, error) {
	f, err := boundedfile.OpenIn(dir, harness.ResultsFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type key struct {
		variant, game string
		seed          int64
	}
	at := map[key]int{}
	var recs []listRecord
	lr := boundedfile.NewLineReader(f, harness.MaxRecordBytes)
	for {
		line, err := lr.Line()
		if err == io.EOF {
			break
		}
		if errors.Is(err, boundedfile.ErrLineTooLong) {
			continue // harness.LoadResults skips it too, and says so
		}
		if err != nil {
			return nil, err
		}
		var r listRecord
		if len(line) > 0 && jsonv2.Unmarshal(line, &r) == nil && r.Variant != "" && r.Game != "" {
			k := key{r.Variant, r.Game, r.Seed}
			if i, ok := at[k]; ok {
				recs[i] = r
			} else {
				at[k] = len(recs)
				recs = append(recs, r)
			}
		}
	}
	byVariant := map[string][]listRecord{}
	for _, r := range recs {
		byVariant[r.Variant] = append(byVariant[r.Variant], r)
	}
	return byVariant, nil
}
