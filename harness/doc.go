// Package harness runs agents on games many times and says, honestly,
// which variant plays better.
//
// # Episodes
//
// An episode is one agent playing one game from one game seed (the VM's
// random numbers) with one LLM seed, until the game ends or a limit (steps,
// tokens, cost, time) is reached. When it finishes it leaves an
// [EpisodeRecord]: final and maximum score, whether the game ended and
// whether it was won, moves and steps, rooms visited, the step of the
// first point, invalid actions, tokens (and how many were estimated),
// cost, duration, the score after every step, and what is needed to
// reproduce it (seeds, model, config hash, grue version). An episode that
// fails after its retries records its Error.
//
// # Experiments
//
// An experiment runs every variant of an agent (model, prompt, memory,
// tools...) on every game over a list of seeds, in parallel. Its run
// directory holds results.jsonl: one EpisodeRecord a line, appended and
// synced as each episode ends ([AppendRecord]), so a run killed at any
// moment loses only the episodes in flight, and a resumed run skips the
// (variant, game, seed) keys already there. A resumed run may also play
// again the episodes that failed ([RunOptions].RetryFailed): their new
// records are appended and supersede the failed ones, so the file only
// grows and each key still counts once.
//
// An experiment is a [Config], read from YAML ([LoadConfig]: strict, every
// error names the file, line, column and field) or built in code; [Run]
// plays its episodes ([Config.Episodes]: variant x game x seed, each with
// an LLM seed derived from them) in parallel into a run directory with a
// manifest.json ([ReadManifest]), results.jsonl and one trajectory file per
// episode ([ReadTrajectory]), retrying episodes that errored, rate limiting
// each model endpoint, and showing progress. RunOptions.Resume finishes a
// run that was killed; a different config ([Config.Hash]), or a variant
// that now gets another model or endpoint from the environment, is
// refused.
//
// An [Episode] is one [agent.Agent] on one [game.Game] and seed, stepped by
// hand in the REPL ([Episode.Step], [Episode.Run], [Episode.Prompt]) or
// forked to try something else ([Episode.Fork]: the same game state and
// history on a new game); [Episode.Record] turns it into an EpisodeRecord,
// counting invalid actions as [InvalidAction] says.
//
// # Results
//
// [LoadResults] reads one or more run directories into a [ResultSet]. A line
// cut short by a crash, or otherwise not a record, is skipped and reported
// with its file and line in ResultSet.Problems; a key seen twice in one run
// keeps its later record (reported as a problem unless the earlier one had
// failed). Records of different runs never replace each other: when runs
// share variant names, each variant is named "LABEL/NAME" by its run
// (ResultSet.RunsApart), and Compare pairs within each run unless
// CompareOptions.PairAcross. ByVariant, ByGame and Filter narrow a set;
// Variants and Games list what it holds.
//
// # Comparing variants
//
// [Compare] turns a ResultSet into a [Comparison]. For each variant and game:
// episodes, errors, the episodes that won the game and those whose game
// ended otherwise (a death), mean score and percent of the maximum with a
// seeded percentile bootstrap 95% interval, moves, rooms, steps to the
// first point, invalid-action rate, tokens (marked "~" in the tables when
// some are the agent's estimates for replies without usage) and cost. For each variant against a
// baseline: the paired difference over the (game, seed) pairs both played,
// with a paired bootstrap interval and an exact sign test p-value; pairing
// cancels what a seed makes easy or hard for every variant, so small
// differences show up with few seeds. A leaderboard ranks the variants by
// mean percent of the maximum over games.
//
//	rs, err := harness.LoadResults("runs/memory-ab")
//	c, err := harness.Compare(rs, "baseline", harness.CompareOptions{})
//	c.Write(os.Stdout, "table") // or "md", "csv", "json"
//
// The terminal table shows each variant's mean score by step as a
// sparkline ([Sparkline]); [PlotScores] draws the same curves with a band (the
// bootstrap interval of the mean, or ± one standard deviation) as SVG and
// PNG files, one per game. The statistics themselves (Mean, Std,
// BootstrapMeanCI, PairedDifference, SignTestP) are exported for scripts.
package harness
