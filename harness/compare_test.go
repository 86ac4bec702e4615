package harness

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"slices"
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

// TestCompareWonAndEnded: a death ends the game but is no win, and the
// comparison counts the two apart; an episode stopped by the step limit
// is neither, and a failed one is only an error.
func TestCompareWonAndEnded(t *testing.T) {
	won := rec("walk", "lantern", 1, 60)
	won.GameCompleted, won.Victory = true, true
	won2 := rec("walk", "lantern", 2, 60)
	won2.GameCompleted, won2.Victory = true, true
	died := rec("random", "lantern", 1, 0)
	died.GameCompleted = true
	died2 := rec("random", "lantern", 2, 5)
	died2.GameCompleted = true
	limit := rec("random", "lantern", 3, 10) // stopped at max_steps
	crashed := rec("random", "lantern", 4, 0)
	crashed.Error, crashed.GameCompleted = "server died", true

	c, err := Compare(NewResultSet(won, won2, died, died2, limit, crashed), "walk", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		variant                    string
		won, ended, completed, err int
	}{
		{"walk", 2, 0, 2, 0},
		{"random", 0, 2, 2, 1},
	} {
		r, _ := c.Row(want.variant, "lantern")
		if r.Won != want.won || r.Ended != want.ended || r.Completed != want.completed || r.Errors != want.err {
			t.Errorf("%s: won %d ended %d completed %d errors %d; want %d %d %d %d",
				want.variant, r.Won, r.Ended, r.Completed, r.Errors, want.won, want.ended, want.completed, want.err)
		}
		for _, e := range c.Leaderboard {
			if e.Variant == want.variant && (e.Won != want.won || e.Ended != want.ended || e.Completed != want.completed) {
				t.Errorf("leaderboard %s: %+v, want won %d ended %d", want.variant, e, want.won, want.ended)
			}
		}
	}

	table := c.String()
	for _, want := range []string{"Won/ended", "│ Won │ Ended │", " 0/2 │", " 2/0 │", "Ended: episodes whose game ended otherwise (the player died)"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "Completed") {
		t.Errorf("the table still has a Completed column, which counts deaths as completions:\n%s", table)
	}

	var md, csvOut, js bytes.Buffer
	for f, b := range map[string]*bytes.Buffer{"md": &md, "csv": &csvOut, "json": &js} {
		if err := c.Write(b, f); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(md.String(), "| Rank | Variant | % of max | Games | Episodes | Won | Ended | Errors |") ||
		!strings.Contains(md.String(), "| 2 | random | 5.0% | 1 | 4 | 0 | 2 | 1 |") {
		t.Errorf("markdown leaderboard:\n%s", md.String())
	}
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	for _, row := range rows[1:] {
		if row[0] == "random" && (row[col("won")] != "0" || row[col("ended")] != "2" || row[col("completed")] != "2") {
			t.Errorf("csv row of random: won %s ended %s completed %s", row[col("won")], row[col("ended")], row[col("completed")])
		}
	}
	var back struct {
		Rows []struct {
			Variant string `json:"variant"`
			Won     *int   `json:"won"`
			Ended   *int   `json:"ended"`
		} `json:"rows"`
		Leaderboard []struct {
			Won   *int `json:"won"`
			Ended *int `json:"ended"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, r := range back.Rows {
		if r.Won == nil || r.Ended == nil {
			t.Errorf("json row of %s lacks won or ended", r.Variant)
		}
	}
	if len(back.Leaderboard) != 2 || back.Leaderboard[0].Won == nil || *back.Leaderboard[0].Won != 2 {
		t.Errorf("json leaderboard: want won 2 first")
	}
}

// TestCompareMarksEstimatedTokens: token means that include the agent's
// estimates are marked in the tables and explained under them; a
// comparison without estimates has no mark.
func TestCompareMarksEstimatedTokens(t *testing.T) {
	a := rec("local", "g", 1, 5)
	a.Tokens.TotalTokens, a.EstimatedTokens = 1234, 1234 // a server that sends no usage
	b := rec("api", "g", 1, 5)
	b.Tokens.TotalTokens = 4321
	c, err := Compare(NewResultSet(a, b), "api", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := c.Row("local", "g")
	if r.MeanEstimatedTokens != 1234 {
		t.Errorf("mean estimated tokens %v, want 1234", r.MeanEstimatedTokens)
	}
	for _, format := range []string{"table", "md"} {
		var out bytes.Buffer
		if err := c.Write(&out, format); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if !strings.Contains(s, "~1234") || strings.Contains(s, "~4321") || !strings.Contains(s, "4321") ||
			!strings.Contains(s, "~: the mean tokens include the agent's estimates") {
			t.Errorf("%s: want ~1234 marked, 4321 not, and the note:\n%s", format, s)
		}
	}
	var csvOut bytes.Buffer
	if err := c.Write(&csvOut, "csv"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csvOut.String(), "mean_estimated_tokens") || !strings.Contains(csvOut.String(), ",1234,1234,") {
		t.Errorf("csv lacks the estimated tokens:\n%s", csvOut.String())
	}

	c, _ = Compare(NewResultSet(b), "", CompareOptions{})
	if s := c.String(); strings.Contains(s, "~") {
		t.Errorf("no estimates, yet a mark:\n%s", s)
	}
}

// --score high counts the highest score an episode reached, not its last:
// a variant that reached 10 and fell back to 0 is ahead on it, behind on
// the final score.
func TestCompareHighScore(t *testing.T) {
	rs := &ResultSet{}
	for seed := int64(1); seed <= 5; seed++ {
		peak := rec("peak", "g", seed, 0)
		peak.MaxScore, peak.ScoreByStep = 20, []int{0, 10, 0}
		steady := rec("baseline", "g", seed, 4)
		steady.MaxScore, steady.ScoreByStep = 20, []int{0, 4, 4}
		rs.Add(peak)
		rs.Add(steady)
	}
	for _, tc := range []struct {
		score       string
		peak, delta float64
	}{{"", 0, -4}, {ScoreFinal, 0, -4}, {ScoreHigh, 10, 6}} {
		c, err := Compare(rs, "baseline", CompareOptions{Score: tc.score})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Rows {
			if r.Variant == "peak" && (r.Score.Mean != tc.peak || r.Percent.Mean != 5*tc.peak) {
				t.Errorf("--score %q: peak's score %v, %v%%; want %v", tc.score, r.Score.Mean, r.Percent.Mean, tc.peak)
			}
		}
		if p := c.Paired[0]; p.Metric != MetricScore || p.MeanDiff != tc.delta {
			t.Errorf("--score %q: paired %+v, want a difference of %v", tc.score, p, tc.delta)
		}
		if want := cmp.Or(tc.score, ScoreFinal); c.Score != want {
			t.Errorf("Score %q, want %q", c.Score, want)
		}
	}
	if _, err := Compare(rs, "baseline", CompareOptions{Score: "best"}); err == nil {
		t.Error("an unknown score was accepted")
	}
}

// RenameGames relabels games, and refuses two records coming to share a
// key.
func TestRenameGames(t *testing.T) {
	rs := NewResultSet(rec("a", "/x/zork1.z3", 1, 1), rec("a", "/x/other.z5", 1, 2))
	if err := rs.RenameGames(map[string]string{"/x/zork1.z3": "zork1"}); err != nil {
		t.Fatal(err)
	}
	if r, ok := rs.Lookup(EpisodeKey{Variant: "a", Game: "zork1", Seed: 1}); !ok || r.FinalScore != 1 {
		t.Errorf("zork1: %+v %v", r, ok)
	}
	if _, ok := rs.Lookup(EpisodeKey{Variant: "a", Game: "/x/other.z5", Seed: 1}); !ok {
		t.Error("a game not renamed is lost")
	}
	if err := rs.RenameGames(map[string]string{"/x/other.z5": "zork1"}); err == nil || rs.Len() != 2 {
		t.Errorf("a collision: %v, %d records", err, rs.Len())
	}
}
