package harness

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCompare measures a comparison of a large experiment: 5 variants
// on 10 games over 50 seeds (2,500 episodes of 200 steps), 10,000
// resamples per interval.
func BenchmarkCompare(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	rs := &ResultSet{}
	for v := range 5 {
		for g := range 10 {
			for seed := range 50 {
				r := rec(fmt.Sprintf("v%d", v), fmt.Sprintf("game%d", g), int64(seed), rng.IntN(100))
				r.ScoreByStep = make([]int, 200)
				for s := range r.ScoreByStep {
					r.ScoreByStep[s] = r.FinalScore * s / 200
				}
				rs.Add(r)
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compare(rs, "v0", CompareOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
