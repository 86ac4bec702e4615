package wordset

import (
	"sync"
	"testing"
)

func TestSet(t *testing.T) {
	s := New(`north south
		east	west north`)
	for _, w := range []string{"north", "south", "east", "west"} {
		if !s.Has(w) {
			t.Errorf("Has(%q) = false", w)
		}
	}
	for _, w := range []string{"", "North", "up", "north south"} {
		if s.Has(w) {
			t.Errorf("Has(%q) = true", w)
		}
	}
	if s.Len() != 4 {
		t.Errorf("Len() = %d, want 4 (north once)", s.Len())
	}
	if New("").Has("") || New("  ").Len() != 0 {
		t.Error("an empty set has a word")
	}
}

// TestSetConcurrent builds a set from many goroutines at once (run with -race).
func TestSetConcurrent(t *testing.T) {
	s := New("a b c")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !s.Has("b") || s.Has("d") {
				t.Error("wrong answer under concurrent first use")
			}
		})
	}
	wg.Wait()
}
