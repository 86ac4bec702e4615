package harness

import (
	"testing"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/internal/testgames"
)

// An episode on a story the catalog does not know probes it once: the
// episode's check of the story, its server's game and its forks share
// what the probes found, so a fork opens its game from the cache.
func TestEpisodeSharesDetections(t *testing.T) {
	story := testgames.Path(t, "corpus/candy.z5")
	a := agent.New(agent.Defaults())
	a.Policy = agent.NewWalkthrough([]string{"look", "inventory", "look"})
	ep, err := NewEpisode(a, story, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	if r, err := ep.Run(t.Context(), 3); err != nil || r.MaxScore != 41 {
		t.Fatalf("candy: %+v, %v; want max score 41", r, err)
	}
	if ep.detections == nil || ep.detections.Len() != 1 {
		t.Fatalf("after three steps the cache holds %d stories, want 1", ep.detections.Len())
	}
	f, err := ep.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.detections != ep.detections || f.detections.Len() != 1 {
		t.Errorf("the fork has its own cache (%p, not %p)", f.detections, ep.detections)
	}
	if r, err := f.Run(t.Context(), 1); err != nil || r.MaxScore != 41 {
		t.Errorf("fork from the cache: max score %v, %v; want candy's 41", r, err)
	}
}
