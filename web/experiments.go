package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/grue-lab/grue/harness"
)

// Experiment states, as GET /api/experiments gives them.
const (
	// ExpRunning: this server plays it, or another process does (its
	// heartbeat is fresh).
	ExpRunning = "running"
	// ExpComplete: every episode has a record, and none is an error.
	ExpComplete = "complete"
	// ExpPartial: episodes are missing and nobody is playing them (the
	// run was stopped or killed, or its server restarted): resume it.
	ExpPartial = "partial"
	// ExpFailed: it could not start, or every episode has a record and
	// some are errors (grue exp run --resume --retry-failed plays them
	// again).
	ExpFailed = "failed"
)

// ExperimentRequest is the body of POST /api/experiments: a config file
// (under Options.Experiments) or the YAML of one, and the overrides of
// grue exp run (--steps, --trials, --seeds, --parallel).
type ExperimentRequest struct {
	Config   string  `json:"config,omitempty"`
	YAML     string  `json:"yaml,omitempty"`
	Steps    int     `json:"steps,omitempty"`
	Trials   int     `json:"trials,omitempty"`
	Seeds    []int64 `json:"seeds,omitempty"`
	Parallel int     `json:"parallel,omitempty"`
}

// VariantSummary is one variant of a run in the list: its episodes
// recorded, failed and won, and its mean score and percent of the
// maximum (over the episodes that did not fail).
type VariantSummary struct {
	Variant     string  `json:"variant"`
	Episodes    int     `json:"episodes"`
	Failed      int     `json:"failed"`
	Won         int     `json:"won"`
	MeanScore   float64 `json:"mean_score"`
	MeanPercent float64 `json:"mean_percent"`
}

// ExperimentInfo is one run directory as GET /api/experiments lists it.
type ExperimentInfo struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Description string           `json:"description,omitempty"`
	ConfigHash  string           `json:"config_hash"`
	ConfigFile  string           `json:"config_file,omitempty"`
	Status      string           `json:"status"`
	Episodes    int              `json:"episodes"`
	Recorded    int              `json:"recorded"`
	Failed      int              `json:"failed"`
	Started     time.Time        `json:"started"`
	Sharded     bool             `json:"sharded,omitempty"`
	Games       []string         `json:"games"`
	Variants    []VariantSummary `json:"variants"`
	Error       string           `json:"error,omitempty"`

	open bool // the manifest says the run has not returned
}

// experiments are the run directories under Options.Runs: those this
// server runs, and a cache of what the others hold, read again only when
// their files change.
type experiments struct {
	s      *Server
	warmed chan struct{} // closed once warm has read every run
	mu     sync.Mutex
	live   map[string]*liveRun
	cache  map[string]cachedRun
	dirty  bool // cache changed since SummariesFile was read or written
}

// liveRun is a run this server plays (or tried to).
type liveRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	err    error // why it stopped, once done
	name   string
}

// cachedRun is a run's summary and the state of its files when read.
type cachedRun struct {
	stamp string
	info  ExperimentInfo
}

func newExperiments(s *Server) *experiments {
	return &experiments{s: s, warmed: make(chan struct{}), live: map[string]*liveRun{}, cache: map[string]cachedRun{}}
}

// running returns how many runs this server plays now, and whether id is
// one of them.
func (xs *experiments) running(id string) (n int, this bool) {
	xs.mu.Lock()
	defer xs.mu.Unlock()
	for k, r := range xs.live {
		select {
		case <-r.done:
		default:
			n++
			this = this || k == id
		}
	}
	return n, this
}

// stamp is the state of a run directory's files: it changes when the
// manifest or the results are written. (A sharded run is not stamped: it
// is always read again.)
func stamp(dir string) string {
	var b strings.Builder
	for _, f := range []string{harness.ManifestFile, harness.ResultsFile} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%d,%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}

// info summarizes run directory id: from the cache when its files did not
// change. ok is false when id holds no run.
func (xs *experiments) info(id string) (ExperimentInfo, bool) {
	dir := filepath.Join(xs.s.opts.Runs, id)
	sharded := harness.IsSharded(dir)
	st := ""
	if !sharded {
		st = stamp(dir)
		if strings.HasPrefix(st, "-;") {
			return xs.failedLaunch(id)
		}
	}
	xs.mu.Lock()
	c, hit := xs.cache[id]
	xs.mu.Unlock()
	if !hit || sharded || c.stamp != st {
		info, err := summarize(id, dir, sharded)
		if err != nil {
			if info, ok := xs.failedLaunch(id); ok {
				return info, true
			}
			if _, lerr := os.Lstat(filepath.Join(dir, harness.ManifestFile)); lerr == nil || sharded {
				// A run folder that cannot be read (a manifest that
				// is no regular file, records out of bounds) is
				// listed as such, and the others still are.
				return ExperimentInfo{ID: id, Status: ExpFailed, Error: "cannot read the run: " + err.Error(),
					Games: []string{}, Variants: []VariantSummary{}}, true
			}
			return ExperimentInfo{}, false
		}
		c = cachedRun{stamp: st, info: info}
		if !sharded {
			xs.mu.Lock()
			xs.cache[id] = c
			xs.dirty = true
			xs.mu.Unlock()
		}
	}
	info := c.info
	info.Status = xs.status(id, dir, info)
	return info, true
}

// infos summarizes the runs ids (those that hold a run), reading them
// in parallel: a cold list of a thousand runs is mostly waiting on files
// and decoding records.
func (xs *experiments) infos(ids []string) []ExperimentInfo {
	found := make([]*ExperimentInfo, len(ids))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(ids), 2*runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if info, ok := xs.info(ids[i]); ok {
					found[i] = &info
				}
			}
		}()
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []ExperimentInfo
	for _, f := range found {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// failedLaunch is the info of a run this server tried to start, which
// stopped before it wrote its manifest (a model that could not be
// reached); ok is false for any other id.
func (xs *experiments) failedLaunch(id string) (ExperimentInfo, bool) {
	xs.mu.Lock()
	defer xs.mu.Unlock()
	r, ok := xs.live[id]
	if !ok {
		return ExperimentInfo{}, false
	}
	info := ExperimentInfo{ID: id, Name: r.name, Status: ExpRunning, Games: []string{}, Variants: []VariantSummary{}}
	select {
	case <-r.done:
		info.Status = ExpFailed
		if r.err != nil {
			info.Error = r.err.Error()
		}
	default:
	}
	return info, true
}

// status is the run's state now: running when this server or a fresh
// heartbeat says so, else what its records say.
func (xs *experiments) status(id, dir string, info ExperimentInfo) string {
	if _, this := xs.running(id); this {
		return ExpRunning
	}
	if info.Sharded {
		if st, err := harness.ReadStatus(dir, time.Now()); err == nil {
			for _, sh := range st.Shards {
				if sh.State == harness.ShardRunning {
					return ExpRunning
				}
			}
		}
	} else if info.open {
		if fi, err := os.Stat(filepath.Join(dir, harness.HeartbeatFile)); err == nil && time.Since(fi.ModTime()) < harness.HeartbeatStale {
			return ExpRunning
		}
	}
	switch {
	case info.Recorded < info.Episodes:
		return ExpPartial
	case info.Failed > 0 || info.Error != "":
		return ExpFailed
	default:
		return ExpComplete
	}
}

// summarize reads run directory dir (sharded or not): its manifest and
// records.
func summarize(id, dir string, sharded bool) (ExperimentInfo, error) {
	var m *harness.Manifest
	if sharded {
		ms, err := harness.ReadShardManifests(dir)
		if err != nil {
			return ExperimentInfo{}, err
		}
		m = ms[0].Manifest
	} else {
		var err error
		if m, err = harness.ReadManifest(dir); err != nil {
			return ExperimentInfo{}, err
		}
	}
	info := ExperimentInfo{ID: id, Name: m.Config.Name, Description: m.Config.Description, ConfigHash: m.ConfigHash,
		ConfigFile: m.ConfigFile, Started: m.Started, Sharded: sharded, Games: slices.Clone(m.Config.Games),
		Episodes: len(m.Config.Episodes()), Variants: []VariantSummary{}}
	if m.Stopped != "" && !strings.Contains(m.Stopped, context.Canceled.Error()) {
		info.Error = m.Stopped
	}
	info.open = m.Finished == nil
	byVariant, err := variantRecords(dir, sharded)
	if err != nil {
		return info, nil // no results yet
	}
	for _, v := range m.Config.Variants {
		vs := summarizeVariant(v.Name, byVariant[v.Name])
		info.Recorded += vs.Episodes
		info.Failed += vs.Failed
		info.Variants = append(info.Variants, vs)
	}
	return info, nil
}

// variantRecords reads run directory dir's records, grouped by variant.
func variantRecords(dir string, sharded bool) (map[string][]listRecord, error) {
	if !sharded {
		return readListRecords(dir)
	}
	rs, err := harness.LoadRun(dir)
	if err != nil {
		return nil, err
	}
	out := map[string][]listRecord{}
	for _, r := range rs.Records {
		out[r.Variant] = append(out[r.Variant], listRecord{Variant: r.Variant, Game: r.Game, Seed: r.Seed,
			FinalScore: r.FinalScore, MaxScore: r.MaxScore, Victory: r.Victory, Error: r.Error})
	}
	return out, nil
}

// summarizeVariant is the list's line for variant name with records rs.
func summarizeVariant(name string, rs []listRecord) VariantSummary {
	vs := VariantSummary{Variant: name}
	var score, pct float64
	var n, np int
	for _, r := range rs {
		vs.Episodes++
		if r.Error != "" {
			vs.Failed++
			continue
		}
		if r.Victory {
			vs.Won++
		}
		score += float64(r.FinalScore)
		n++
		if r.MaxScore > 0 {
			pct += 100 * float64(r.FinalScore) / float64(r.MaxScore)
			np++
		}
	}
	if n > 0 {
		vs.MeanScore = score / float64(n)
	}
	if np > 0 {
		vs.MeanPercent = pct / float64(np)
	}
	return vs
}

// runIDs lists the folders under Options.Runs that may be runs.
func (xs *experiments) runIDs() ([]string, error) {
	ents, err := os.ReadDir(xs.s.opts.Runs)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, d := range ents {
		if d.IsDir() && d.Name() != EpisodesDir && d.Name() != GamesDir && idPattern.MatchString(d.Name()) {
			ids = append(ids, d.Name())
		}
	}
	return ids, nil
}

// warm reads every run into the cache (from SummariesFile for the runs
// that did not change since it was written), closes xs.warmed, and
// writes SummariesFile again if the cache changed.
func (xs *experiments) warm() {
	xs.loadSummaries()
	if ids, err := xs.runIDs(); err == nil {
		xs.infos(ids)
	}
	close(xs.warmed)
	// The file is only a cache: a runs folder that cannot be written to
	// (read only, full) is listed all the same, and read again next start.
	_ = xs.saveSummaries()
}

func (s *Server) listExperiments(w http.ResponseWriter, r *http.Request) {
	// A list asked for while the runs are first read waits for that
	// reading rather than doing it again beside it.
	select {
	case <-s.experiments.warmed:
	case <-r.Context().Done():
		return
	}
	ids, err := s.experiments.runIDs()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "", "read %s: %v", s.opts.Runs, err)
		return
	}
	out := []ExperimentInfo{}
	seen := map[string]bool{}
	for _, info := range s.experiments.infos(ids) {
		out = append(out, info)
		seen[info.ID] = true
	}
	s.experiments.mu.Lock()
	var launched []string
	for id := range s.experiments.live {
		if !seen[id] {
			launched = append(launched, id)
		}
	}
	s.experiments.mu.Unlock()
	for _, id := range launched {
		if info, ok := s.experiments.failedLaunch(id); ok {
			out = append(out, info)
		}
	}
	slices.SortFunc(out, func(a, b ExperimentInfo) int {
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	writeJSON(w, http.StatusOK, out)
}

// experimentDetail is GET /api/experiments/{id}: the summary, the
// records (for the trajectory viewer) and where each shard stands.
type experimentDetail struct {
	ExperimentInfo
	Records []harness.EpisodeRecord `json:"records"`
	Missing []harness.EpisodeKey    `json:"missing,omitempty"`
}

func (s *Server) getExperiment(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	info, ok := s.experiments.info(id)
	if !ok {
		writeError(w, http.StatusNotFound, "id", "no experiment %q in %s", id, s.opts.Runs)
		return
	}
	d := experimentDetail{ExperimentInfo: info, Records: []harness.EpisodeRecord{}}
	dir := filepath.Join(s.opts.Runs, id)
	if rs, err := harness.LoadRun(dir); err == nil {
		d.Records = rs.Records
	}
	if st, err := harness.ReadStatus(dir, time.Now()); err == nil {
		d.Missing = st.Missing
	}
	writeJSON(w, http.StatusOK, d)
}

// loadRequestConfig reads the config a launch request names or holds,
// with its overrides, or returns the error naming the request's field.
func (s *Server) loadRequestConfig(req ExperimentRequest) (*harness.Config, *apiError) {
	var cfg *harness.Config
	var err error
	switch {
	case req.Config != "" && req.YAML != "":
		return nil, &apiError{Field: "config", Error: "give config or yaml, not both"}
	case req.Config != "":
		path, bad := s.configPath(req.Config)
		if bad != nil {
			return nil, bad
		}
		if cfg, err = harness.LoadConfig(path); err != nil {
			return nil, configError(err, "config")
		}
	case strings.TrimSpace(req.YAML) != "":
		if cfg, err = harness.ParseConfig([]byte(req.YAML), "pasted.yaml"); err != nil {
			return nil, configError(err, "yaml")
		}
		// Checked before Validate, which opens the files it names.
		if err := s.checkForeign(cfg); err != nil {
			return nil, configError(err, "yaml")
		}
	default:
		return nil, &apiError{Field: "config", Error: "name a config file (config) or paste one (yaml)"}
	}
	switch {
	case req.Steps < 0 || req.Steps > harness.MaxSteps:
		return nil, &apiError{Field: "steps", Error: fmt.Sprintf("steps %d: want 1 to %d", req.Steps, harness.MaxSteps)}
	case req.Trials < 0 || req.Trials > harness.MaxSeeds:
		return nil, &apiError{Field: "trials", Error: fmt.Sprintf("trials %d: want 1 to %d", req.Trials, harness.MaxSeeds)}
	case req.Trials > 0 && len(req.Seeds) > 0:
		return nil, &apiError{Field: "seeds", Error: "give trials or seeds, not both"}
	case req.Parallel < 0 || req.Parallel > harness.MaxParallel:
		return nil, &apiError{Field: "parallel", Error: fmt.Sprintf("parallel %d: want 1 to %d", req.Parallel, harness.MaxParallel)}
	}
	if req.Steps > 0 {
		cfg.MaxSteps = req.Steps
	}
	if req.Trials > 0 {
		cfg.Trials, cfg.Seeds = req.Trials, nil
	}
	if len(req.Seeds) > 0 {
		cfg.Seeds, cfg.Trials = req.Seeds, 0
	}
	if req.Parallel > 0 {
		cfg.Parallel = req.Parallel
	}
	if err := cfg.Validate(); err != nil {
		return nil, configError(err, "config")
	}
	return cfg, nil
}

// configError is a config's error as an apiError: the field is the
// config's own (variants[0].policy), or the request's override (steps,
// trials, seeds) when that is what is wrong, or fallback when the error
// names none (the YAML does not parse, the file is missing).
func configError(err error, fallback string) *apiError {
	bad := &apiError{Field: fallback, Error: err.Error()}
	var fe *harness.FieldError
	if errors.As(err, &fe) && fe.Field != "" {
		bad.Field = fe.Field
		if fe.Field == "max_steps" {
			bad.Field = "steps"
		}
	}
	return bad
}

// configPath is the file a request's config names: a YAML file under
// Options.Experiments, named from there (baseline.yaml) or from the
// working directory (experiments/baseline.yaml). Anything outside that
// folder is refused, and so is a symbolic link in it that leads out.
func (s *Server) configPath(name string) (string, *apiError) {
	dir := filepath.Clean(s.opts.Experiments)
	bad := &apiError{Field: "config", Error: fmt.Sprintf("%q: name a config under %s (such as baseline.yaml)", name, s.opts.Experiments)}
	if filepath.IsAbs(name) {
		return "", bad
	}
	if ext := filepath.Ext(name); ext != ".yaml" && ext != ".yml" {
		return "", &apiError{Field: "config", Error: fmt.Sprintf("%q: a config is a .yaml file", name)}
	}
	path := ""
	absDir, err1 := filepath.Abs(dir)
	absName, err2 := filepath.Abs(name)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absDir, absName); err == nil && filepath.IsLocal(rel) {
			path = filepath.Join(dir, rel)
		}
	}
	if path == "" {
		if !filepath.IsLocal(name) {
			return "", bad
		}
		path = filepath.Join(dir, name)
	}
	// The name is under the folder; what it leads to must be too.
	if !within(dir, path) {
		return "", &apiError{Field: "config", Error: fmt.Sprintf("%q leads outside %s (a symbolic link): name a config under %s", name, s.opts.Experiments, s.opts.Experiments)}
	}
	return path, nil
}

func (s *Server) launchExperiment(w http.ResponseWriter, r *http.Request) {
	var req ExperimentRequest
	if !decodeBody(w, r, &req) {
		return
	}
	cfg, bad := s.loadRequestConfig(req)
	if bad != nil {
		writeJSON(w, http.StatusBadRequest, bad)
		return
	}
	xs := s.experiments
	xs.mu.Lock()
	defer xs.mu.Unlock()
	if n := xs.countLive(); n >= s.opts.MaxExperiments {
		busy(w, "experiments", s.opts.MaxExperiments)
		return
	}
	id := filepath.Base(harness.DefaultOut(cfg.Name, time.Now()))
	for i := 2; exists(filepath.Join(s.opts.Runs, id)) || xs.live[id] != nil; i++ {
		id = fmt.Sprintf("%s-%d", filepath.Base(harness.DefaultOut(cfg.Name, time.Now())), i)
	}
	xs.start(id, cfg, false)
	writeJSON(w, http.StatusCreated, map[string]string{"id": id, "status": ExpRunning})
}

// countLive is how many runs this server plays; xs.mu is held.
func (xs *experiments) countLive() int {
	n := 0
	for _, r := range xs.live {
		select {
		case <-r.done:
		default:
			n++
		}
	}
	return n
}

// start plays cfg into run directory id in the background (resuming it
// when resume); xs.mu is held.
func (xs *experiments) start(id string, cfg *harness.Config, resume bool) {
	s := xs.s
	ctx, cancel := context.WithCancel(s.ctx)
	lr := &liveRun{cancel: cancel, done: make(chan struct{}), name: cfg.Name}
	xs.live[id] = lr
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		_, err := harness.Run(ctx, cfg, harness.RunOptions{Out: filepath.Join(s.opts.Runs, id), Resume: resume,
			Command: []string{"grue", "web"}, Version: s.opts.Version})
		xs.mu.Lock()
		lr.err = err
		close(lr.done)
		xs.mu.Unlock()
	}()
}

func (s *Server) resumeExperiment(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	info, ok := s.experiments.info(id)
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, "id", "no experiment %q in %s", id, s.opts.Runs)
		return
	case info.Status == ExpRunning:
		writeError(w, http.StatusConflict, "id", "experiment %s is running", id)
		return
	case info.Status == ExpComplete:
		writeError(w, http.StatusConflict, "id", "experiment %s is complete: nothing to resume", id)
		return
	case info.Sharded:
		writeError(w, http.StatusConflict, "id", "experiment %s is sharded: resume its shards with grue exp slurm --resume or grue exp run --shard", id)
		return
	}
	dir := filepath.Join(s.opts.Runs, id)
	m, err := harness.ReadManifest(dir)
	if err != nil {
		writeError(w, http.StatusConflict, "id", "experiment %s: %v", id, err)
		return
	}
	cfg := m.Config
	cfg.File = m.ConfigFile
	if m.ConfigFile != "" {
		cfg.Dir = filepath.Dir(m.ConfigFile)
	}
	// The manifest may come from anywhere: its config is held to what the
	// server was started with before Hash reads a file it names.
	if err := s.checkForeign(cfg); err != nil {
		bad := configError(err, "id")
		writeError(w, http.StatusConflict, bad.Field, "experiment %s cannot be resumed here: %s (resume it with grue exp run --resume, which trusts the config as you do)", id, bad.Error)
		return
	}
	if cfg.Hash() != m.ConfigHash {
		writeError(w, http.StatusConflict, "id", "experiment %s: its config (%s) no longer has the hash the run started with: resume it with grue exp run --resume and the config it was started with", id, m.ConfigFile)
		return
	}
	xs := s.experiments
	xs.mu.Lock()
	defer xs.mu.Unlock()
	if xs.countLive() >= s.opts.MaxExperiments {
		busy(w, "experiments", s.opts.MaxExperiments)
		return
	}
	xs.start(id, cfg, true)
	writeJSON(w, http.StatusAccepted, map[string]string{"id": id, "status": ExpRunning})
}

func (s *Server) stopExperiment(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	xs := s.experiments
	if _, this := xs.running(id); !this {
		writeError(w, http.StatusConflict, "id", "experiment %s is not running in this server", id)
		return
	}
	xs.mu.Lock()
	lr := xs.live[id]
	xs.mu.Unlock()
	lr.cancel()
	<-lr.done
	writeJSON(w, http.StatusOK, map[string]string{"id": id, "status": ExpPartial})
}

// runDirs returns the run directories of the ids query parameter, or
// answers 400 or 404.
func (s *Server) runDirs(w http.ResponseWriter, r *http.Request) ([]string, bool) {
	raw := r.URL.Query().Get("ids")
	if strings.TrimSpace(raw) == "" {
		writeError(w, http.StatusBadRequest, "ids", "name the runs to compare: ids=a,b")
		return nil, false
	}
	var dirs []string
	for id := range strings.SplitSeq(raw, ",") {
		id = strings.TrimSpace(id)
		if !idPattern.MatchString(id) || id == EpisodesDir {
			writeError(w, http.StatusBadRequest, "ids", "%q is not a run's id", id)
			return nil, false
		}
		dir := filepath.Join(s.opts.Runs, id)
		if !exists(filepath.Join(dir, harness.ManifestFile)) && !harness.IsSharded(dir) {
			writeError(w, http.StatusNotFound, "ids", "no experiment %q in %s", id, s.opts.Runs)
			return nil, false
		}
		dirs = append(dirs, dir)
	}
	return dirs, true
}

func (s *Server) compareExperiments(w http.ResponseWriter, r *http.Request) {
	dirs, ok := s.runDirs(w, r)
	if !ok {
		return
	}
	rs, err := harness.LoadRun(dirs...)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "ids", "%v", err)
		return
	}
	q := r.URL.Query()
	opts := harness.CompareOptions{IncludeFailed: q.Get("include_failed") == "true" || q.Get("include_failed") == "1",
		PairAcross: q.Get("pair_across") == "true" || q.Get("pair_across") == "1"}
	c, err := harness.Compare(rs, q.Get("baseline"), opts)
	if err != nil {
		field := "ids"
		if q.Get("baseline") != "" && rs.Len() > 0 {
			field = "baseline"
		}
		writeError(w, http.StatusBadRequest, field, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		*harness.Comparison
		Problems []harness.LoadProblem `json:"problems,omitempty"`
	}{c, rs.Problems})
}

func (s *Server) plotExperiments(w http.ResponseWriter, r *http.Request) {
	dirs, ok := s.runDirs(w, r)
	if !ok {
		return
	}
	rs, err := harness.LoadRun(dirs...)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "ids", "%v", err)
		return
	}
	g := r.URL.Query().Get("game")
	if !slices.Contains(rs.Games(), g) {
		writeError(w, http.StatusBadRequest, "game", "no game %q in these runs; games: %s", g, strings.Join(rs.Games(), ", "))
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	if err := harness.PlotGame(rs, g, w, "svg", harness.PlotOptions{}); err != nil {
		writeError(w, http.StatusInternalServerError, "", "%v", err)
	}
}

func (s *Server) experimentTrajectory(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	dir := filepath.Join(s.opts.Runs, id)
	rs, err := harness.LoadResults(dir)
	if err != nil {
		writeError(w, http.StatusNotFound, "id", "no results for experiment %q (a sharded run's trajectories are in its shards)", id)
		return
	}
	q := r.URL.Query()
	var seed int64
	if _, err := fmt.Sscan(q.Get("seed"), &seed); err != nil {
		writeError(w, http.StatusBadRequest, "seed", "seed %q is not a number", q.Get("seed"))
		return
	}
	key := harness.EpisodeKey{Variant: q.Get("variant"), Game: q.Get("game"), Seed: seed}
	rec, ok := rs.Lookup(key)
	if !ok {
		writeError(w, http.StatusNotFound, "variant", "experiment %s has no episode %s", id, key)
		return
	}
	t, err := harness.ReadTrajectory(dir, rec)
	if err != nil {
		writeError(w, http.StatusNotFound, "", "%v", err)
		return
	}
	status := ExpComplete
	if rec.Failed() {
		status = ExpFailed
	}
	writeJSON(w, http.StatusOK, trajectoryView{Title: fmt.Sprintf("%s: %s", id, key), Status: status, Policy: rec.Policy, Model: rec.Model, PriceSource: rec.PriceSource, Trajectory: *t})
}

// listConfigs lists the experiment configs under Options.Experiments that
// POST /api/experiments may name.
func (s *Server) listConfigs(w http.ResponseWriter, r *http.Request) {
	out := []string{}
	ents, err := os.ReadDir(s.opts.Experiments)
	if err == nil {
		for _, d := range ents {
			if ext := filepath.Ext(d.Name()); !d.IsDir() && (ext == ".yaml" || ext == ".yml") {
				out = append(out, d.Name())
			}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
