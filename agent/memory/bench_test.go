package memory

import (
	"context"
	"testing"
)

// The strategies run at every step of an episode, so their cost with a
// long history matters: 200 turns, the last 10 kept verbatim.

func BenchmarkWindowContext(b *testing.B) {
	turns := nativeTurns(200)
	w := &Window{N: 10, Budget: 4000}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Context(context.Background(), turns); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHybridContext measures a step whose summary is made: hashing
// the summarised turns to find it, and the budget.
func BenchmarkHybridContext(b *testing.B) {
	turns := nativeTurns(200)
	h := NewHybrid(10, summariser(), "")
	h.Budget = 4000
	ctx := context.Background()
	if _, err := h.Context(ctx, turns); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Context(ctx, turns); err != nil {
			b.Fatal(err)
		}
	}
}
