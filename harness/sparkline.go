package harness

import (
	"math"
	"slices"
	"strings"
)

// sparkBlocks are the eight heights of a sparkline, lowest first.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws values as a row of block characters (▁▂▃▄▅▆▇█) at most
// width characters wide, on a scale from min(0, the smallest value) to the
// largest. See SparklineScaled to put several lines on one scale.
func Sparkline(values []float64, width int) string {
	if len(values) == 0 {
		return ""
	}
	return SparklineScaled(values, width, min(0, slices.Min(values)), slices.Max(values))
}

// SparklineScaled draws values from lo (▁) to hi (█). When there are more
// values than width, each character is the mean of a run of consecutive
// values; width 0 or less means one character a value. A flat scale
// (hi <= lo) draws every value as ▁.
func SparklineScaled(values []float64, width int, lo, hi float64) string {
	if len(values) == 0 {
		return ""
	}
	if width <= 0 || width > len(values) {
		width = len(values)
	}
	var sb strings.Builder
	for i := range width {
		from, to := i*len(values)/width, (i+1)*len(values)/width
		v := Mean(values[from:to])
		level := 0
		if hi > lo && !math.IsNaN(v) {
			f := (v - lo) / (hi - lo)
			level = int(math.Round(f * float64(len(sparkBlocks)-1)))
			level = min(max(level, 0), len(sparkBlocks)-1)
		}
		sb.WriteRune(sparkBlocks[level])
	}
	return sb.String()
}
