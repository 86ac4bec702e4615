// Generic functions given a compiled function (strings.ToUpper), a
// spread slice (Sum(xs...)), and a program's own generic Keys next to
// maps.Keys.
package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Number interface{ ~int | ~int64 | ~float64 }

func Sum[T Number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Keys[K comparable, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

type Meters float64

func main() {
	words := []string{"a", "bc"}
	fmt.Println(Map(words, strings.ToUpper))
	fmt.Println(Map([]int{7, 42}, strconv.Itoa))
	fmt.Println(Map(words, func(s string) int { return len(s) }))
	xs := []int{1, 2, 3}
	ms := []Meters{1.5, 2}
	fmt.Println(Sum(xs...), Sum(1.5, 2), Sum[int](), float64(Sum(ms...)))
	m := map[string]int{"b": 1, "a": 2}
	k := Keys(m)
	slices.Sort(k)
	fmt.Println(k)
	fmt.Println(slices.Sorted(maps.Keys(m)))
	fmt.Println(len(Keys(map[int]bool{1: true})))
}
