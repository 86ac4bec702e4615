package harness

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// experiment builds the results of three variants on two games over ten
// seeds: "better" scores shift points more than "baseline" on the same
// (game, seed), "same" scores like the baseline up to noise. Each seed has
// its own difficulty that the variants share, as a game seed does.
func experiment(shift int) *ResultSet {
	rng := rand.New(rand.NewPCG(3, 4))
	rs := &ResultSet{}
	for _, g := range []struct {
		name string
		max  int
	}{{"lantern", 50}, {"zork1", 350}} {
		for seed := int64(1); seed <= 10; seed++ {
			difficulty := rng.IntN(g.max / 2)
			noise := func() int { return rng.IntN(7) - 3 }
			for _, v := range []struct {
				name  string
				score int
			}{
				{"baseline", difficulty + noise()},
				{"better", difficulty + shift + noise()},
				{"same", difficulty + noise()},
			} {
				r := rec(v.name, g.name, seed, max(0, v.score))
				r.MaxScore = g.max
				r.ScoreByStep = []int{0, r.FinalScore / 2, r.FinalScore}
				r.FirstPointStep = 2
				rs.Add(r)
			}
		}
	}
	return rs
}

func TestCompareFindsAKnownDifference(t *testing.T) {
	c, err := Compare(experiment(20), "baseline", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"lantern", "zork1"} {
		p, ok := c.PairedFor("better", g)
		if !ok {
			t.Fatalf("no paired row for better on %s", g)
		}
		if p.N != 10 || p.CI == nil || p.CI.Contains(0) || p.CI.Lo < 10 {
			t.Errorf("better on %s: %+v CI %v; want 10 pairs and an interval above 0 near +20", g, p, p.CI)
		}
		if p.SignP > 0.01 {
			t.Errorf("better on %s: sign test p %v, want < 0.01", g, p.SignP)
		}
		p, _ = c.PairedFor("same", g)
		if p.CI == nil || !p.CI.Contains(0) {
			t.Errorf("same on %s: interval %v does not cover 0", g, p.CI)
		}
	}
	all, ok := c.PairedFor("better", "")
	if !ok || all.Metric != MetricPercent || all.N != 20 || all.CI.Contains(0) {
		t.Errorf("better over all games: %+v CI %v; want 20 pairs in percent, interval excluding 0", all, all.CI)
	}
	same, _ := c.PairedFor("same", "")
	if !same.CI.Contains(0) {
		t.Errorf("same over all games: interval %v does not cover 0", same.CI)
	}
	if c.Leaderboard[0].Variant != "better" || c.Leaderboard[0].Rank != 1 {
		t.Errorf("leaderboard %+v, want better first", c.Leaderboard)
	}
	if got := strings.Join(c.Variants, ","); got != "baseline,better,same" {
		t.Errorf("variants %s, want the baseline first", got)
	}
}

func TestCompareIdenticalVariantsCoverZero(t *testing.T) {
	rs := experiment(0)
	// "copy" plays exactly as the baseline did.
	for _, r := range rs.ByVariant("baseline").Records {
		r.Variant = "copy"
		rs.Add(r)
	}
	c, err := Compare(rs, "baseline", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.PairedFor("copy", "")
	if p.N != 20 || p.Ties != 20 || p.MeanDiff != 0 || !p.CI.Contains(0) || p.SignP != 1 {
		t.Errorf("identical variants: %+v CI %v; want 20 ties, difference 0, p 1", p, p.CI)
	}
}

func TestCompareIsDeterministic(t *testing.T) {
	a, _ := Compare(experiment(5), "", CompareOptions{})
	b, _ := Compare(experiment(5), "", CompareOptions{})
	if a.String() != b.String() {
		t.Error("the same results gave two different comparisons")
	}
	if a.Baseline != "baseline" {
		t.Errorf("default baseline %q, want the variant named baseline", a.Baseline)
	}
	c, _ := Compare(experiment(5).ByVariant("better", "same"), "", CompareOptions{})
	if c.Baseline != "better" {
		t.Errorf("default baseline %q without a variant named baseline, want the first by name", c.Baseline)
	}
}

func TestCompareUnknownBaseline(t *testing.T) {
	_, err := Compare(experiment(0), "gpt-9", CompareOptions{})
	if err == nil || !strings.Contains(err.Error(), `"gpt-9"`) || !strings.Contains(err.Error(), "baseline, better, same") {
		t.Errorf("unknown baseline: err %v, want it to name gpt-9 and list the variants", err)
	}
	if _, err := Compare(&ResultSet{}, "", CompareOptions{}); err == nil {
		t.Error("empty results: no error")
	}
}

func TestCompareCellMetricsAndFailures(t *testing.T) {
	a1 := rec("a", "g", 1, 10)
	a1.Moves, a1.Steps, a1.InvalidActions, a1.LocationsVisited, a1.FirstPointStep = 30, 40, 4, 5, 12
	a1.Tokens.TotalTokens, a1.Cost, a1.GameCompleted = 1000, 0.02, true
	a2 := rec("a", "g", 2, 30)
	a2.Moves, a2.Steps, a2.InvalidActions, a2.LocationsVisited, a2.FirstPointStep = 10, 60, 1, 3, 20
	a2.Tokens.TotalTokens, a2.Cost = 3000, 0.04
	a3 := rec("a", "g", 3, 99) // crashed: its score must not count
	a3.Error, a3.Steps, a3.Tokens.TotalTokens, a3.Cost = "server died", 5, 500, 0.01
	b1, b2, b3 := rec("b", "g", 1, 5), rec("b", "g", 2, 5), rec("b", "g", 3, 5)
	b1.FirstPointStep = 7

	c, err := Compare(NewResultSet(a1, a2, a3, b1, b2, b3), "b", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := c.Row("a", "g")
	checks := []struct {
		name      string
		got, want float64
	}{
		{"episodes", float64(r.Episodes), 3},
		{"errors", float64(r.Errors), 1},
		{"score n", float64(r.Score.N), 2},
		{"mean score", r.Score.Mean, 20},
		{"percent", r.Percent.Mean, 20},
		{"completed", float64(r.Completed), 1},
		{"moves", r.MeanMoves, 20},
		{"rooms", r.MeanRooms, 4},
		{"scored", float64(r.Scored), 2},
		{"first point", r.MeanFirstPointStep, 16},
		{"invalid rate", r.InvalidRate, 5.0 / 100},
		{"tokens (failed included)", r.MeanTokens, 1500},
		{"total cost", r.TotalCost, 0.07},
	}
	for _, ch := range checks {
		if diff := ch.got - ch.want; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	if r.Score.CI == nil || r.Score.CI.Lo < 10 || r.Score.CI.Hi > 30 {
		t.Errorf("score interval %v, want within [10, 30]", r.Score.CI)
	}
	p, _ := c.PairedFor("a", "g")
	if p.N != 2 || p.MeanDiff != 15 {
		t.Errorf("paired: %+v, want the 2 pairs without the crash, difference 15", p)
	}

	c, _ = Compare(NewResultSet(a1, a2, a3, b1, b2, b3), "b", CompareOptions{IncludeFailed: true})
	r, _ = c.Row("a", "g")
	if r.Score.N != 3 || r.Errors != 1 {
		t.Errorf("IncludeFailed: score n %d errors %d, want 3 and 1", r.Score.N, r.Errors)
	}
}
