package harness

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestProgressBars(t *testing.T) {
	srv := playerServer(t, 0)
	cfg := &Config{
		Name: "bars",
		Variants: []Variant{
			{Name: "model", Model: "scripted", BaseURL: srv.URL()},
			{Name: "walkthrough", Policy: PolicyWalkthrough},
		},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2, 3},
		MaxSteps: 8,
	}
	var out bytes.Buffer
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run"), Progress: &out, Bars: true}); err != nil {
		t.Fatal(err)
	}
	// The last frame: each variant's bar, full, with its counts and mean.
	s := out.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`model\s+3/3 .*running 0  failed 0  mean \d+\.\d \(\d+\.\d%\)`),
		regexp.MustCompile(`walkthrough\s+3/3 .*running 0  failed 0  mean [1-9]\d*\.\d \(\d+\.\d%\)`),
	} {
		if !want.MatchString(s) {
			t.Errorf("no line matching %s in:\n%s", want, s)
		}
	}
	if strings.Contains(s, "[1/6]") {
		t.Errorf("bars and plain lines both:\n%s", s)
	}
}

func TestVariantProgressStatus(t *testing.T) {
	var v variantProgress
	if got := v.status(); got != "running 0  failed 0  mean -" {
		t.Errorf("empty: %q", got)
	}
	v.running = 2
	v.add(EpisodeRecord{FinalScore: 10, MaxScore: 40})
	v.add(EpisodeRecord{FinalScore: 20, MaxScore: 40})
	v.add(EpisodeRecord{Error: "boom"})
	if got := v.status(); got != "running 2  failed 1  mean 15.0 (37.5%)" || v.done != 3 {
		t.Errorf("status %q, done %d", got, v.done)
	}
}
