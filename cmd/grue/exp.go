package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/harness/bench"
	"github.com/grue-lab/grue/internal/cli"
)

// newExpCmd is grue exp: run experiments and compare their results.
func newExpCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "exp",
		Short: "Run experiments (variants x games x seeds) and compare their results",
		Long: `grue exp runs an experiment described in YAML (see experiments/ and the
documentation of harness.Config): every variant of an agent on every game
from every seed, in parallel, into a run directory that survives being
killed. grue exp compare then says, with paired bootstrap intervals and
sign tests, which variant plays better, and grue exp export writes the
results as TALES, ATIF or Inspect files for other tools.

Past one machine, grue exp run --shard I/N plays one part of the episodes;
grue exp slurm runs them as a Slurm job array, grue exp k8s as a
Kubernetes Indexed Job, and grue exp status and merge read all the shards
(docs/scaling.md).`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cli.UsageError{Err: errors.New("name a subcommand: run, compare, export, status, merge, slurm or k8s")}
		},
	}
	cmd.AddCommand(newExpRunCmd(stdout, stderr), newExpCompareCmd(stdout, stderr),
		newExpExportCmd(stdout), newExpStatusCmd(stdout), newExpMergeCmd(stdout, stderr), newExpSlurmCmd(stdout, stderr), newExpK8sCmd(stdout))
	return cmd
}

// expRunFlags are grue exp run's command line.
type expRunFlags struct {
	out      string
	parallel int
	resume   bool
	retry    bool
	steps    int
	trials   int
	seeds    string
	quiet    bool
	baseline string
	shard    string
}

func newExpRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var f expRunFlags
	cmd := &cobra.Command{
		Use:   "run CONFIG.yaml",
		Short: "Run an experiment into a run directory",
		Long: `Run every episode of the experiment CONFIG.yaml into a run directory
(--out, by default runs/<name>-<time>): manifest.json (the config, its hash,
grue's version, the start time and command line, and each model variant's
endpoint with the request parameters its client left out), results.jsonl (one
record per finished episode, synced as each ends) and trajectories/ (one
file per episode, every step's prompt and reply included).

Progress goes to stderr: a bar per variant on a terminal, else a line per
episode. At the end grue prints where the results are and the comparison
table (as grue exp compare does).

Ctrl-C once stops starting episodes and lets those in flight finish;
twice stops at once. Either way, and after a kill, --resume with the same
config and flags plays what is left and nothing twice. An episode that
failed after all its retries (a model server that was down) keeps its
record; --resume --retry-failed plays it again, and its new record
supersedes the failed one (results.jsonl keeps both: it is only appended
to). A model variant that takes its model from the environment
(GRUE_MODEL, OPENAI_BASE_URL) must get the same one to resume.

--steps, --trials and --seeds override the config's max_steps, trials and
seeds (a quick trial run of a big experiment); they change the config's
hash, so a resumed run needs the same ones.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExp(cmd, args[0], f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "the run directory (default runs/<name>-<YYYYMMDD-HHMMSS>)")
	fl.IntVar(&f.parallel, "parallel", 0, "episodes at once (default: the config's parallel, else 4)")
	fl.BoolVar(&f.resume, "resume", false, "finish the run in --out: play the episodes it has no record of")
	fl.BoolVar(&f.retry, "retry-failed", false, "with --resume: also play again the episodes whose record is an error")
	fl.IntVar(&f.steps, "steps", 0, "override max_steps")
	fl.IntVar(&f.trials, "trials", 0, "override the seeds: this many, from base_seed")
	fl.StringVar(&f.seeds, "seeds", "", "override the seeds: a comma-separated list")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress display")
	fl.StringVar(&f.baseline, "baseline", "", "the variant the others are compared with, recorded in the manifest for grue exp compare (default: the config's first)")
	fl.StringVar(&f.shard, "shard", "", "play only shard I/N of the episodes, into DIR/shards/ (default: from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/GRUE_SHARD_COUNT)")
	return cmd
}

// checkRunFlags checks the flags of grue exp run that go together, and
// returns the shard to play (nil for the whole run).
func checkRunFlags(f expRunFlags) (*harness.Shard, error) {
	if f.resume && f.out == "" {
		return nil, errors.New("--resume needs --out DIR, the run to finish")
	}
	if f.retry && !f.resume {
		return nil, errors.New("--retry-failed goes with --resume (and --out DIR): it plays again the failed episodes of a run")
	}
	if f.parallel < 0 {
		return nil, fmt.Errorf("--parallel must be positive, not %d", f.parallel)
	}
	shard, err := runShard(f)
	if err != nil {
		return nil, err
	}
	if shard != nil && f.out == "" {
		return nil, errors.New("--shard needs --out DIR, the run directory all the shards share")
	}
	return shard, nil
}

// drainOnInterrupt makes the first Ctrl-C close the returned drain
// channel (the run finishes the episodes in flight and starts no more)
// and the second cancel the run; SIGTERM cancels at once (stopOnTerm).
// stop undoes the signal handling.
func drainOnInterrupt(ctx context.Context, cancel context.CancelFunc, stderr io.Writer) (drain chan struct{}, stop func()) {
	drain = make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	stopOnTerm(ctx, cancel, stderr)
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		fmt.Fprintln(stderr, "grue exp run: interrupted: finishing the episodes in flight (Ctrl-C again to stop now)")
		close(drain)
		select {
		case <-sigs:
			fmt.Fprintln(stderr, "grue exp run: stopping now: the episodes in flight are abandoned")
			cancel()
		case <-ctx.Done():
		}
	}()
	return drain, func() { signal.Stop(sigs) }
}

func runExp(cmd *cobra.Command, path string, f expRunFlags, stdout, stderr io.Writer) error {
	cfg, err := harness.LoadConfig(path)
	if err != nil {
		return err
	}
	if err := applyOverrides(cfg, f); err != nil {
		return cli.UsageError{Err: err}
	}
	shard, err := checkRunFlags(f)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	out := f.out
	if out == "" {
		out = harness.DefaultOut(cfg.Name, time.Now())
	}

	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	drain, stopSignals := drainOnInterrupt(ctx, cancel, stderr)
	defer stopSignals()

	// The failed episodes that a resume without --retry-failed leaves.
	left := 0
	if f.resume && !f.retry {
		left = failedEpisodes(runDir(out, shard), cfg)
	}
	opts := harness.RunOptions{
		Out:         out,
		Parallel:    f.parallel,
		Resume:      f.resume,
		RetryFailed: f.retry,
		Drain:       drain,
		Command:     append([]string{"grue"}, os.Args[1:]...),
		Version:     cli.Version(),
		Shard:       shard,
		Baseline:    f.baseline,
	}
	if !f.quiet {
		opts.Progress = stderr
	}
	rs, runErr := harness.Run(ctx, cfg, opts)
	if rs == nil {
		return runErr
	}
	interrupted := runErr != nil || isClosed(drain)
	resume := fmt.Sprintf("grue exp run %s --out %s --resume%s", path, out, overrideFlags(f))
	want := len(cfg.Episodes())
	if shard != nil {
		want = len(shard.Episodes(cfg.Episodes()))
		resume += " --shard " + shard.String()
	}
	fmt.Fprintf(stdout, "Results: %s (%d of %d episodes)\n", runDir(out, shard), rs.Len(), want)
	failed := 0
	for _, r := range rs.Records {
		if r.Failed() {
			failed++
		}
	}
	if failed > 0 {
		msg := fmt.Sprintf("Failed: %d episodes", failed)
		if left > 0 {
			msg += fmt.Sprintf(", %d of them left as they were by --resume", min(left, failed))
		}
		fmt.Fprintf(stdout, "%s (see their error in results.jsonl); play them again with:\n  %s --retry-failed\n", msg, resume)
	}
	for _, p := range rs.Problems {
		fmt.Fprintf(stderr, "grue exp run: %s\n", p)
	}
	if rs.Len() > 0 {
		// The run's baseline, which its manifest records: --baseline,
		// else the config's first variant; grue exp compare pairs the
		// same way.
		c, err := harness.Compare(rs, f.baseline, harness.CompareOptions{})
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		if err := c.WriteWidth(stdout, harness.FormatTable, tableWidth(stdout)); err != nil {
			return err
		}
	}
	if interrupted && rs.Len() < want {
		fmt.Fprintf(stdout, "\nThe run stopped early; finish it with:\n  %s\n", resume)
		if runErr == nil {
			runErr = errors.New("interrupted")
		}
	}
	return runErr
}

// failedEpisodes counts the episodes of cfg whose record in run directory
// dir is an error; 0 when there is no run there (Run says so).
func failedEpisodes(dir string, cfg *harness.Config) int {
	rs, err := harness.LoadResults(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, s := range cfg.Episodes() {
		if r, ok := rs.Lookup(s.Key()); ok && r.Failed() {
			n++
		}
	}
	return n
}

// isClosed reports whether ch is closed.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// applyOverrides applies --steps, --trials and --seeds to cfg.
func applyOverrides(cfg *harness.Config, f expRunFlags) error {
	if f.steps < 0 || f.trials < 0 {
		return errors.New("--steps and --trials must be positive")
	}
	if f.steps > harness.MaxSteps {
		return fmt.Errorf("--steps %d: more than the limit of %d", f.steps, harness.MaxSteps)
	}
	if f.trials > harness.MaxSeeds {
		return fmt.Errorf("--trials %d: more than the limit of %d", f.trials, harness.MaxSeeds)
	}
	if f.parallel > harness.MaxParallel {
		return fmt.Errorf("--parallel %d: more than the limit of %d", f.parallel, harness.MaxParallel)
	}
	if f.steps > 0 {
		cfg.MaxSteps = f.steps
	}
	if f.trials > 0 && f.seeds != "" {
		return errors.New("give --trials or --seeds, not both")
	}
	if f.trials > 0 {
		cfg.Trials, cfg.Seeds = f.trials, nil
	}
	if f.seeds != "" {
		seeds, err := parseSeeds(f.seeds)
		if err != nil {
			return err
		}
		cfg.Seeds, cfg.Trials = seeds, 0
	}
	return nil
}

// parseSeeds reads --seeds: a comma-separated list of at most
// harness.MaxSeeds numbers.
func parseSeeds(list string) ([]int64, error) {
	var seeds []int64
	parts := strings.Split(list, ",")
	if len(parts) > harness.MaxSeeds {
		return nil, fmt.Errorf("--seeds: %d seeds, more than the limit of %d", len(parts), harness.MaxSeeds)
	}
	for _, s := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds: %q is not a number", s)
		}
		seeds = append(seeds, n)
	}
	return seeds, nil
}

// overrideFlags repeats the overrides given, for the resume command line.
func overrideFlags(f expRunFlags) string {
	var b strings.Builder
	if f.steps > 0 {
		fmt.Fprintf(&b, " --steps %d", f.steps)
	}
	if f.trials > 0 {
		fmt.Fprintf(&b, " --trials %d", f.trials)
	}
	if f.seeds != "" {
		fmt.Fprintf(&b, " --seeds %s", f.seeds)
	}
	return b.String()
}

// expCompareFlags are grue exp compare's command line.
type expCompareFlags struct {
	baseline      string
	format        string
	plot          string
	includeFailed bool
	pairAcross    bool
	score         string
}

func newExpCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	var f expCompareFlags
	cmd := &cobra.Command{
		Use:   "compare DIR...",
		Short: "Compare the variants of one or more run directories",
		Long: `Compare the results of run directories (or results.jsonl files): for each
variant and game the episodes, mean score and percent of the maximum with a
bootstrap 95% interval, moves, rooms, steps to the first point, the
invalid-action rate, tokens and cost; for each variant against the
baseline, the paired difference over the (game, seed) pairs both played,
with a paired bootstrap interval and a sign test; and a leaderboard.

Runs are never merged: when the runs compared share variant names, each
variant is named RUN/NAME by its run (its config's label:, else its
directory's name), each run's variants are paired with that run's baseline,
and --pair-across pairs them all with one baseline (--baseline, which may
name RUN/NAME, else the first run's). Only a record repeated inside one run
replaces the earlier one.

A grue bench run's games are named as its protocol names them (not by
the story files' paths), so bench runs over different folders pair.
--score high counts the highest score an episode reached at any step
instead of its last; it is the default when every run compared is a bench
run of a protocol that counts it (tales, textquests), and --score final
then counts the last.

--plot DIR also draws score against step for each variant (mean and
band), one SVG and one PNG per game.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.UsageError{Err: errors.New("name at least one run directory")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return compareExp(args, f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.baseline, "baseline", "", "the variant the others are compared with (default: the run's, which its manifest records: the config's first variant unless exp run --baseline named another)")
	fl.StringVar(&f.format, "format", harness.FormatTable, "table, md, csv or json")
	fl.StringVar(&f.plot, "plot", "", "also write score-by-step plots (SVG and PNG) into this directory")
	fl.BoolVar(&f.includeFailed, "include-failed", false, "count the scores of episodes that ended in an error")
	fl.StringVar(&f.score, "score", "", "the score that counts: final (the last) or high (the highest reached); default high for bench runs of tales and textquests, else final")
	fl.BoolVar(&f.pairAcross, "pair-across", false, "when the runs share variant names, pair every variant with one baseline across runs (default: within each run, against its own baseline)")
	return cmd
}

func compareExp(dirs []string, f expCompareFlags, stdout, stderr io.Writer) error {
	switch strings.ToLower(f.format) {
	case harness.FormatTable, harness.FormatMarkdown, "markdown", harness.FormatCSV, harness.FormatJSON:
	default:
		return cli.UsageError{Err: fmt.Errorf("unknown --format %q (table, md, csv or json)", f.format)}
	}
	rs, err := harness.LoadRun(dirs...)
	if err != nil {
		return err
	}
	for _, p := range rs.Problems {
		fmt.Fprintf(stderr, "grue exp compare: %s\n", p)
	}
	score, err := benchCompare(dirs, rs, strings.ToLower(f.score), stderr)
	if err != nil {
		return err
	}
	c, err := harness.Compare(rs, f.baseline, harness.CompareOptions{IncludeFailed: f.includeFailed, PairAcross: f.pairAcross, Score: score})
	if err != nil {
		return err
	}
	if err := c.WriteWidth(stdout, f.format, tableWidth(stdout)); err != nil {
		return err
	}
	if f.plot != "" {
		files, err := harness.PlotScores(rs, f.plot, harness.PlotOptions{})
		if err != nil {
			return err
		}
		for _, p := range files {
			fmt.Fprintf(stderr, "wrote %s\n", p)
		}
	}
	return nil
}

// benchCompare names the games of the grue bench runs among dirs by their
// protocol's names, and returns the score to compare: score when given,
// else ScoreHigh when every run is a bench run of a protocol that counts
// the highest score reached (said on stderr), else ScoreFinal.
func benchCompare(dirs []string, rs *harness.ResultSet, score string, stderr io.Writer) (string, error) {
	switch score {
	case "", harness.ScoreFinal, harness.ScoreHigh:
	default:
		return "", cli.UsageError{Err: fmt.Errorf("unknown --score %q (final or high)", score)}
	}
	names := map[string]string{}
	high := true
	var protocols []string
	for _, d := range dirs {
		m := runManifest(d)
		if m == nil || m.Benchmark == nil {
			high = false
			continue
		}
		p, err := bench.Lookup(m.Benchmark.Protocol)
		if err != nil {
			return "", fmt.Errorf("%s: %w", d, err)
		}
		high = high && p.HighScore
		if !slices.Contains(protocols, p.Name) {
			protocols = append(protocols, p.Name)
		}
		maps.Copy(names, bench.GameNames(m))
	}
	if len(names) > 0 {
		if err := rs.RenameGames(names); err != nil {
			return "", err
		}
	}
	if score == "" {
		score = harness.ScoreFinal
		if high && len(protocols) > 0 {
			score = harness.ScoreHigh
			fmt.Fprintf(stderr, "grue exp compare: the score is the highest reached at any step, as %s counts it (--score final for the last)\n", strings.Join(protocols, " and "))
		}
	}
	return score, nil
}

// runManifest is the manifest of the run at path (a run directory, a
// sharded one, or its results file), nil when it has none.
func runManifest(path string) *harness.Manifest {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		path = filepath.Dir(path)
	}
	if m, err := harness.ReadManifest(path); err == nil {
		return m
	}
	if harness.IsSharded(path) {
		if m, err := harness.MergeShards(path); err == nil {
			return m.Manifest
		}
	}
	return nil
}
