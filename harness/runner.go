package harness

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/boundedfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// TrajectoriesDir is the folder of a run directory that holds one
// trajectory file per episode: TrajectoriesDir/<variant>/<game>_<seed>.json.
const TrajectoriesDir = "trajectories"

// RunOptions tune Run. The zero value runs the config's parallelism into
// a new directory under runs/, silently.
type RunOptions struct {
	// Out is the run directory; "" means DefaultOut(cfg.Name, now).
	Out string
	// Parallel, when positive, overrides the config's parallelism.
	Parallel int
	// Resume finishes the run in Out: the episodes recorded there are
	// skipped, the others played. The config must have the hash the run
	// was started with, and each llm variant the model and endpoint
	// (ErrEndpointMismatch).
	Resume bool
	// RetryFailed, with Resume, also plays again the episodes whose
	// latest record is an error (EpisodeRecord.Failed). The new record
	// is appended: results.jsonl keeps the failed one, and LoadResults
	// lets the later record of a key supersede it, so each episode still
	// counts once. Without it a resumed run leaves failed episodes as
	// they are. A run that is not resumed has none to retry.
	RetryFailed bool
	// Progress receives the progress display: bars when it is a terminal,
	// else a line for every episode that ends. nil shows nothing.
	Progress io.Writer
	// Bars forces progress bars (true) on a Progress that is no terminal;
	// by default bars are drawn on terminals only.
	Bars bool
	// Drain, when closed, stops Run from starting episodes; the episodes
	// in flight finish and are recorded. Cancelling ctx instead abandons
	// them too (they are played again by a resumed run).
	Drain <-chan struct{}
	// Command is the command line, for the manifest.
	Command []string
	// Version is grue's version, stored in the manifest and every record;
	// "" stores DefaultVersion. The grue command gives its own.
	Version string
	// OnRecord, when set, is called with each record once it is on disk.
	// Calls come from the workers, one at a time.
	OnRecord func(EpisodeRecord)
	// Baseline is the variant the others are compared with, recorded in
	// the manifest (Manifest.Baseline); "" means the config's first
	// variant. It must name one of the config's variants.
	Baseline string
	// Shard, when set, plays only the shard's part of the episodes
	// (Shard.Episodes) into Out/shards/<I>-of-<N> (Shard.Dir), under its
	// share of the rate limit; Resume then also starts a shard that has
	// no run yet, as a requeued cluster job needs. See ShardedRun.
	Shard *Shard
	// Benchmark, when set, is the published protocol the run follows
	// (grue bench), recorded in the manifest (Manifest.Benchmark).
	Benchmark *Benchmark
}

// DefaultOut returns the default run directory of an experiment:
// runs/<name>-<YYYYMMDD-HHMMSS>.
func DefaultOut(name string, t time.Time) string {
	return filepath.Join("runs", name+"-"+t.Format("20060102-150405"))
}

// ErrHashMismatch is what Run returns (wrapped) when asked to resume a run
// directory that was started with a different config.
var ErrHashMismatch = errors.New("the config differs from the one the run was started with")

// ErrEndpointMismatch is what Run returns (wrapped) when asked to resume a
// run directory whose llm variant was played with another model or
// endpoint than the one it gets now: a variant that names neither takes
// them from the environment (GRUE_MODEL, OPENAI_BASE_URL), which the
// config's hash does not cover.
var ErrEndpointMismatch = errors.New("a variant's model differs from the one the run was started with")

// Run plays every episode of cfg (each variant on each game from each
// seed) into a run directory, opts.Parallel (or cfg.Parallel) at a time,
// and returns the results there. The directory holds:
//
//   - manifest.json: the config, its hash, grue's version, the start time
//     and command line (ReadManifest);
//   - results.jsonl: one EpisodeRecord a line, appended and synced as each
//     episode ends (LoadResults);
//   - trajectories/<variant>/<game>_<seed>.json: each episode's whole
//     RunResult, written (atomically) before its record.
//
// An episode that ends in an error is played again, up to cfg.Retries
// more times; its last error is recorded (EpisodeRecord.Error). Killing a
// run loses only the episodes in flight: Run with opts.Resume on the same
// directory plays the episodes that have no record and no other (and,
// with opts.RetryFailed, those whose record is an error), and refuses a
// config other than the one the run started with (ErrHashMismatch) or an
// llm variant that now gets another model or endpoint from the
// environment (ErrEndpointMismatch). Cancelling ctx, or closing
// opts.Drain, stops Run from starting episodes; it then returns what was
// recorded with ctx's error (nil for a drain).
//
// The model requests of all episodes to one endpoint share cfg.RateLimit.
func Run(ctx context.Context, cfg *Config, opts RunOptions) (*ResultSet, error) {
	if cfg == nil {
		return nil, errors.New("run experiment: no config")
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("run experiment: %w", err)
	}
	if opts.Baseline != "" && !slices.ContainsFunc(cfg.Variants, func(v Variant) bool { return v.Name == opts.Baseline }) {
		return nil, fmt.Errorf("run experiment: baseline %q is not a variant of the config; variants: %s", opts.Baseline, strings.Join(cfg.variantNames(), ", "))
	}
	if opts.Parallel > MaxParallel {
		return nil, fmt.Errorf("run experiment: %d episodes at once, more than the limit of %d", opts.Parallel, MaxParallel)
	}
	r := &runner{cfg: cfg, opts: opts, hash: cfg.Hash(), steps: cfg.Steps(), retry: map[EpisodeKey]EpisodeRecord{}, revision: BuildRevision(),
		detections: game.NewDetectionCache()}
	r.out = opts.Out
	if r.out == "" {
		r.out = DefaultOut(cfg.Name, time.Now())
	}
	r.top = r.out
	all := cfg.Episodes()
	total := len(all)
	var err error
	if all, err = r.useShard(all); err != nil {
		return nil, err
	}
	if r.clients, err = newClients(ctx, cfg.share(r.shardCount())); err != nil {
		return nil, fmt.Errorf("run experiment %s: %w", cfg.Name, err)
	}
	done, err := r.prepare(all)
	if r.root != nil {
		defer r.root.Close()
	}
	if err != nil {
		return nil, err
	}
	// The failed episodes a resumed run plays again, and those it leaves.
	var retried, leftFailed int
	for _, rec := range done {
		if rec.Failed() {
			if opts.RetryFailed {
				r.retry[rec.Key()] = rec
				delete(done, rec.Key())
				retried++
			} else {
				leftFailed++
			}
		}
	}
	for i, e := range r.clients.endpoints {
		// What earlier runs learned of an endpoint stays recorded.
		if j := slices.IndexFunc(r.manifest.Endpoints, func(x Endpoint) bool { return x.Variant == e.Variant }); j >= 0 {
			r.clients.endpoints[i].Dropped = r.manifest.Endpoints[j].Dropped
		}
	}
	r.manifest.Endpoints = r.clients.endpoints
	r.noteRun(total, len(all))
	if err := r.writeManifest(len(all)-len(done), retried); err != nil {
		return nil, err
	}
	stopHeartbeat := startHeartbeat(r.out)
	// The results file is there from the start: a run stopped before
	// its first episode ended loads as an empty result set.
	f, err := r.root.OpenFile(ResultsFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run experiment: %w", err)
	}
	f.Close()

	var todo []EpisodeSpec
	var before []EpisodeRecord
	for _, s := range all {
		if rec, ok := done[s.Key()]; ok {
			before = append(before, rec)
			continue
		}
		todo = append(todo, s)
	}
	var names []string
	for _, v := range cfg.Variants {
		names = append(names, v.Name)
	}
	r.progress = newProgress(opts.Progress, names, all, before, opts.Bars || isTerminal(opts.Progress))
	workers := r.parallel(len(todo))
	if opts.Progress != nil {
		r.announce(len(all), len(before), leftFailed, retried, workers)
	}

	runErr := r.playAll(ctx, todo, workers)
	stopHeartbeat()
	runErr = errors.Join(runErr, r.finish(cmp.Or(runErr, ctx.Err())))
	rs, err := LoadResults(r.out)
	if err != nil {
		return nil, errors.Join(runErr, err)
	}
	if runErr == nil && ctx.Err() != nil {
		runErr = fmt.Errorf("run experiment %s: stopped: %w", cfg.Name, ctx.Err())
	}
	return rs, runErr
}

// playAll plays the episodes todo, workers at a time, until they are all
// played, ctx is cancelled or r.opts.Drain closed; it returns the errors
// that stopped the run (a record that could not be written). It closes the
// progress display when the last episode has ended.
func (r *runner) playAll(ctx context.Context, todo []EpisodeSpec, workers int) error {
	// work is cancelled when a record cannot be written: the run cannot
	// go on, and the episodes in flight are abandoned.
	work, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan EpisodeSpec)
	go func() {
		defer close(jobs)
		for _, s := range todo {
			select {
			case jobs <- s:
			case <-work.Done():
				return
			case <-r.opts.Drain:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range jobs {
				if work.Err() != nil {
					continue
				}
				if err := r.play(work, s); err != nil {
					errs <- err
					stop()
					return
				}
			}
		}()
	}
	wg.Wait()
	r.progress.close()
	close(errs)
	var runErr error
	for err := range errs {
		runErr = errors.Join(runErr, err)
	}
	return runErr
}

// announce prints what the run is about to do: all episodes, before of
// them recorded already (leftFailed of those failed and stay so), retried
// failed ones to play again, workers at a time.
func (r *runner) announce(all, before, leftFailed, retried, workers int) {
	seeds := fmt.Sprintf("%d seeds", len(r.cfg.SeedList()))
	if len(r.cfg.GameSeeds) > 0 {
		seeds = "each game's seeds"
	}
	msg := fmt.Sprintf("%s: %d episodes (%d variants x %d games x %s)", r.cfg.Name, all, len(r.cfg.Variants), len(r.cfg.Games), seeds)
	if before > 0 {
		msg += fmt.Sprintf(", %d already done", before)
		if leftFailed > 0 {
			msg += fmt.Sprintf(" (%d of them failed, left as they are)", leftFailed)
		}
	}
	if retried > 0 {
		msg += fmt.Sprintf(", %d failed to play again", retried)
	}
	r.progress.printf("%s, %d at a time, into %s\n", msg, workers, r.out)
}

// runner is one Run.
type runner struct {
	cfg  *Config
	opts RunOptions
	out  string
	// top is the run directory (out, or the folder of out's shards);
	// root is out, opened so that nothing the run writes (its records and
	// trajectories) goes outside it, whatever links its folder holds.
	top      string
	root     *os.Root
	hash     string
	steps    int
	manifest *Manifest
	clients  *clients
	revision string // BuildRevision, read once
	progress *progress
	// retry holds the failed records of the episodes played again
	// (RunOptions.RetryFailed); it is not changed once the workers run.
	retry map[EpisodeKey]EpisodeRecord
	// detections holds what probing found in each story, so that the
	// run's episodes probe a story once between them.
	detections *game.DetectionCache

	appendMu sync.Mutex // one append to results.jsonl at a time
}

// parallel is how many workers to start for n episodes.
func (r *runner) parallel(n int) int {
	p := r.opts.Parallel
	if p <= 0 {
		p = r.cfg.Parallel
	}
	if p <= 0 {
		p = DefaultParallel
	}
	return max(1, min(p, n))
}

// prepare makes the run directory, or checks the one being resumed, and
// returns the records already in it that belong to the experiment.
func (r *runner) prepare(all []EpisodeSpec) (map[EpisodeKey]EpisodeRecord, error) {
	results := filepath.Join(r.out, ResultsFile)
	manifest := filepath.Join(r.out, ManifestFile)
	done := map[EpisodeKey]EpisodeRecord{}
	if !r.opts.Resume {
		if exists(manifest) || exists(results) {
			return nil, fmt.Errorf("run experiment: %s already holds a run: resume it (--resume) or choose another output directory", r.out)
		}
		if err := r.openRoot(true); err != nil {
			return nil, fmt.Errorf("run experiment: %w", err)
		}
		r.manifest = &Manifest{
			Config: r.cfg.redacted(), ConfigHash: r.hash, ConfigFile: r.cfg.File, GrueVersion: versionOr(r.opts.Version), GrueRevision: r.revision,
			Started: stamp(time.Now()), Command: r.opts.Command, Episodes: len(all),
			Baseline: r.baseline(), Benchmark: r.opts.Benchmark,
		}
		return done, nil
	}
	err := r.openRoot(false)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("run experiment: resume %s: %w", r.out, err)
	}
	var m *Manifest
	if err == nil {
		m, err = ReadManifest(r.out)
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("run experiment: nothing to resume in %s: it has no %s", r.out, ManifestFile)
		}
		return nil, fmt.Errorf("run experiment: resume %s: %w", r.out, err)
	}
	if m.ConfigHash != r.hash {
		what := "a system prompt file's text, or a setting the manifest does not record"
		if d := ConfigDiff(m.Config, r.cfg.redacted()); len(d) > 0 {
			what = strings.Join(d, "; ")
		}
		return nil, fmt.Errorf("run experiment: cannot resume %s: %w: %s (config hash %.12s, the run's %.12s): run it with the same config and overrides, or into a new directory", r.out, ErrHashMismatch, what, r.hash, m.ConfigHash)
	}
	r.manifest = m
	if r.opts.Baseline != "" || m.Baseline == "" {
		m.Baseline = r.baseline()
	}
	rs := &ResultSet{}
	if exists(results) {
		if rs, err = LoadResults(r.out); err != nil {
			return nil, fmt.Errorf("run experiment: resume %s: %w", r.out, err)
		}
	}
	if err := r.checkEndpoints(m, rs); err != nil {
		return nil, fmt.Errorf("run experiment: cannot resume %s: %w", r.out, err)
	}
	want := map[EpisodeKey]bool{}
	for _, s := range all {
		want[s.Key()] = true
	}
	for _, rec := range rs.Records {
		if want[rec.Key()] {
			done[rec.Key()] = rec
		}
	}
	return done, nil
}

// openRoot opens the folder the run writes into (r.out) as r.root, making
// it first when create is set. The run directory (r.top) is the one the
// user named; a shard's folder in it is opened inside it, so that a
// shards folder that is a link out of the run directory is refused.
func (r *runner) openRoot(create bool) error {
	if create {
		if err := os.MkdirAll(r.top, 0o755); err != nil {
			return err
		}
	}
	top, err := os.OpenRoot(r.top)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(r.top, r.out)
	if err != nil || rel == "." {
		r.root = top
		return err
	}
	defer top.Close()
	if create {
		if err := top.MkdirAll(rel, 0o755); err != nil {
			return fmt.Errorf("make %s: %w", r.out, err)
		}
	}
	if r.root, err = top.OpenRoot(rel); err != nil {
		return fmt.Errorf("open %s: %w", r.out, err)
	}
	return nil
}

// checkEndpoints refuses to resume a run whose llm variants were played
// with another model or endpoint than the ones they get now (from the
// environment, when the config names none). A manifest from before
// endpoints were recorded is checked against the model of the records.
func (r *runner) checkEndpoints(m *Manifest, rs *ResultSet) error {
	for _, now := range r.clients.endpoints {
		v, _ := r.cfg.Variant(now.Variant)
		i := slices.IndexFunc(m.Endpoints, func(e Endpoint) bool { return e.Variant == now.Variant })
		if i >= 0 {
			was := m.Endpoints[i]
			if was.Model == now.Model && llm.RedactURL(strings.TrimRight(was.BaseURL, "/")) == strings.TrimRight(now.BaseURL, "/") {
				continue
			}
			return fmt.Errorf("variant %s was played with model %q at %s, and now gets model %q at %s%s: %w; set them as they were, or run into a new directory",
				now.Variant, was.Model, was.BaseURL, now.Model, now.BaseURL, fromEnv(v), ErrEndpointMismatch)
		}
		for _, rec := range rs.Records {
			if rec.Variant == now.Variant && rec.Model != "" && rec.Model != now.Model {
				return fmt.Errorf("variant %s was played with model %q (its record %s), and now gets model %q%s: %w; set it as it was, or run into a new directory",
					now.Variant, rec.Model, rec.Key(), now.Model, fromEnv(v), ErrEndpointMismatch)
			}
		}
	}
	return nil
}

// fromEnv says which of v's model settings come from the environment:
// " from GRUE_MODEL and OPENAI_BASE_URL", or "" when the config names them.
func fromEnv(v Variant) string {
	var vars []string
	if v.Model == "" {
		vars = append(vars, "GRUE_MODEL")
	}
	if v.BaseURL == "" {
		vars = append(vars, "OPENAI_BASE_URL")
	}
	if len(vars) == 0 {
		return ""
	}
	return " from " + strings.Join(vars, " and ")
}

// writeManifest writes the manifest, noting a resumption with the
// episodes left and the failed ones played again.
func (r *runner) writeManifest(remaining, retried int) error {
	if r.opts.Resume {
		r.manifest.Resumes = append(r.manifest.Resumes, Resume{
			Time: stamp(time.Now()), GrueVersion: versionOr(r.opts.Version), GrueRevision: r.revision, Command: r.opts.Command, Remaining: remaining, Retried: retried, Host: hostname(),
		})
	}
	if err := r.manifest.Write(r.out); err != nil {
		return fmt.Errorf("run experiment: %w", err)
	}
	return nil
}

// play plays one episode, with its retries, and records it. It returns an
// error only when the record cannot be written: the run cannot go on.
func (r *runner) play(ctx context.Context, s EpisodeSpec) error {
	r.progress.begin(s)
	attempts := 1 + r.cfg.Retries
	var rec EpisodeRecord
	var res *agent.RunResult
	for attempt := 1; ; attempt++ {
		rec, res = r.attempt(ctx, s)
		rec.Attempts = attempt
		if ctx.Err() != nil {
			r.progress.abandon(s)
			return nil
		}
		if !rec.Failed() || attempt >= attempts {
			break
		}
		r.progress.retry(s, attempt, attempts, rec.Error)
	}
	rec.ConfigHash = r.hash
	r.describe(&rec)
	rec.Trajectory = trajectoryPath(s)
	if old, ok := r.retry[s.Key()]; ok {
		// The failed episode's trajectory stays, as its record does.
		rec.Trajectory = retryTrajectoryPath(rec.Trajectory, old.Trajectory)
	}
	if err := r.writeTrajectory(rec, res); err != nil {
		return err
	}
	r.appendMu.Lock()
	err := appendRecordIn(r.root, ResultsFile, rec)
	if err == nil && r.opts.OnRecord != nil {
		r.opts.OnRecord(rec)
	}
	r.appendMu.Unlock()
	if err != nil {
		return fmt.Errorf("run experiment: %w", err)
	}
	r.progress.end(rec)
	return nil
}

// describe fills in what rec's episode ran: the policy, the model and
// endpoint of an llm variant, grue's revision and where the cost's price
// came from.
func (r *runner) describe(rec *EpisodeRecord) {
	rec.GrueRevision = r.revision
	v, ok := r.cfg.Variant(rec.Variant)
	if !ok {
		return
	}
	rec.Policy = v.policy()
	if rec.Policy != PolicyLLM {
		rec.PriceSource = PriceNone
		return
	}
	for _, e := range r.clients.endpoints {
		if e.Variant == v.Name {
			rec.BaseURL = e.BaseURL
		}
	}
	vc := r.clients.byVariant[v.Name]
	if vc == nil {
		return
	}
	if rec.Model == "" {
		rec.Model = vc.model
	}
	switch {
	case vc.oc == nil:
		rec.PriceSource = PriceReplay
	case vc.oc.PriceKnown(rec.Model):
		rec.PriceSource = PriceTable
	default:
		rec.PriceSource = PriceUnknown
	}
}

// attempt plays episode s once.
func (r *runner) attempt(ctx context.Context, s EpisodeSpec) (EpisodeRecord, *agent.RunResult) {
	started := time.Now()
	failed := func(err error) (EpisodeRecord, *agent.RunResult) {
		rec := EpisodeRecord{
			Variant: s.Variant, Game: s.Game, Seed: s.Seed, LLMSeed: s.LLMSeed,
			FirstPointStep: -1, Error: err.Error(), Started: stamp(started), Finished: stamp(time.Now()),
			DurationMS: time.Since(started).Milliseconds(), GrueVersion: versionOr(r.opts.Version),
		}
		return rec, &agent.RunResult{Error: err.Error(), StoppedBy: agent.StopError, Locations: []string{}, History: []agent.Step{}}
	}
	v, _ := r.cfg.Variant(s.Variant)
	a, err := r.newAgent(v, s)
	if err != nil {
		return failed(err)
	}
	ep, err := newEpisode(ctx, a, r.cfg.gamePath(s.Game), s.Seed, r.opts.Version, r.detections)
	if err != nil {
		return failed(err)
	}
	defer ep.Close()
	ep.Variant, ep.Game, ep.LLMSeed, ep.Started = s.Variant, s.Game, s.LLMSeed, started
	var res *agent.RunResult
	if r.cfg.OnGameOver == GameOverRestart {
		res, err = ep.RunRestarting(ctx, r.steps)
	} else {
		res, err = ep.Run(ctx, r.steps)
	}
	if res == nil {
		return failed(err)
	}
	if err != nil && ctx.Err() == nil && res.Error == "" {
		res.Error = err.Error()
		ep.err = err.Error()
	}
	rec := ep.Record()
	res.Error = rec.Error
	return rec, res
}

// newAgent builds the agent of variant v for episode s.
func (r *runner) newAgent(v Variant, s EpisodeSpec) (*agent.Agent, error) {
	cfg, err := r.cfg.AgentConfig(v, s.LLMSeed)
	if err != nil {
		return nil, err
	}
	a := agent.New(cfg)
	a.Label = s.Key().String()
	switch v.policy() {
	case PolicyRandom, PolicyExplorer:
		if a.Policy, err = agent.NewBaseline(v.policy(), s.Seed, s.Game); err != nil {
			return nil, err
		}
	case PolicyWalkthrough:
		wt, err := r.cfg.walkthrough(s.Game)
		if err != nil {
			return nil, err
		}
		a.Policy = wt
	case PolicyCommands:
		cmds, err := agent.ReadCommands(r.cfg.path(v.CommandsFile))
		if err != nil {
			return nil, fmt.Errorf("commands policy: %w", err)
		}
		a.Policy = agent.NewCommands(cmds, filepath.Base(v.CommandsFile))
	default:
		c := r.clients.byVariant[v.Name]
		if c == nil {
			return nil, fmt.Errorf("variant %s: no model client", v.Name)
		}
		a.LLM = c.client
		if a.Model == "" {
			a.Model = c.model
		}
	}
	return a, nil
}

// Trajectory is what a trajectory file holds: the episode's key and seeds
// and its whole RunResult, every step's prompt and reply included.
type Trajectory struct {
	Variant    string `json:"variant"`
	Game       string `json:"game"`
	Seed       int64  `json:"seed"`
	LLMSeed    int64  `json:"llm_seed"`
	Attempts   int    `json:"attempts"`
	ConfigHash string `json:"config_hash"`
	*agent.RunResult
}

// trajectoryHead is a Trajectory without its RunResult.
type trajectoryHead struct {
	Variant    string `json:"variant"`
	Game       string `json:"game"`
	Seed       int64  `json:"seed"`
	LLMSeed    int64  `json:"llm_seed"`
	Attempts   int    `json:"attempts"`
	ConfigHash string `json:"config_hash"`
}

// MarshalJSON writes the trajectory as one object: its own fields, then
// the RunResult's.
func (t Trajectory) MarshalJSON() ([]byte, error) {
	return t.RunResult.JSONWith(trajectoryHead{t.Variant, t.Game, t.Seed, t.LLMSeed, t.Attempts, t.ConfigHash})
}

// UnmarshalJSON reads a trajectory file, of this version or the previous
// one (see agent.RunResult.UnmarshalJSON).
func (t *Trajectory) UnmarshalJSON(b []byte) error {
	var h trajectoryHead
	if err := json.Unmarshal(b, &h); err != nil {
		return err
	}
	r := new(agent.RunResult)
	if err := json.Unmarshal(b, r); err != nil {
		return err
	}
	*t = Trajectory{h.Variant, h.Game, h.Seed, h.LLMSeed, h.Attempts, h.ConfigHash, r}
	return nil
}

// MaxTrajectoryBytes is the largest trajectory file ReadTrajectory reads.
const MaxTrajectoryBytes = 1 << 30

// ReadTrajectory reads the trajectory file of rec in run directory dir. A
// record whose trajectory is not inside dir (an absolute path, "..", or a
// symbolic link that leads out) gets an error, and nothing is read.
func ReadTrajectory(dir string, rec EpisodeRecord) (*Trajectory, error) {
	if rec.Trajectory == "" {
		return nil, fmt.Errorf("read trajectory: %s has none", rec.Key())
	}
	// The record says where its trajectory is; the run directory says
	// what the record says, and may come from anyone: only a file
	// inside the run directory is read (no "..", no absolute path, no
	// link out of it).
	if !filepath.IsLocal(filepath.FromSlash(rec.Trajectory)) {
		return nil, fmt.Errorf("read trajectory: %s: %q is not a path inside the run directory", rec.Key(), rec.Trajectory)
	}
	b, err := boundedfile.ReadFileIn(dir, filepath.FromSlash(rec.Trajectory), MaxTrajectoryBytes)
	if err != nil {
		return nil, fmt.Errorf("read trajectory: %w", err)
	}
	var t Trajectory
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("read trajectory %s: %w", rec.Trajectory, err)
	}
	return &t, nil
}

// writeTrajectory writes the episode's trajectory file.
func (r *runner) writeTrajectory(rec EpisodeRecord, res *agent.RunResult) error {
	if err := r.root.MkdirAll(filepath.Dir(rec.Trajectory), 0o755); err != nil {
		return fmt.Errorf("run experiment: trajectory of %s: %w", rec.Key(), err)
	}
	t := Trajectory{Variant: rec.Variant, Game: rec.Game, Seed: rec.Seed, LLMSeed: rec.LLMSeed,
		Attempts: rec.Attempts, ConfigHash: rec.ConfigHash, RunResult: res}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return fmt.Errorf("run experiment: trajectory of %s: %w", rec.Key(), err)
	}
	if err := atomicfile.WriteIn(r.root, rec.Trajectory, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("run experiment: trajectory of %s: %w", rec.Key(), err)
	}
	return nil
}

// unsafeName matches what may not go in a file name.
var unsafeName = lazyregexp.New(`[^A-Za-z0-9._-]+`)

// trajectoryPath is the trajectory file of s, relative to the run
// directory: trajectories/<variant>/<game>_<seed>.json, the game's name
// made safe (a story path becomes its file name without extension and a
// short hash of the path, so two paths never share a file).
func trajectoryPath(s EpisodeSpec) string {
	g := s.Game
	if strings.ContainsAny(g, `/\`) || filepath.Ext(g) != "" {
		base := strings.TrimSuffix(filepath.Base(g), filepath.Ext(g))
		g = fmt.Sprintf("%s-%08x", base, uint32(LLMSeed(0, "", g, 0)))
	}
	g = unsafeName.ReplaceAllString(g, "_")
	return filepath.ToSlash(filepath.Join(TrajectoriesDir, unsafeName.ReplaceAllString(s.Variant, "_"), fmt.Sprintf("%s_%d.json", g, s.Seed)))
}

// retryNumber matches the suffix retryTrajectoryPath gives: ".retry<N>.json".
var retryNumber = lazyregexp.New(`\.retry(\d+)\.json$`)

// retryTrajectoryPath is the trajectory file of an episode played again
// because its record, with trajectory file old, failed: path (the
// episode's trajectoryPath) with ".retry1.json" for ".json", or the next
// number after old's.
func retryTrajectoryPath(path, old string) string {
	n := 1
	if m := retryNumber.FindStringSubmatch(old); m != nil {
		k, _ := strconv.Atoi(m[1])
		n = k + 1
	}
	return strings.TrimSuffix(path, ".json") + fmt.Sprintf(".retry%d.json", n)
}

// clients are the model clients of a run's llm variants.
type clients struct {
	byVariant map[string]*variantClient
	endpoints []Endpoint
}

type variantClient struct {
	client llm.Client
	model  string
	oc     *openai.Client // nil for a replay
}

// noteDropped records in the endpoints what each variant's client left
// out of its requests, on top of what earlier runs recorded (was).
func (cs *clients) noteDropped(eps []Endpoint) {
	for i, e := range eps {
		vc := cs.byVariant[e.Variant]
		if vc == nil || vc.oc == nil {
			continue
		}
		for _, d := range vc.oc.Dropped() {
			if !slices.ContainsFunc(e.Dropped, func(x llm.Dropped) bool { return x.Model == d.Model && x.Param == d.Param }) {
				eps[i].Dropped = append(eps[i].Dropped, d)
			}
		}
	}
}

// newClients builds a model client for each llm variant: its model and
// endpoint from the config or the environment, behind the endpoint's
// shared rate limiter and the experiment's response cache.
func newClients(ctx context.Context, cfg *Config) (*clients, error) {
	cs := &clients{byVariant: map[string]*variantClient{}}
	mode := llm.CacheOff
	if cfg.Cache.Dir != "" {
		mode = llm.CacheReadWrite
	}
	if cfg.Cache.Mode != "" {
		m, err := llm.ParseCacheMode(cfg.Cache.Mode)
		if err != nil {
			return nil, fmt.Errorf("cache.mode: %w", err)
		}
		mode = m
	}
	var cache *llm.Cache
	limiters := newLimiters(cfg.RateLimit)
	env := llm.ConfigFromEnv()
	for _, v := range cfg.Variants {
		if v.policy() != PolicyLLM {
			continue
		}
		lc := variantLLMConfig(v, env)
		if lc.BaseURL != "" && mode != llm.CacheReplayOnly {
			// One call to /models before any episode: a misspelt
			// model fails here, and a server's one model is the
			// default.
			checked, err := openai.CheckModel(ctx, lc)
			if errors.Is(err, openai.ErrNoModel) {
				return nil, fmt.Errorf("variant %s: %w, or give the variant a model: in the config", v.Name, err)
			}
			if err != nil {
				return nil, fmt.Errorf("variant %s: %w", v.Name, err)
			}
			lc = checked
		}
		if mode == llm.CacheReplayOnly && lc.Model != "" {
			// A replay sends nothing: the model names the recorded
			// replies, and no endpoint is needed (the cache's keys do
			// not depend on it).
		} else if !lc.Configured() {
			return nil, fmt.Errorf("variant %s: no model configured: give model and base_url in the config, or set OPENAI_BASE_URL and GRUE_MODEL (or OPENAI_API_KEY, or HF_TOKEN)", v.Name)
		}
		if v.APIKeyEnv != "" {
			if err := llm.CheckKeyEnv(v.APIKeyEnv); err != nil {
				return nil, fmt.Errorf("variant %s: api_key_env: %w", v.Name, err)
			}
			if lc.APIKey == "" && mode != llm.CacheReplayOnly {
				// A replay sends nothing: it needs no key.
				return nil, fmt.Errorf("variant %s: api_key_env: the variable %s is not set", v.Name, v.APIKeyEnv)
			}
		}
		base := strings.TrimRight(lc.BaseURL, "/")
		cs.endpoints = append(cs.endpoints, Endpoint{Variant: v.Name, Model: lc.Model, BaseURL: llm.RedactURL(base), APIKeyEnv: lc.KeyEnv, SeedIgnored: lc.SeedIgnored()})
		if mode != llm.CacheOff && cache == nil {
			c, err := llm.NewCache(cfg.path(cfg.Cache.Dir), mode)
			if err != nil {
				return nil, err
			}
			cache = c
		}
		var client llm.Client
		var oc *openai.Client
		if mode == llm.CacheReplayOnly {
			client = llm.ReplayFrom(cache, lc.Model, base)
		} else {
			var err error
			oc, err = openai.New(lc)
			if err != nil {
				return nil, fmt.Errorf("variant %s: %w", v.Name, err)
			}
			client = limiters.wrap(oc, base)
			if mode != llm.CacheOff {
				client = llm.WithCache(client, cache)
			}
		}
		cs.byVariant[v.Name] = &variantClient{client: client, model: lc.Model, oc: oc}
		ep := &cs.endpoints[len(cs.endpoints)-1]
		switch {
		case oc == nil:
			ep.PriceSource = PriceReplay
		case oc.PriceKnown(lc.Model):
			ep.PriceSource = PriceTable
		default:
			ep.PriceSource = PriceUnknown
		}
	}
	return cs, nil
}

// variantLLMConfig is the client config of variant v: the environment's,
// with the variant's model, endpoint and key variable on top. The
// environment's API key goes only to the environment's endpoint: a config
// that names another endpoint names the variable that holds its key
// (api_key_env), so that a shared config cannot send a key elsewhere.
func variantLLMConfig(v Variant, env llm.Config) llm.Config {
	lc := env
	if v.Model != "" {
		lc.Model = v.Model
	}
	if v.BaseURL != "" && strings.TrimRight(v.BaseURL, "/") != strings.TrimRight(env.BaseURL, "/") {
		lc.BaseURL = v.BaseURL
		lc.APIKey, lc.KeyEnv = "", ""
	}
	if v.APIKeyEnv != "" {
		lc.APIKey, lc.KeyEnv = os.Getenv(v.APIKeyEnv), v.APIKeyEnv
	}
	if lc.APIKey == "" {
		lc.KeyEnv = ""
	}
	lc.Stream = v.Stream
	lc.DropParams = slices.Clone(v.DropParams)
	lc.ReasoningModel = v.ReasoningModel
	return lc
}

// baseline is the variant the run's comparisons pair the others with:
// RunOptions.Baseline, or the config's first variant.
func (r *runner) baseline() string {
	if r.opts.Baseline != "" {
		return r.opts.Baseline
	}
	return r.cfg.Variants[0].Name
}
