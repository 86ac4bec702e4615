package harness

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/grue-lab/grue/internal/boundedfile"
)

// ResultsFile is the name of the JSON Lines file in a run directory that
// holds one EpisodeRecord a line.
const ResultsFile = "results.jsonl"

// LoadProblem is a line of a results file that was not loaded, or a record
// that replaced an earlier one with the same key that had not failed.
// Loading goes on past
// problems: a run killed mid-write leaves a truncated last line, and the
// rest of the file is still good.
type LoadProblem struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

// String returns "file:line: msg".
func (p LoadProblem) String() string {
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
}

// ResultSet is the episode records of one or more runs, at most one for
// each (variant, game, seed), in the order they were loaded.
type ResultSet struct {
	Records []EpisodeRecord `json:"records"`
	// Problems are the lines that were skipped and the duplicates that
	// were replaced while loading (a failed record superseded by a later
	// one is no problem: it is how a failed episode is played again).
	Problems []LoadProblem `json:"problems,omitempty"`
	// Runs are the run directories (or results files) the set was
	// loaded from, in the order given: what each is called and which
	// variant is its baseline.
	Runs []RunSource `json:"runs,omitempty"`
	// RunsApart is true when the set holds several runs that share
	// variant names: each variant is then named "LABEL/NAME" by its run
	// (RunSource.Label), and Compare pairs within each run unless told
	// to pair across (CompareOptions.PairAcross).
	RunsApart bool `json:"runs_apart,omitempty"`

	index map[EpisodeKey]int // position of each key in Records
}

// NewResultSet returns a result set of the given records. A later record
// with the same key as an earlier one replaces it, as in LoadResults.
func NewResultSet(records ...EpisodeRecord) *ResultSet {
	rs := &ResultSet{}
	for _, r := range records {
		rs.Add(r)
	}
	return rs
}

// LoadResults reads the results of run directories (each one's
// results.jsonl) or of results files named directly. Lines that do not
// decode into a record are skipped and reported in Problems with their
// file and line. When a key appears twice in one run, the later record
// wins, in the place of the earlier one: a failed episode played again
// (RunOptions.RetryFailed) appends its new record, which supersedes the
// failed one, so that every count sees the episode once. Any other
// replacement is reported in Problems. Records of different runs never
// replace each other: when runs share variant names, each variant is
// labelled by its run ("LABEL/NAME", see RunsApart). It fails only when
// a file cannot be read.
func LoadResults(paths ...string) (*ResultSet, error) {
	if len(paths) == 0 {
		return nil, errors.New("load results: no run directory given")
	}
	parts := make([]*ResultSet, 0, len(paths))
	for _, p := range paths {
		part, err := loadOne(p)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if len(parts) == 1 {
		parts[0].Runs[0].Variants = parts[0].Variants()
		return parts[0], nil
	}
	return combine(parts), nil
}

// loadOne reads the results of one run directory or results file.
func loadOne(p string) (*ResultSet, error) {
	file := p
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("load results: %w", err)
	}
	var f *os.File
	if fi.IsDir() {
		// A run directory's results file is read only inside it: a
		// results.jsonl that is a link out of it is refused.
		file = filepath.Join(p, ResultsFile)
		f, err = boundedfile.OpenIn(p, ResultsFile)
	} else {
		f, err = boundedfile.Open(file)
	}
	if err != nil {
		return nil, fmt.Errorf("load results: %w", err)
	}
	rs := &ResultSet{}
	err = rs.read(f, file)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("load results: %s: %w", file, err)
	}
	rs.Runs = []RunSource{runSource(p)}
	return rs, nil
}

// ReadResults reads JSON Lines records from r as LoadResults reads a file;
// name is the file name used in Problems.
func ReadResults(r io.Reader, name string) (*ResultSet, error) {
	rs := &ResultSet{}
	if err := rs.read(r, name); err != nil {
		return nil, fmt.Errorf("read results %s: %w", name, err)
	}
	return rs, nil
}

// MaxRecordBytes is the longest line of a results file that is read as
// a record; a longer one is skipped (and reported in Problems) without
// being held in memory, so that a results file of one huge line, by
// accident or by design, costs a pass over it and no more.
// AppendRecord writes no longer record.
const MaxRecordBytes = 4 << 20

func (rs *ResultSet) read(r io.Reader, name string) error {
	lr := boundedfile.NewLineReader(r, MaxRecordBytes)
	for line := 1; ; line++ {
		b, err := lr.Line()
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, boundedfile.ErrLineTooLong):
			rs.problem(name, line, "skipped: %v", err)
		case err != nil:
			return err
		default:
			rs.readLine(b, name, line)
		}
	}
}

func (rs *ResultSet) readLine(b []byte, name string, line int) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	var rec EpisodeRecord
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&rec); err != nil {
		rs.problem(name, line, "skipped: not a complete record: %v", err)
		return
	}
	if dec.More() {
		rs.problem(name, line, "skipped: text after the record")
		return
	}
	if err := rec.validate(); err != nil {
		rs.problem(name, line, "skipped: %v", err)
		return
	}
	old, had := rs.Lookup(rec.Key())
	rs.Add(rec)
	if had && !old.Failed() {
		rs.problem(name, line, "duplicate %s: this record replaces the earlier one", rec.Key())
	}
}

func (rs *ResultSet) problem(name string, line int, format string, args ...any) {
	rs.Problems = append(rs.Problems, LoadProblem{File: name, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Add puts rec in the set, replacing a record with the same key; it reports
// whether it replaced one.
func (rs *ResultSet) Add(rec EpisodeRecord) bool {
	rs.reindex()
	if i, ok := rs.index[rec.Key()]; ok {
		rs.Records[i] = rec
		return true
	}
	rs.index[rec.Key()] = len(rs.Records)
	rs.Records = append(rs.Records, rec)
	return false
}

// reindex rebuilds the key index when Records was changed without Add.
func (rs *ResultSet) reindex() {
	if rs.index != nil && len(rs.index) == len(rs.Records) {
		return
	}
	rs.index = make(map[EpisodeKey]int, len(rs.Records))
	for i, r := range rs.Records {
		rs.index[r.Key()] = i
	}
}

// RenameGames names the records' games by names (a game not in it keeps
// its name): grue exp compare names a bench run's story files by the
// protocol's names for them, so that runs over other folders pair. It
// fails, changing nothing, when two records would come to share a key.
func (rs *ResultSet) RenameGames(names map[string]string) error {
	out := &ResultSet{}
	for _, r := range rs.Records {
		old := r.Game
		if n, ok := names[r.Game]; ok {
			r.Game = n
		}
		if out.Add(r) {
			return fmt.Errorf("rename games: %s and another game are both named %s", old, r.Game)
		}
	}
	rs.Records, rs.index = out.Records, out.index
	return nil
}

// Len returns the number of records.
func (rs *ResultSet) Len() int { return len(rs.Records) }

// Lookup returns the record with key k.
func (rs *ResultSet) Lookup(k EpisodeKey) (EpisodeRecord, bool) {
	rs.reindex()
	if i, ok := rs.index[k]; ok && i < len(rs.Records) && rs.Records[i].Key() == k {
		return rs.Records[i], true
	}
	return EpisodeRecord{}, false
}

// Variants returns the variants in the set, sorted.
func (rs *ResultSet) Variants() []string {
	return rs.distinct(func(r EpisodeRecord) string { return r.Variant })
}

// Games returns the games in the set, sorted.
func (rs *ResultSet) Games() []string {
	return rs.distinct(func(r EpisodeRecord) string { return r.Game })
}

func (rs *ResultSet) distinct(field func(EpisodeRecord) string) []string {
	var out []string
	for _, r := range rs.Records {
		out = append(out, field(r))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Filter returns the records for which keep returns true, as a new set
// (the problems stay with the original).
func (rs *ResultSet) Filter(keep func(EpisodeRecord) bool) *ResultSet {
	out := &ResultSet{Runs: rs.Runs}
	for _, r := range rs.Records {
		if keep(r) {
			out.Records = append(out.Records, r)
		}
	}
	return out
}

// ByVariant returns the records of the named variants.
func (rs *ResultSet) ByVariant(variants ...string) *ResultSet {
	return rs.Filter(func(r EpisodeRecord) bool { return slices.Contains(variants, r.Variant) })
}

// ByGame returns the records of the named games.
func (rs *ResultSet) ByGame(games ...string) *ResultSet {
	return rs.Filter(func(r EpisodeRecord) bool { return slices.Contains(games, r.Game) })
}

// AppendRecord appends rec as one line to the results file at path,
// creating it if needed, and syncs it to disk before returning, so that a
// run killed afterwards keeps the record. When the file ends in a line cut
// short by a crash, the record starts a new line so that only the cut line
// is lost. A path whose file is a symbolic link out of its folder is
// refused, not written through, and so is anything but a regular file.
func AppendRecord(path string, rec EpisodeRecord) error {
	dir, name := filepath.Split(path)
	root, err := os.OpenRoot(cmp.Or(dir, "."))
	if err != nil {
		return fmt.Errorf("append record: %w", err)
	}
	defer root.Close()
	return appendRecordIn(root, name, rec)
}

// appendRecordIn is AppendRecord of the results file name in root: a name
// that is a symbolic link out of root is refused, not written through.
func appendRecordIn(root *os.Root, name string, rec EpisodeRecord) error {
	path := filepath.Join(root.Name(), name)
	if err := rec.validate(); err != nil {
		return fmt.Errorf("append record to %s: %w", path, err)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("append record %s to %s: %w", rec.Key(), path, err)
	}
	if len(b) > MaxRecordBytes {
		return fmt.Errorf("append record %s to %s: %s, longer than the limit of %s", rec.Key(), path, boundedfile.FormatSize(int64(len(b))), boundedfile.FormatSize(MaxRecordBytes))
	}
	f, err := root.OpenFile(name, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("append record: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("append record to %s: not a regular file", path)
	}
	line := append(b, '\n')
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("append record %s to %s: %w", rec.Key(), path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("append record %s to %s: %w", rec.Key(), path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append record %s to %s: %w", rec.Key(), path, err)
	}
	return nil
}
