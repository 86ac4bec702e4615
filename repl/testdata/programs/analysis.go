// Analysing runs: seeded randomness, slices.SortFunc with cmp, grouping,
// iterators, durations and dates.
package main

import (
	"cmp"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"strings"
	"time"
)

type Run struct {
	Policy string
	Score  int
	Steps  int
}

func mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return float64(s) / float64(len(xs))
}

func main() {
	r := rand.New(rand.NewSource(42))
	fmt.Println(r.Intn(100), r.Intn(100), r.Float64() < 1)
	r2 := randv2.New(randv2.NewPCG(1, 2))
	fmt.Println(r2.IntN(100), r2.IntN(100))
	runs := []Run{{"a", 10, 5}, {"b", 30, 9}, {"a", 20, 7}, {"b", 10, 3}}
	slices.SortFunc(runs, func(x, y Run) int {
		return cmp.Or(cmp.Compare(x.Policy, y.Policy), cmp.Compare(y.Score, x.Score))
	})
	fmt.Println(runs)
	by := map[string][]int{}
	for _, run := range runs {
		by[run.Policy] = append(by[run.Policy], run.Score)
	}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for k := range by {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Printf("%s %.1f\n", p, mean(by[p]))
	}
	idx := slices.IndexFunc(runs, func(r Run) bool { return r.Score > 25 })
	fmt.Println(idx, slices.ContainsFunc(runs, func(r Run) bool { return r.Steps == 3 }))
	d := 1500 * time.Millisecond
	fmt.Println(d, d.Seconds(), time.Duration(90)*time.Second)
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	fmt.Println(t0.Add(36*time.Hour).Format(time.RFC3339), t0.Weekday())
	var sb strings.Builder
	for i := range 3 {
		fmt.Fprintf(&sb, "[%d]", i)
	}
	fmt.Println(sb.String())
}
