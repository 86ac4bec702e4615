package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/harness/bench"
	"github.com/grue-lab/grue/internal/cli"
)

// benchFlags are grue bench's command line.
type benchFlags struct {
	list       bool
	summary    string
	games      string
	policy     string
	commands   string
	model      string
	baseURL    string
	apiKeyEnv  string
	seeds      string
	steps      int
	admissible bool
	out        string
	parallel   int
	resume     bool
	shard      string
	quiet      bool
}

func newBenchCmd(stdout, stderr io.Writer) *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench PROTOCOL",
		Short: "Play a published benchmark's protocol (tales, textquests, agentboard)",
		Long: `grue bench plays a published benchmark's protocol on the story files you
bring (--games DIR, by default $GRUE_GAMES), so that a grue number can stand
next to a published one: TALES (Microsoft, 2025), TextQuests (CAIS, 2025) or
AgentBoard's Jericho tasks. grue bench --list says what each is, its rules
and the repository, files and commits they were read from
(docs/benchmarks.md).

The protocol's games are found by content: the MD5 it lists for each file,
so a renamed file is found, and a file named as a game that is another
release is reported ("different file") and not played; a game with no file
is reported missing. Each game is played from the protocol's seeds (TALES:
each game's Jericho seed) for its step budget, with its rule at game over
(TALES starts the game again and plays on within the budget; what counts is
the highest score reached), admissible commands off unless
--admissible-commands.

Who plays: the agent's model (--model, --base-url, or the environment, as
grue agent), or a baseline with --policy (random, walkthrough, explorer, or
commands with --commands FILE to replay a command file).

The run is an ordinary run directory (--out, by default
runs/<protocol>-<time>): grue exp status, compare, export, merge and
--resume work on it, and --shard I/N plays one part (Slurm:
docs/benchmarks.md). Its manifest records the protocol, each game as found
and every way grue differs from the protocol; the summary printed at the
end, in the protocol's own column names, lists them too. grue bench
--summary DIR prints it again for a run (after grue exp merge, say).`,
		Args: cli.MaxArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return bench.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.list:
				if len(args) > 0 {
					return cli.UsageError{Err: errors.New("--list takes no protocol")}
				}
				return bench.List(stdout)
			case f.summary != "":
				if len(args) > 0 {
					return cli.UsageError{Err: errors.New("--summary DIR takes no protocol: the run's manifest names it")}
				}
				return printBenchSummary(f.summary, stdout)
			case len(args) == 0:
				return cli.UsageError{Err: fmt.Errorf("name a protocol (%s), or --list", strings.Join(bench.Names(), ", "))}
			}
			return runBench(cmd, args[0], f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.list, "list", false, "say what each protocol is, its rules and its source")
	fl.StringVar(&f.summary, "summary", "", "print the summary of the grue bench run in DIR")
	fl.StringVar(&f.games, "games", "", "the folder of story files (default $"+game.GamesEnv+")")
	fl.StringVar(&f.policy, "policy", "", "who plays: "+strings.Join(harness.PolicyNames(), ", ")+" (default llm)")
	fl.StringVar(&f.commands, "commands", "", "with --policy commands: the command file to replay, one command a line")
	fl.StringVar(&f.model, "model", "", "the model (default $GRUE_MODEL)")
	fl.StringVar(&f.baseURL, "base-url", "", "the model's OpenAI-compatible endpoint (default $OPENAI_BASE_URL)")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "the environment variable holding the endpoint's key (default OPENAI_API_KEY)")
	fl.StringVar(&f.seeds, "seeds", "", "override the protocol's seeds: a comma-separated list, for every game")
	fl.IntVar(&f.steps, "steps", 0, "override the protocol's step budget (the run records it as a deviation)")
	fl.BoolVar(&f.admissible, "admissible-commands", false, "give the agent the valid_actions tool (the protocol's admissible commands)")
	fl.StringVar(&f.out, "out", "", "the run directory (default runs/<protocol>-<YYYYMMDD-HHMMSS>)")
	fl.IntVar(&f.parallel, "parallel", 0, "episodes at once (default 4)")
	fl.BoolVar(&f.resume, "resume", false, "finish the run in --out")
	fl.StringVar(&f.shard, "shard", "", "play only shard I/N of the episodes, into DIR/shards/ (default: from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress display")
	cli.CompleteWords(cmd, "policy", harness.PolicyNames()...)
	return cmd
}

// benchOptions turns the flags into the protocol run's options.
func benchOptions(f benchFlags) (bench.Options, error) {
	var o bench.Options
	policy := strings.ToLower(f.policy)
	if (policy == harness.PolicyCommands) != (f.commands != "") {
		return o, errors.New("--policy commands and --commands FILE go together")
	}
	if policy != "" && policy != harness.PolicyLLM && (f.model != "" || f.baseURL != "" || f.apiKeyEnv != "") {
		return o, fmt.Errorf("--policy %s plays without a model: --model, --base-url and --api-key-env are for --policy llm", policy)
	}
	o.Variant = harness.Variant{Name: cmp.Or(policy, harness.PolicyLLM), Policy: policy, CommandsFile: f.commands,
		Model: f.model, BaseURL: f.baseURL, APIKeyEnv: f.apiKeyEnv}
	if f.steps < 0 || f.steps > harness.MaxSteps {
		return o, fmt.Errorf("--steps %d: give 1 to %d", f.steps, harness.MaxSteps)
	}
	o.Steps, o.Admissible = f.steps, f.admissible
	if f.seeds != "" {
		seeds, err := parseSeeds(f.seeds)
		if err != nil {
			return o, err
		}
		o.Seeds = seeds
	}
	return o, nil
}

func runBench(cmd *cobra.Command, name string, f benchFlags, stdout, stderr io.Writer) error {
	p, err := bench.Lookup(name)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	opts, err := benchOptions(f)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	dir := f.games
	if dir == "" {
		dir = os.Getenv(game.GamesEnv)
	}
	if dir == "" {
		return cli.UsageError{Err: fmt.Errorf("give the folder of story files: --games DIR, or set %s", game.GamesEnv)}
	}
	if f.parallel < 0 || f.parallel > harness.MaxParallel {
		return cli.UsageError{Err: fmt.Errorf("--parallel %d: give 1 to %d", f.parallel, harness.MaxParallel)}
	}
	shard, err := checkRunFlags(expRunFlags{out: f.out, parallel: f.parallel, resume: f.resume, shard: f.shard})
	if err != nil {
		return cli.UsageError{Err: err}
	}
	plan, err := bench.NewPlan(p, dir, opts)
	if errors.Is(err, bench.ErrNoGames) {
		// Say what was looked for before failing.
		writeNotPlayed(stderr, plan.Benchmark)
	}
	if err != nil {
		return fmt.Errorf("grue bench: %w", err)
	}
	out := f.out
	if out == "" {
		out = harness.DefaultOut(p.Name, time.Now())
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	drain, stopSignals := drainOnInterrupt(ctx, cancel, stderr)
	defer stopSignals()
	ro := harness.RunOptions{
		Out: out, Parallel: f.parallel, Resume: f.resume, Drain: drain,
		Command: append([]string{"grue"}, os.Args[1:]...), Version: cli.Version(),
		Shard: shard, Benchmark: plan.Benchmark,
	}
	if !f.quiet {
		ro.Progress = stderr
	}
	rs, runErr := harness.Run(ctx, plan.Config, ro)
	if rs == nil {
		return runErr
	}
	where := runDir(out, shard)
	fmt.Fprintf(stdout, "Results: %s (%d of %d episodes)\n\n", where, rs.Len(), len(plan.Config.Episodes()))
	for _, pr := range rs.Problems {
		fmt.Fprintf(stderr, "grue bench: %s\n", pr)
	}
	if err := printBenchSummary(where, stdout); err != nil {
		return err
	}
	if runErr != nil || isClosed(drain) {
		fmt.Fprintf(stdout, "\nThe run stopped early; finish it with the same command and --out %s --resume\n", out)
		if runErr == nil {
			runErr = errors.New("interrupted")
		}
	}
	return runErr
}

// writeNotPlayed says, for a run that plays nothing, what was looked for.
func writeNotPlayed(w io.Writer, b *harness.Benchmark) {
	if b == nil {
		return
	}
	for _, g := range b.Games {
		fmt.Fprintf(w, "grue bench: %s: %s (%s)\n", g.Name, g.Status, g.Note)
	}
}

// printBenchSummary prints the protocol summary of the run in dir.
func printBenchSummary(dir string, stdout io.Writer) error {
	m, err := harness.ReadManifest(dir)
	if err != nil {
		return fmt.Errorf("grue bench: %w", err)
	}
	rs, err := harness.LoadResults(dir)
	if err != nil {
		return fmt.Errorf("grue bench: %w", err)
	}
	s, err := bench.Summarize(m, rs)
	if err != nil {
		return fmt.Errorf("grue bench: %s: %w", dir, err)
	}
	return s.Write(stdout)
}
