package harness

import "fmt"

// Bands that a ScoreCurve can carry around its mean.
const (
	BandStd = "std" // the mean ± one standard deviation of the episodes
	BandCI  = "ci"  // the bootstrap interval of the mean at each step
)

// ScoreCurve is a variant's score against step on one game: at each step
// (Step[i], counted from 1) the mean score over its episodes and a band
// [Lo[i], Hi[i]]. An episode that ended before a step keeps its final
// score there; episodes without a score history are left out.
type ScoreCurve struct {
	Variant  string    `json:"variant"`
	Game     string    `json:"game"`
	Episodes int       `json:"episodes"`
	Band     string    `json:"band"`
	Mean     []float64 `json:"mean"`
	Lo       []float64 `json:"lo"`
	Hi       []float64 `json:"hi"`
}

// ScoreCurves returns a curve for each variant that played game, in the
// order of rs.Variants, over the episodes that did not fail. band is
// BandStd or BandCI; b tunes the bootstrap of BandCI (its seed is mixed
// with the variant, game and step so that each step draws its own
// resamples).
func ScoreCurves(rs *ResultSet, game, band string, b Bootstrap) ([]ScoreCurve, error) {
	if band != BandStd && band != BandCI {
		return nil, fmt.Errorf("score curves: band %q is neither %q nor %q", band, BandStd, BandCI)
	}
	var out []ScoreCurve
	for _, v := range rs.Variants() {
		recs := rs.ByVariant(v).ByGame(game).Filter(func(r EpisodeRecord) bool {
			return !r.Failed() && len(r.ScoreByStep) > 0
		}).Records
		if len(recs) == 0 {
			continue
		}
		out = append(out, scoreCurve(v, game, band, recs, b))
	}
	return out, nil
}

func scoreCurve(v, game, band string, recs []EpisodeRecord, b Bootstrap) ScoreCurve {
	n := 0
	for _, r := range recs {
		n = max(n, len(r.ScoreByStep))
	}
	c := ScoreCurve{Variant: v, Game: game, Episodes: len(recs), Band: band,
		Mean: make([]float64, n), Lo: make([]float64, n), Hi: make([]float64, n)}
	xs := make([]float64, len(recs))
	for s := range n {
		for i, r := range recs {
			xs[i] = float64(r.ScoreAt(s + 1))
		}
		m := Mean(xs)
		c.Mean[s] = m
		switch band {
		case BandStd:
			sd := Std(xs)
			c.Lo[s], c.Hi[s] = m-sd, m+sd
		case BandCI:
			iv, _ := BootstrapMeanCI(xs, cellSeed(b, v, game, "curve", fmt.Sprint(s)))
			c.Lo[s], c.Hi[s] = iv.Lo, iv.Hi
		}
	}
	return c
}

// meanScoreByStep is the mean over recs of the score after each step, an
// episode that ended early keeping its last score; records without a score
// history are left out.
func meanScoreByStep(recs []EpisodeRecord) []float64 {
	var with []EpisodeRecord
	for _, r := range recs {
		if len(r.ScoreByStep) > 0 {
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return nil
	}
	return scoreCurve("", "", BandStd, with, Bootstrap{}).Mean
}
