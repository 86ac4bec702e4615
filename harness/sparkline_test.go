package harness

import (
	"testing"
	"unicode/utf8"
)

func TestSparkline(t *testing.T) {
	cases := []struct {
		name   string
		values []float64
		width  int
		want   string
	}{
		{"rising", []float64{0, 1, 2, 3, 4, 5, 6, 7}, 0, "▁▂▃▄▅▆▇█"},
		{"flat zero", []float64{0, 0, 0}, 0, "▁▁▁"},
		{"flat positive is full height", []float64{5, 5}, 0, "██"},
		{"squeezed by means", []float64{0, 0, 7, 7}, 2, "▁█"},
		{"width larger than data", []float64{0, 7}, 10, "▁█"},
		{"negative scores", []float64{-7, 0}, 0, "▁█"},
		{"empty", nil, 5, ""},
	}
	for _, c := range cases {
		if got := Sparkline(c.values, c.width); got != c.want {
			t.Errorf("%s: Sparkline(%v, %d) = %q, want %q", c.name, c.values, c.width, got, c.want)
		}
	}
	long := make([]float64, 300)
	for i := range long {
		long[i] = float64(i)
	}
	if got := Sparkline(long, 20); utf8.RuneCountInString(got) != 20 {
		t.Errorf("300 values at width 20: %q has %d characters", got, utf8.RuneCountInString(got))
	}
	// On a shared scale, a curve that reaches half the top stays low.
	if got := SparklineScaled([]float64{0, 5}, 0, 0, 10); got != "▁▅" {
		t.Errorf("SparklineScaled half-way = %q, want ▁▅", got)
	}
}
