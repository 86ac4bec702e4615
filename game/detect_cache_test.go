package game

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/testgames"
)

// TestDetectionCache opens Spot (which opens on "press SPACE") twice with
// one cache: the first game finds its maximum score and player by probing
// once past the key; the second knows them at once, before any key, and
// its opening costs no probe.
func TestDetectionCache(t *testing.T) {
	c := NewDetectionCache()
	path := testgames.Path(t, filepath.Join("corpus", "spot.z5"))
	first, err := Open(path, WithDetectionCache(c))
	if err != nil {
		t.Fatal(err)
	}
	if first.MaxScore() != 0 || c.Len() != 0 {
		t.Fatalf("before the key: max score %d, %d stories cached; want nothing known yet", first.MaxScore(), c.Len())
	}
	if _, err := first.Step(" "); err != nil {
		t.Fatal(err)
	}
	if first.MaxScore() != 1000 || first.Player() == 0 || c.Len() != 1 {
		t.Fatalf("after the key: max score %d, player %d, %d stories cached", first.MaxScore(), first.Player(), c.Len())
	}
	start := time.Now()
	second, err := Open(path, WithDetectionCache(c))
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if !second.KeyExpected() || second.MaxScore() != 1000 || second.Player() != first.Player() ||
		second.Scoring() != first.Scoring() {
		t.Fatalf("from the cache: key expected %v, %+v player %d; want %+v player %d",
			second.KeyExpected(), second.Scoring(), second.Player(), first.Scoring(), first.Player())
	}
	if second.probes != probeLimit {
		t.Errorf("the second game would probe again (%d probes made)", second.probes)
	}
	r, err := second.Step(" ")
	if err != nil {
		t.Fatal(err)
	}
	if r.Info.MaxScore != 1000 {
		t.Errorf("after the key: %+v", r.Info)
	}
	t.Logf("opened from the cache in %v", took)
	// Without the cache, a game probes again.
	third, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if third.MaxScore() != 0 {
		t.Errorf("a game opened without the cache knows its maximum (%d) before the key", third.MaxScore())
	}
}
