package harness

import "testing"

// TestLegendCorner: the legend goes where the lines are not: top left
// over curves that rise late, bottom right over one that reaches the
// maximum at once, top left over runs that never scored (only the
// maximum's line is up there, and it counts less than data).
func TestLegendCorner(t *testing.T) {
	curve := func(ys ...float64) ScoreCurve {
		return ScoreCurve{Mean: ys, Lo: ys, Hi: ys}
	}
	late := curve(0, 0, 0, 0, 0, 0, 10, 20, 30, 40)
	fast := curve(0, 40, 40, 40, 40, 40, 40, 40, 40, 40)
	zero := curve(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	for _, tc := range []struct {
		name      string
		curves    []ScoreCurve
		maxLine   float64
		top, left bool
	}{
		{"rising late", []ScoreCurve{late}, 0, true, true},
		{"at the maximum at once", []ScoreCurve{fast}, 40, false, false},
		{"never scored", []ScoreCurve{zero}, 40, true, true},
		{"late and fast", []ScoreCurve{late, fast}, 40, false, false},
	} {
		top, left := legendCorner(tc.curves, tc.maxLine, 1, 10, 0, 42)
		if top != tc.top || left != tc.left {
			t.Errorf("%s: legend top=%v left=%v, want top=%v left=%v", tc.name, top, left, tc.top, tc.left)
		}
	}

	// scorePlot places it so: a walkthrough at the maximum from its
	// first steps gets its legend at the bottom right, not over its line.
	var recs []EpisodeRecord
	for seed := int64(1); seed <= 2; seed++ {
		r := rec("walk", "lantern", seed, 20)
		r.MaxScore, r.ScoreByStep, r.Steps = 20, []int{0, 20, 20, 20, 20, 20, 20, 20}, 8
		recs = append(recs, r)
	}
	p, err := scorePlot(NewResultSet(recs...), "lantern", PlotOptions{Band: BandStd})
	if err != nil || p == nil {
		t.Fatalf("scorePlot: %v, %v", p, err)
	}
	if p.Legend.Top || p.Legend.Left {
		t.Errorf("legend top=%v left=%v over a line at the maximum from step 2; want the bottom right", p.Legend.Top, p.Legend.Left)
	}
}
