package harness

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Defaults for the bootstrap: a 95% interval from 10,000 resamples drawn
// from a fixed seed, so the same data always gives the same interval.
const (
	DefaultLevel     = 0.95
	DefaultResamples = 10000
	DefaultSeed      = 1
)

// Interval is a confidence interval [Lo, Hi] at Level (0.95 for 95%).
type Interval struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Level float64 `json:"level"`
}

// Contains reports whether x lies in the interval.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// String returns "[lo, hi]" with two decimals.
func (iv Interval) String() string { return fmt.Sprintf("[%.2f, %.2f]", iv.Lo, iv.Hi) }

// Bootstrap says how to draw a percentile bootstrap interval: Level is the
// coverage (0.95), Resamples the number of resamples, Seed the seed of the
// random numbers. The zero value means the defaults.
type Bootstrap struct {
	Level     float64 `json:"level"`
	Resamples int     `json:"resamples"`
	Seed      uint64  `json:"seed"`
}

func (b Bootstrap) withDefaults() Bootstrap {
	if b.Level <= 0 || b.Level >= 1 {
		b.Level = DefaultLevel
	}
	if b.Resamples <= 0 {
		b.Resamples = DefaultResamples
	}
	if b.Seed == 0 {
		b.Seed = DefaultSeed
	}
	return b
}

// Summary describes a sample: its size, mean, sample standard deviation
// (n-1 in the denominator; 0 for one value) and a bootstrap interval of the
// mean. With no values, Mean and Std are 0 and CI is nil.
type Summary struct {
	N    int       `json:"n"`
	Mean float64   `json:"mean"`
	Std  float64   `json:"std"`
	CI   *Interval `json:"ci,omitempty"`
}

// Mean returns the mean of xs, NaN when xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	// The mean lies between the extremes; rounding must not push it out
	// (the mean of ten 0.1s is 0.1, not 0.09999999999999999).
	lo, hi := slices.Min(xs), slices.Max(xs)
	return min(max(m, lo), hi)
}

// Std returns the sample standard deviation of xs (n-1 in the
// denominator): 0 for one value, NaN for none.
func Std(xs []float64) float64 {
	switch len(xs) {
	case 0:
		return math.NaN()
	case 1:
		return 0
	}
	m := Mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// Summarize returns the size, mean, standard deviation and bootstrap
// interval of the mean of xs.
func Summarize(xs []float64, b Bootstrap) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := Summary{N: len(xs), Mean: Mean(xs), Std: Std(xs)}
	if iv, ok := BootstrapMeanCI(xs, b); ok {
		s.CI = &iv
	}
	return s
}

// BootstrapMeanCI returns the percentile bootstrap interval of the mean of
// xs: the mean of b.Resamples samples of len(xs) values drawn from xs with
// replacement, and the quantiles that leave (1-Level)/2 on either side.
// The same xs and b give the same interval. One value gives the interval
// [x, x]; no values give none (false).
func BootstrapMeanCI(xs []float64, b Bootstrap) (Interval, bool) {
	b = b.withDefaults()
	switch len(xs) {
	case 0:
		return Interval{}, false
	case 1:
		return Interval{Lo: xs[0], Hi: xs[0], Level: b.Level}, true
	}
	rng := rand.New(rand.NewPCG(b.Seed, 0x9e3779b97f4a7c15))
	lo, hi := slices.Min(xs), slices.Max(xs)
	n := len(xs)
	means := make([]float64, b.Resamples)
	for i := range means {
		var s float64
		for range n {
			s += xs[rng.IntN(n)]
		}
		means[i] = min(max(s/float64(n), lo), hi)
	}
	slices.Sort(means)
	alpha := (1 - b.Level) / 2
	return Interval{Lo: quantile(means, alpha), Hi: quantile(means, 1-alpha), Level: b.Level}, true
}

// quantile returns the q-quantile of sorted xs by linear interpolation
// between order statistics (R's type 7).
func quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	if i < 0 {
		return sorted[0]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// PairedDiff is the difference between two variants measured on the same
// units (the same game and seed): the mean of a-b over the pairs, its
// paired bootstrap interval, and a sign test of whether a beats b more
// often than chance.
type PairedDiff struct {
	N        int       `json:"n"` // pairs
	MeanDiff float64   `json:"mean_diff"`
	CI       *Interval `json:"ci,omitempty"`
	Wins     int       `json:"wins"`   // pairs where a > b
	Losses   int       `json:"losses"` // pairs where a < b
	Ties     int       `json:"ties"`
	// SignP is the exact two-sided sign test p-value over the pairs that
	// are not ties; 1 when every pair is a tie.
	SignP float64 `json:"sign_p"`
}

// PairedDifference compares a and b, where a[i] and b[i] were measured on
// the same unit: the interval resamples the pairs' differences, so
// variation that the units share cancels out.
func PairedDifference(a, b []float64, bs Bootstrap) (PairedDiff, error) {
	if len(a) != len(b) {
		return PairedDiff{}, fmt.Errorf("paired difference: %d values against %d", len(a), len(b))
	}
	d := PairedDiff{N: len(a), SignP: 1}
	if len(a) == 0 {
		return d, nil
	}
	diffs := make([]float64, len(a))
	for i := range a {
		diffs[i] = a[i] - b[i]
		switch {
		case diffs[i] > 0:
			d.Wins++
		case diffs[i] < 0:
			d.Losses++
		default:
			d.Ties++
		}
	}
	d.MeanDiff = Mean(diffs)
	if iv, ok := BootstrapMeanCI(diffs, bs); ok {
		d.CI = &iv
	}
	var err error
	if d.SignP, err = SignTestP(d.Wins, d.Losses); err != nil {
		return PairedDiff{}, err
	}
	return d, nil
}

// SignTestP returns the exact two-sided sign test p-value for wins against
// losses (ties already dropped): the probability, if each were equally
// likely, of a split at least as uneven, P(X <= min) + P(X >= max) with
// X ~ Binomial(wins+losses, 1/2), capped at 1. With no pairs it is 1.
func SignTestP(wins, losses int) (float64, error) {
	if wins < 0 || losses < 0 {
		return 0, errors.New("sign test: negative count")
	}
	n := wins + losses
	if n == 0 {
		return 1, nil
	}
	k := min(wins, losses)
	var tail float64
	if n <= 1000 {
		// C(n, i) stays below 2^1000 and 2^-n is exact: sum the counts
		// and scale once, so small n gives the exact textbook value.
		c := 1.0
		for i := 0; i <= k; i++ {
			tail += c
			c = c * float64(n-i) / float64(i+1)
		}
		tail = math.Ldexp(tail, -n)
	} else {
		// Sum in logs so that 2^-n does not underflow.
		for i := 0; i <= k; i++ {
			tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
		}
	}
	return min(1, 2*tail), nil
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
