package harness

import (
	"context"
	"strings"
	"testing"
)

// StartEpisode gives the episode an experiment plays: the walkthrough
// variant wins Lantern, and its record is the one Run would write.
func TestStartEpisode(t *testing.T) {
	cfg := &Config{Name: "one", Variants: []Variant{{Name: "w", Policy: PolicyWalkthrough}}, Games: []string{"lantern"}, Seeds: []int64{3}}
	spec := cfg.Episodes()[0]
	ep, err := StartEpisode(context.Background(), cfg, spec, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	res, err := ep.Run(context.Background(), cfg.Steps())
	if err != nil {
		t.Fatal(err)
	}
	if res.FinalScore != 60 || !res.Victory {
		t.Errorf("walkthrough: %d, victory %v", res.FinalScore, res.Victory)
	}
	rec := ep.Record()
	if rec.Variant != "w" || rec.Game != "lantern" || rec.Seed != 3 || rec.LLMSeed != spec.LLMSeed || rec.GrueVersion != "test" {
		t.Errorf("record: %+v", rec)
	}
}

// A bad config or a variant it does not have is refused before anything
// is played.
func TestStartEpisodeRefuses(t *testing.T) {
	ctx := context.Background()
	if _, err := StartEpisode(ctx, nil, EpisodeSpec{}, ""); err == nil {
		t.Error("nil config: no error")
	}
	bad := &Config{Name: "one", Variants: []Variant{{Name: "w", Policy: "wizard"}}, Games: []string{"lantern"}}
	if _, err := StartEpisode(ctx, bad, EpisodeSpec{Variant: "w", Game: "lantern", Seed: 1}, ""); err == nil || !strings.Contains(err.Error(), "variants[0].policy") {
		t.Errorf("bad policy: %v", err)
	}
	cfg := &Config{Name: "one", Variants: []Variant{{Name: "w", Policy: PolicyWalkthrough}}, Games: []string{"lantern"}}
	if _, err := StartEpisode(ctx, cfg, EpisodeSpec{Variant: "x", Game: "lantern", Seed: 1}, ""); err == nil || !strings.Contains(err.Error(), `no variant "x"`) {
		t.Errorf("unknown variant: %v", err)
	}
}
