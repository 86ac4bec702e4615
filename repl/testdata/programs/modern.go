// Go 1.21 to 1.23: ranges over integers and iterators, slices and maps,
// min and max of variables, clear, loop variables per iteration.
package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

func countdown(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := n; i > 0; i-- {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	for i := range 3 {
		fmt.Print(i, " ")
	}
	fmt.Println()
	xs := []int{3, 1, 2}
	slices.Sort(xs)
	fmt.Println(xs, slices.Contains(xs, 2), slices.Index(xs, 3), slices.Max(xs))
	a, b := 4, 9
	fmt.Println(min(a, b), max(a, b, 7), min(2.5, float64(a)))
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	fmt.Println(slices.Sorted(maps.Keys(m)))
	var it func(func(int) bool) = countdown(5)
	for v := range it {
		if v == 2 {
			break
		}
		fmt.Print(v, " ")
	}
	fmt.Println()
	var fs []func() string
	for _, w := range strings.Fields("x y z") {
		fs = append(fs, func() string { return w })
	}
	for _, f := range fs {
		fmt.Print(f())
	}
	fmt.Println()
	ps := []*int{}
	for i := 0; i < 3; i++ {
		ps = append(ps, &i)
	}
	fmt.Println(*ps[0], *ps[1], *ps[2])
}
