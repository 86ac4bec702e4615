package workbench

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkCellCheck is the cost of a cell in a workbench session with
// thirty declarations before it: the type check of the cell against them
// and the bound packages, and the run.
func BenchmarkCellCheck(b *testing.B) {
	s, _ := newSession(b)
	ctx := context.Background()
	for i := range 30 {
		if _, err := s.Eval(ctx, fmt.Sprintf("func f%d(n int) int { return n + %d }", i, i)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.Eval(ctx, "ep.Agent.System"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Eval(ctx, "f3(2) + len(ep.Agent.System)"); err != nil {
			b.Fatal(err)
		}
	}
}
