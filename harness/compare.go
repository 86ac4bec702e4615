package harness

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// CompareOptions tune Compare. The zero value is a 95% interval from
// 10,000 resamples with seed 1, and failed episodes left out of the score
// statistics.
type CompareOptions struct {
	Bootstrap Bootstrap
	// IncludeFailed counts the scores of episodes that ended in an error;
	// by default they are only counted under Errors, since a crashed
	// episode's score says more about the crash than about the variant.
	IncludeFailed bool
	// PairAcross pairs every variant of a set whose runs are kept apart
	// (ResultSet.RunsApart) with the one baseline, whichever run it came
	// from; by default each run's variants are paired with that run's
	// baseline only.
	PairAcross bool
	// Score is which score of an episode counts: ScoreFinal ("" too) its
	// last, ScoreHigh the highest it reached at any step (what TALES and
	// TextQuests count). The percent of the maximum is of that score.
	Score string
}

// Which score of an episode Compare counts (CompareOptions.Score).
const (
	ScoreFinal = "final"
	ScoreHigh  = "high"
)

// VariantGame is how one variant did on one game. The score statistics are
// over the episodes that did not fail (all of them with IncludeFailed);
// tokens and cost are over every episode, since failed ones cost too.
type VariantGame struct {
	Variant  string `json:"variant"`
	Game     string `json:"game"`
	Episodes int    `json:"episodes"` // records, failed ones included
	Errors   int    `json:"errors"`   // episodes that ended in an error
	// Won counts the episodes that won the game; Ended those whose game
	// ended without a win (the player died, or reached an ending that is
	// no victory); Completed is both. The rest stopped at a limit.
	Won       int `json:"won"`
	Ended     int `json:"ended"`
	Completed int `json:"completed"`
	MaxScore  int `json:"max_score"`

	Score   Summary `json:"score"`
	Percent Summary `json:"percent"` // of the maximum; N is 0 when no maximum is known

	MeanMoves float64 `json:"mean_moves"`
	MeanSteps float64 `json:"mean_steps"`
	MeanRooms float64 `json:"mean_rooms"`
	// Scored counts the episodes whose score ever rose, and
	// MeanFirstPointStep is their mean step of the first reward.
	Scored             int     `json:"scored"`
	MeanFirstPointStep float64 `json:"mean_first_point_step"`
	// InvalidRate is the share of steps that were invalid actions.
	InvalidRate float64 `json:"invalid_rate"`

	// MeanTokens is the mean total tokens of an episode;
	// MeanEstimatedTokens how many of them the agent estimated, for model
	// replies that came without usage (EpisodeRecord.EstimatedTokens):
	// when it is not 0, MeanTokens is in part an estimate.
	MeanTokens          float64 `json:"mean_tokens"`
	MeanEstimatedTokens float64 `json:"mean_estimated_tokens"`
	MeanCost            float64 `json:"mean_cost"`
	TotalCost           float64 `json:"total_cost"`
	// CostUnknown counts the episodes whose cost is unknown (a model
	// with no known price, EpisodeRecord.CostKnown): MeanCost and
	// TotalCost add up the others only. In JSON the costs are then null
	// when no episode's is known, and cost_note says so.
	CostUnknown   int     `json:"cost_unknown,omitempty"`
	MeanDurationS float64 `json:"mean_duration_s"`

	// ScoreByStep is the mean score after each step (see ScoreCurves).
	ScoreByStep []float64 `json:"score_by_step,omitempty"`
}

// PairedRow is one variant against the baseline on the (game, seed) pairs
// both played: on one game in points (Metric "score"), or over all games in
// percent of the maximum (Game "", Metric "percent"). The embedded
// PairedDiff is variant minus baseline.
type PairedRow struct {
	Variant  string `json:"variant"`
	Baseline string `json:"baseline"`
	Game     string `json:"game"`
	Metric   string `json:"metric"`
	PairedDiff
}

// LeaderboardEntry is one variant's place: ranked by MeanPercent, the mean
// over games of its mean percent of the maximum (each game weighs the
// same). Variants with no game of known maximum rank last.
type LeaderboardEntry struct {
	Rank         int     `json:"rank"`
	Variant      string  `json:"variant"`
	MeanPercent  float64 `json:"mean_percent"`
	PercentGames int     `json:"percent_games"` // games with a known maximum
	Games        int     `json:"games"`
	Episodes     int     `json:"episodes"`
	// Won, Ended and Completed add up the rows' (see VariantGame).
	Won       int `json:"won"`
	Ended     int `json:"ended"`
	Completed int `json:"completed"`
	Errors    int `json:"errors"`
}

// Metrics of a PairedRow.
const (
	MetricScore   = "score"
	MetricPercent = "percent"
)

// Comparison is what Compare finds: a row for each variant and game, the
// paired differences against the baseline, and a leaderboard. Variants
// lists the baseline first, then the others by name.
type Comparison struct {
	Baseline string `json:"baseline"`
	// Baselines are the baselines of each run when a comparison of runs
	// kept apart pairs within each run (PairedWithinRuns): one a run,
	// Baseline the first.
	Baselines        []string `json:"baselines,omitempty"`
	PairedWithinRuns bool     `json:"paired_within_runs,omitempty"`
	// RunsApart is the ResultSet's: the runs compared share variant
	// names, so each variant is named "LABEL/NAME" by its run.
	RunsApart   bool               `json:"runs_apart,omitempty"`
	Variants    []string           `json:"variants"`
	Games       []string           `json:"games"`
	Bootstrap   Bootstrap          `json:"bootstrap"`
	Rows        []VariantGame      `json:"rows"` // by game, then variant
	Paired      []PairedRow        `json:"paired"`
	Leaderboard []LeaderboardEntry `json:"leaderboard"`
	// Score is the score counted: ScoreFinal or ScoreHigh.
	Score string `json:"score"`
}

// Compare summarizes rs for each variant and game and compares every
// variant with baseline over the (game, seed) pairs both played. An empty
// baseline is the run's own (ResultSet.DefaultBaseline: the one its
// manifest records, the config's first variant unless exp run was told
// another), so that a run and its comparison pair the same way; for
// results with no manifest, the variant named "baseline" if there is one,
// else the first by name. Bootstrap intervals are seeded per cell, so the same
// results always give the same table.
func Compare(rs *ResultSet, baseline string, opts CompareOptions) (*Comparison, error) {
	if rs == nil || rs.Len() == 0 {
		return nil, errors.New("compare: no results")
	}
	plan, err := pairingOf(rs, baseline, opts.PairAcross)
	if err != nil {
		return nil, err
	}
	score, percent := scoreOf, percentOf
	switch opts.Score {
	case "", ScoreFinal:
		opts.Score = ScoreFinal
	case ScoreHigh:
		score, percent = highScoreOf, highPercentOf
	default:
		return nil, fmt.Errorf("compare: no score %q (%s or %s)", opts.Score, ScoreFinal, ScoreHigh)
	}
	order, baseline := plan.order, plan.baselines[0]
	b := opts.Bootstrap.withDefaults()
	c := &Comparison{Baseline: baseline, Variants: order, Games: rs.Games(), Bootstrap: b, Score: opts.Score}
	c.RunsApart = rs.RunsApart
	if plan.within {
		c.Baselines, c.PairedWithinRuns = plan.baselines, true
	}
	used := func(r EpisodeRecord) bool { return opts.IncludeFailed || !r.Failed() }

	for _, g := range c.Games {
		for _, v := range order {
			recs := rs.ByVariant(v).ByGame(g).Records
			if len(recs) > 0 {
				c.Rows = append(c.Rows, summarizeCell(v, g, recs, used, b, score, percent))
			}
		}
	}

	for _, vb := range plan.pairs {
		v, baseline := vb[0], vb[1]
		for _, g := range c.Games {
			a, base := pairs(rs, v, baseline, g, used, score)
			if len(a) == 0 {
				continue
			}
			d, err := PairedDifference(a, base, cellSeed(b, v, g, "paired-score"))
			if err != nil {
				return nil, fmt.Errorf("compare %s with %s on %s: %w", v, baseline, g, err)
			}
			c.Paired = append(c.Paired, PairedRow{Variant: v, Baseline: baseline, Game: g, Metric: MetricScore, PairedDiff: d})
		}
		a, base := pairs(rs, v, baseline, "", used, percent)
		if len(a) == 0 {
			continue
		}
		d, err := PairedDifference(a, base, cellSeed(b, v, "", "paired-percent"))
		if err != nil {
			return nil, fmt.Errorf("compare %s with %s: %w", v, baseline, err)
		}
		c.Paired = append(c.Paired, PairedRow{Variant: v, Baseline: baseline, Metric: MetricPercent, PairedDiff: d})
	}

	c.Leaderboard = leaderboard(order, c.Rows)
	return c, nil
}

// MarshalJSON writes the row with a null cost, and a cost_note, when the
// cost of its episodes is unknown (CostUnknown): never a $0 that is not
// known to be one.
func (r VariantGame) MarshalJSON() ([]byte, error) {
	type plain VariantGame
	out := struct {
		plain
		MeanCost  *float64 `json:"mean_cost"`
		TotalCost *float64 `json:"total_cost"`
		CostNote  string   `json:"cost_note,omitempty"`
	}{plain: plain(r)}
	if r.CostUnknown < r.Episodes {
		out.MeanCost, out.TotalCost = &r.MeanCost, &r.TotalCost
	}
	if r.CostUnknown > 0 {
		out.CostNote = fmt.Sprintf("the cost of %d of %d episodes is unknown: no known price for the model (price_source unknown in results.jsonl)", r.CostUnknown, r.Episodes)
	}
	return json.Marshal(out)
}

func summarizeCell(v, g string, recs []EpisodeRecord, used func(EpisodeRecord) bool, b Bootstrap, score, percent func(EpisodeRecord) (float64, bool)) VariantGame {
	row := VariantGame{Variant: v, Game: g, Episodes: len(recs)}
	var scores, pcts, moves, steps, rooms, first []float64
	var invalid, stepTotal int
	var tokens, estimated, durations []float64
	var scored []EpisodeRecord
	for _, r := range recs {
		tokens = append(tokens, float64(r.Tokens.TotalTokens))
		estimated = append(estimated, float64(r.EstimatedTokens))
		durations = append(durations, r.Duration().Seconds())
		row.TotalCost += r.Cost
		if !r.CostKnown() {
			row.CostUnknown++
		}
		row.MaxScore = max(row.MaxScore, r.MaxScore)
		if r.Failed() {
			row.Errors++
		}
		if !used(r) {
			continue
		}
		scored = append(scored, r)
		switch {
		case r.Victory:
			row.Won++
		case r.GameCompleted:
			row.Ended++
		}
		sc, _ := score(r)
		scores = append(scores, sc)
		if p, ok := percent(r); ok {
			pcts = append(pcts, p)
		}
		moves = append(moves, float64(r.Moves))
		steps = append(steps, float64(r.Steps))
		rooms = append(rooms, float64(r.LocationsVisited))
		if r.FirstPointStep >= 0 {
			first = append(first, float64(r.FirstPointStep))
		}
		invalid += r.InvalidActions
		stepTotal += r.Steps
	}
	row.Score = Summarize(scores, cellSeed(b, v, g, "score"))
	row.Percent = Summarize(pcts, cellSeed(b, v, g, "percent"))
	row.MeanMoves = meanOrZero(moves)
	row.MeanSteps = meanOrZero(steps)
	row.MeanRooms = meanOrZero(rooms)
	row.Scored = len(first)
	row.MeanFirstPointStep = meanOrZero(first)
	if stepTotal > 0 {
		row.InvalidRate = float64(invalid) / float64(stepTotal)
	}
	row.Completed = row.Won + row.Ended
	row.MeanTokens = meanOrZero(tokens)
	row.MeanEstimatedTokens = meanOrZero(estimated)
	row.MeanCost = row.TotalCost / float64(len(recs))
	row.MeanDurationS = meanOrZero(durations)
	row.ScoreByStep = meanScoreByStep(scored)
	return row
}

func meanOrZero(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return Mean(xs)
}

func scoreOf(r EpisodeRecord) (float64, bool)   { return float64(r.FinalScore), true }
func percentOf(r EpisodeRecord) (float64, bool) { return r.PercentOfMax() }

func highScoreOf(r EpisodeRecord) (float64, bool) { return float64(r.HighestScore()), true }

func highPercentOf(r EpisodeRecord) (float64, bool) {
	if r.MaxScore <= 0 {
		return 0, false
	}
	return 100 * float64(r.HighestScore()) / float64(r.MaxScore), true
}

// pairs returns the values of variant a and b on the (game, seed) pairs
// both played, in a fixed order; game "" takes every game.
func pairs(rs *ResultSet, a, b, game string, used func(EpisodeRecord) bool, value func(EpisodeRecord) (float64, bool)) (as, bs []float64) {
	var keys []EpisodeKey
	for _, r := range rs.Records {
		if r.Variant == a && (game == "" || r.Game == game) {
			keys = append(keys, r.Key())
		}
	}
	slices.SortFunc(keys, func(x, y EpisodeKey) int {
		return cmp.Or(strings.Compare(x.Game, y.Game), cmp.Compare(x.Seed, y.Seed))
	})
	for _, k := range keys {
		ra, _ := rs.Lookup(k)
		rb, ok := rs.Lookup(EpisodeKey{Variant: b, Game: k.Game, Seed: k.Seed})
		if !ok || !used(ra) || !used(rb) {
			continue
		}
		va, oka := value(ra)
		vb, okb := value(rb)
		if oka && okb {
			as, bs = append(as, va), append(bs, vb)
		}
	}
	return as, bs
}

// cellSeed gives each statistic its own bootstrap seed, derived from the
// run's seed and the statistic's name, so a cell's interval does not
// depend on which other cells were computed.
func cellSeed(b Bootstrap, parts ...string) Bootstrap {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	b.Seed ^= h.Sum64()
	if b.Seed == 0 {
		b.Seed = DefaultSeed
	}
	return b
}

func leaderboard(variants []string, rows []VariantGame) []LeaderboardEntry {
	var out []LeaderboardEntry
	for _, v := range variants {
		e := LeaderboardEntry{Variant: v}
		var sum float64
		for _, r := range rows {
			if r.Variant != v {
				continue
			}
			e.Games++
			e.Episodes += r.Episodes
			e.Won += r.Won
			e.Ended += r.Ended
			e.Completed += r.Completed
			e.Errors += r.Errors
			if r.Percent.N > 0 {
				e.PercentGames++
				sum += r.Percent.Mean
			}
		}
		if e.PercentGames > 0 {
			e.MeanPercent = sum / float64(e.PercentGames)
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(x, y LeaderboardEntry) int {
		if (x.PercentGames > 0) != (y.PercentGames > 0) {
			if x.PercentGames > 0 {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(y.MeanPercent, x.MeanPercent); c != 0 {
			return c
		}
		return strings.Compare(x.Variant, y.Variant)
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// Row returns the row of variant v on game g.
func (c *Comparison) Row(v, g string) (VariantGame, bool) {
	for _, r := range c.Rows {
		if r.Variant == v && r.Game == g {
			return r, true
		}
	}
	return VariantGame{}, false
}

// baselineOf is the baseline variant v is paired with: its run's when
// the comparison pairs within runs, else the one baseline.
func (c *Comparison) baselineOf(v string) string {
	for _, p := range c.Paired {
		if p.Variant == v {
			return p.Baseline
		}
	}
	if c.PairedWithinRuns && slices.Contains(c.Baselines, v) {
		return v
	}
	return c.Baseline
}

// PairedFor returns variant v's paired difference from the baseline on game
// g, in points; game "" returns the difference over all games in percent
// of the maximum.
func (c *Comparison) PairedFor(v, g string) (PairedRow, bool) {
	for _, p := range c.Paired {
		if p.Variant == v && p.Game == g {
			return p, true
		}
	}
	return PairedRow{}, false
}
