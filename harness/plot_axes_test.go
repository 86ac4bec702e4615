package harness

import (
	"math"
	"testing"
)

// A run that never scored gets a y axis from 0 with whole-number ticks,
// and steps and scores are ticked at whole numbers only.
func TestScorePlotAxes(t *testing.T) {
	var recs []EpisodeRecord
	for seed := int64(1); seed <= 2; seed++ {
		r := rec("idle", "lantern", seed, 0)
		r.MaxScore, r.ScoreByStep, r.Steps = 20, []int{0, 0, 0, 0, 0}, 5
		recs = append(recs, r)
	}
	for name, rs := range map[string]*ResultSet{"all zero": NewResultSet(recs...), "small": smallExperiment().ByGame("lantern")} {
		p, err := scorePlot(rs, "lantern", PlotOptions{Band: BandStd})
		if err != nil || p == nil {
			t.Fatalf("%s: scorePlot = %v, %v", name, p, err)
		}
		if (name == "all zero" && p.Y.Min != 0) || p.Y.Min > 0 || p.Y.Max < 1 {
			t.Errorf("%s: y axis %v..%v, want from 0 to at least 1", name, p.Y.Min, p.Y.Max)
		}
		// The maximum score, 20, is drawn as a line: the axis reaches it.
		if p.Y.Max < 20 {
			t.Errorf("%s: y axis ends at %v, below the maximum score 20 drawn as a line", name, p.Y.Max)
		}
		for axis, a := range map[string]struct{ lo, hi float64 }{"x": {p.X.Min, p.X.Max}, "y": {p.Y.Min, p.Y.Max}} {
			m := p.X.Tick.Marker
			if axis == "y" {
				m = p.Y.Tick.Marker
			}
			labels := 0
			for _, tk := range m.Ticks(a.lo, a.hi) {
				if tk.Value != math.Trunc(tk.Value) {
					t.Errorf("%s: %s tick at %v, not a whole number", name, axis, tk.Value)
				}
				if tk.Label != "" {
					labels++
				}
			}
			if labels < 2 {
				t.Errorf("%s: %s axis %v..%v has %d labelled ticks, want 2 or more", name, axis, a.lo, a.hi, labels)
			}
		}
	}
}
