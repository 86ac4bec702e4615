package harness

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files from the current output")

// smallExperiment is a hand-made result set small enough to check its
// table by eye: two variants on two games over three seeds, one crashed
// episode, a game whose maximum score is unknown, one episode that won,
// one that died, and one whose model sent no usage (its tokens estimated).
func smallExperiment() *ResultSet {
	var recs []EpisodeRecord
	add := func(v, g string, seed int64, score, max int, steps []int, first int) {
		r := rec(v, g, seed, score)
		r.MaxScore, r.ScoreByStep, r.FirstPointStep = max, steps, first
		r.Steps, r.Moves = len(steps), len(steps)-1
		r.LocationsVisited = 2 + int(seed)
		r.InvalidActions = int(seed) - 1
		r.Tokens.PromptTokens, r.Tokens.CompletionTokens = 900*len(steps), 100*len(steps)
		r.Tokens.TotalTokens = 1000 * len(steps)
		r.Cost = 0.001 * float64(len(steps))
		r.DurationMS = 1500
		recs = append(recs, r)
	}
	add("memory", "lantern", 1, 10, 20, []int{0, 5, 10, 10}, 2)
	add("memory", "lantern", 2, 15, 20, []int{0, 0, 5, 15}, 3)
	add("memory", "lantern", 3, 20, 20, []int{5, 10, 20, 20}, 1)
	add("none", "lantern", 1, 5, 20, []int{0, 0, 0, 5}, 4)
	add("none", "lantern", 2, 5, 20, []int{0, 5, 5, 5}, 2)
	add("none", "lantern", 3, 10, 20, []int{0, 0, 10, 10}, 3)
	add("memory", "cave", 1, 3, 0, []int{0, 1, 3}, 2)
	add("memory", "cave", 2, 0, 0, []int{0, 0, 0}, -1)
	add("none", "cave", 1, 1, 0, []int{0, 0, 1}, 3)
	add("none", "cave", 2, 0, 0, []int{0, 0, 0}, -1)
	recs[2].GameCompleted, recs[2].Victory = true, true // memory wins lantern from seed 3
	recs[9].GameCompleted = true                        // none dies in the cave from seed 2
	recs[6].EstimatedTokens = 1500                      // memory on cave, seed 1: half its tokens estimated
	crashed := rec("none", "cave", 3, 0)
	crashed.Error, crashed.Steps, crashed.FirstPointStep, crashed.MaxScore = "model server: connection refused", 1, -1, 0
	return NewResultSet(append(recs, crashed)...)
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./harness -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is meant):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func smallComparison(t *testing.T) *Comparison {
	t.Helper()
	c, err := Compare(smallExperiment(), "none", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestComparisonMarkdownGolden(t *testing.T) {
	var b bytes.Buffer
	if err := smallComparison(t).Write(&b, "md"); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compare.md.golden", b.Bytes())
}

func TestComparisonCSVGolden(t *testing.T) {
	var b bytes.Buffer
	if err := smallComparison(t).Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compare.csv.golden", b.Bytes())
	rows, err := csv.NewReader(bytes.NewReader(b.Bytes())).ReadAll()
	if err != nil {
		t.Fatalf("the CSV does not parse: %v", err)
	}
	if len(rows) != 5 || len(rows[0]) != len(csvHeader) {
		t.Errorf("CSV has %d rows of %d columns, want a header and 4 rows of %d", len(rows), len(rows[0]), len(csvHeader))
	}
}

func TestComparisonTerminalTable(t *testing.T) {
	var b bytes.Buffer
	if err := smallComparison(t).WriteTableWidth(&b, 1000); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Scores (mean [95% CI])", "Against none", "Leaderboard",
		"│ lantern │ memory", "15.0 [10.0, 20.0]", // memory's mean on lantern and its interval
		"▂▃▆█", // memory's mean score by step on lantern: 1.7, 5, 11.7, 15 of 15
		"+8.33 [+5.00, +10.00]", "3/0/0", "0.2500",
		"3.0 (1/2)", // none on cave: one of two episodes scored, at step 3 (the crash is left out)
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal table lacks %q:\n%s", want, out)
		}
	}
}

func TestComparisonJSONRoundTrip(t *testing.T) {
	c := smallComparison(t)
	var b bytes.Buffer
	if err := c.Write(&b, "json"); err != nil {
		t.Fatal(err)
	}
	var back Comparison
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("the JSON does not decode: %v", err)
	}
	if back.Baseline != "none" || len(back.Rows) != len(c.Rows) || len(back.Paired) != len(c.Paired) {
		t.Errorf("round trip lost parts: %+v", back)
	}
	p, ok := back.PairedFor("memory", "lantern")
	if !ok || p.MeanDiff != c.Paired[1].MeanDiff || p.CI == nil {
		t.Errorf("paired row after the round trip: %+v", p)
	}
	if err := c.Write(&b, "xlsx"); err == nil || !strings.Contains(err.Error(), "xlsx") {
		t.Errorf("unknown format: err %v", err)
	}
}
