package harness

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestMeanStd(t *testing.T) {
	xs := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	if got := Mean(xs); got != 5 {
		t.Errorf("Mean = %v, want 5", got)
	}
	if got, want := Std(xs), math.Sqrt(32.0/7); math.Abs(got-want) > 1e-12 {
		t.Errorf("Std = %v, want %v", got, want)
	}
	if got := Std([]float64{3}); got != 0 {
		t.Errorf("Std of one value = %v, want 0", got)
	}
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Std(nil)) {
		t.Errorf("Mean/Std of nothing should be NaN")
	}
	tenths := []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	if got := Mean(tenths); got != 0.1 {
		t.Errorf("Mean of ten 0.1 = %v, want exactly 0.1", got)
	}
}

func TestSignTestKnownValues(t *testing.T) {
	cases := []struct {
		wins, losses int
		want         float64
	}{
		{9, 1, 0.021484375}, // 2 * 11/1024
		{1, 9, 0.021484375},
		{10, 0, 0.001953125}, // 2/1024
		{3, 0, 0.25},
		{5, 5, 1},
		{6, 4, 0.75390625}, // 2 * 386/1024
		{0, 0, 1},
	}
	for _, c := range cases {
		got, err := SignTestP(c.wins, c.losses)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("SignTestP(%d, %d) = %.10f, want %.10f", c.wins, c.losses, got, c.want)
		}
	}
	if _, err := SignTestP(-1, 3); err == nil {
		t.Error("SignTestP(-1, 3): no error")
	}
}

// TestSignTestLargeN checks the log-space sum against exact rational
// arithmetic where 0.5^n alone would underflow a float64.
func TestSignTestLargeN(t *testing.T) {
	for _, c := range []struct{ wins, losses int }{{60, 40}, {700, 600}, {1200, 1000}, {0, 1001}} {
		n := c.wins + c.losses
		k := min(c.wins, c.losses)
		tail := new(big.Int)
		for i := 0; i <= k; i++ {
			tail.Add(tail, new(big.Int).Binomial(int64(n), int64(i)))
		}
		exact := new(big.Rat).SetFrac(new(big.Int).Mul(tail, big.NewInt(2)), new(big.Int).Lsh(big.NewInt(1), uint(n)))
		want, _ := exact.Float64()
		got, err := SignTestP(c.wins, c.losses)
		if err != nil {
			t.Fatal(err)
		}
		if want == 0 || math.Abs(got-want)/want > 1e-9 {
			t.Errorf("SignTestP(%d, %d) = %g, want %g", c.wins, c.losses, got, want)
		}
	}
}

func TestBootstrapSmallSamples(t *testing.T) {
	if _, ok := BootstrapMeanCI(nil, Bootstrap{}); ok {
		t.Error("an interval from no values")
	}
	iv, ok := BootstrapMeanCI([]float64{7}, Bootstrap{})
	if !ok || iv.Lo != 7 || iv.Hi != 7 {
		t.Errorf("one value 7: interval %v %v, want [7, 7]", iv, ok)
	}
	if s := Summarize(nil, Bootstrap{}); s.N != 0 || s.CI != nil {
		t.Errorf("Summarize(nil) = %+v, want N 0 and no interval", s)
	}
	constant := []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	iv, _ = BootstrapMeanCI(constant, Bootstrap{})
	if iv.Lo != 0.1 || iv.Hi != 0.1 {
		t.Errorf("constant 0.1: interval %v, want exactly [0.1, 0.1]", iv)
	}
	if iv.Level != DefaultLevel {
		t.Errorf("level %v, want the default %v", iv.Level, DefaultLevel)
	}
}

func TestBootstrapIntervalWidthAndDeterminism(t *testing.T) {
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = float64(i + 1) // mean 10.5, std 5.92: normal CI about ±2.6
	}
	a, _ := BootstrapMeanCI(xs, Bootstrap{Seed: 42})
	b, _ := BootstrapMeanCI(xs, Bootstrap{Seed: 42})
	if a != b {
		t.Errorf("same seed, different intervals: %v and %v", a, b)
	}
	if a.Lo < 7.5 || a.Lo > 9 || a.Hi < 12 || a.Hi > 13.5 {
		t.Errorf("interval of the mean of 1..20 = %v, want about [7.9, 13.1]", a)
	}
	c, _ := BootstrapMeanCI(xs, Bootstrap{Seed: 43})
	if c == a {
		t.Errorf("seeds 42 and 43 gave the same interval %v: the seed is not used", a)
	}
	wide, _ := BootstrapMeanCI(xs, Bootstrap{Seed: 42, Level: 0.99})
	if wide.Hi-wide.Lo <= a.Hi-a.Lo {
		t.Errorf("99%% interval %v is not wider than the 95%% one %v", wide, a)
	}
}

func TestPairedDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	base := make([]float64, 10)
	shifted := make([]float64, 10)
	same := make([]float64, 10)
	for i := range base {
		game := float64(rng.IntN(50)) // what the pair shares
		base[i] = game + rng.NormFloat64()
		shifted[i] = game + 10 + rng.NormFloat64()
		same[i] = game + rng.NormFloat64()
	}

	d, err := PairedDifference(shifted, base, Bootstrap{})
	if err != nil {
		t.Fatal(err)
	}
	if d.N != 10 || d.Wins != 10 || d.CI == nil || d.CI.Contains(0) {
		t.Errorf("shift of 10: %+v, CI %v; want 10 wins and an interval excluding 0", d, d.CI)
	}
	if d.MeanDiff < 8 || d.MeanDiff > 12 {
		t.Errorf("shift of 10: mean difference %v", d.MeanDiff)
	}
	if math.Abs(d.SignP-0.001953125) > 1e-12 {
		t.Errorf("10 wins of 10: p = %v, want 0.00195", d.SignP)
	}

	d, _ = PairedDifference(same, base, Bootstrap{})
	if d.CI == nil || !d.CI.Contains(0) || d.SignP < 0.05 {
		t.Errorf("no shift: %+v, CI %v; want an interval covering 0 and p >= 0.05", d, d.CI)
	}

	d, _ = PairedDifference(base, base, Bootstrap{})
	if d.Ties != 10 || d.SignP != 1 || d.CI.Lo != 0 || d.CI.Hi != 0 {
		t.Errorf("identical: %+v, CI %v; want 10 ties, p 1, interval [0, 0]", d, d.CI)
	}

	if _, err := PairedDifference([]float64{1}, []float64{1, 2}, Bootstrap{}); err == nil {
		t.Error("pairs of unequal length: no error")
	}
	d, _ = PairedDifference(nil, nil, Bootstrap{})
	if d.N != 0 || d.CI != nil || d.SignP != 1 {
		t.Errorf("no pairs: %+v, want N 0, no interval, p 1", d)
	}
}
