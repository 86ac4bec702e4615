package harness

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// manyLongVariants is a run of eight variants with long names that share
// a long prefix and differ at the end, on two games.
func manyLongVariants() *ResultSet {
	var recs []EpisodeRecord
	for v := range 8 {
		name := fmt.Sprintf("openai-gpt-4o-mini-with-memory-and-map-tools-temperature-0.%d", v)
		for _, g := range []string{"zork1", "hitchhikers-guide-to-the-galaxy"} {
			for seed := int64(1); seed <= 3; seed++ {
				r := rec(name, g, seed, v+int(seed))
				r.MaxScore, r.ScoreByStep, r.FirstPointStep = 350, []int{0, v, v + int(seed)}, 2
				r.Steps, r.Moves, r.LocationsVisited = 3, 2, 4
				r.Tokens.TotalTokens, r.Cost = 123456, 0.1234
				recs = append(recs, r)
			}
		}
	}
	return NewResultSet(recs...)
}

// The compare tables of many variants with long names fit 120 columns
// (and 80), say which columns they left out, and keep the variants
// apart.
func TestComparisonTableFitsWidth(t *testing.T) {
	c, err := Compare(manyLongVariants(), "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{DefaultTableWidth, 80} {
		var b bytes.Buffer
		if err := c.WriteTableWidth(&b, width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: line %d is %d columns: %s", width, i+1, n, l)
			}
		}
		if !strings.Contains(out, fmt.Sprintf("Left out to fit %d columns: ", width)) {
			t.Errorf("width %d: no line says which columns were left out:\n%s", width, out)
		}
		if !strings.Contains(out, "cut in the middle") {
			t.Errorf("width %d: no line says names were cut:\n%s", width, out)
		}
		for v := range 8 {
			if end := fmt.Sprintf("temperature-0.%d", v); width == DefaultTableWidth && !strings.Contains(out, end) {
				t.Errorf("width %d: variant ending %s cannot be told apart:\n%s", width, end, out)
			}
		}
		if !regexp.MustCompile(`│ +Score +│`).MatchString(out) {
			t.Errorf("width %d: the Score column was left out:\n%s", width, out)
		}
	}
	// Wide enough, nothing is left out.
	var b bytes.Buffer
	if err := c.WriteTableWidth(&b, 1000); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "Left out") || !strings.Contains(out, "Score by step") {
		t.Errorf("width 1000 left columns out:\n%s", out)
	}
}
