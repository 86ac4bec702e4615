// Generic functions called without their type parameters written out:
// inferred from a variadic parameter, from several parameters in any
// order, from an untyped constant's default type; generic types with
// methods.
package main

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type Set[T comparable] struct{ m map[T]struct{} }

func NewSet[T comparable](xs ...T) *Set[T] {
	s := &Set[T]{m: map[T]struct{}{}}
	for _, x := range xs {
		s.Add(x)
	}
	return s
}

func (s *Set[T]) Add(x T)      { s.m[x] = struct{}{} }
func (s *Set[T]) Has(x T) bool { _, ok := s.m[x]; return ok }
func (s *Set[T]) Len() int     { return len(s.m) }

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func SortedPairs[V any](m map[string]V) []Pair[string, V] {
	out := make([]Pair[string, V], 0, len(m))
	for k, v := range m {
		out = append(out, Pair[string, V]{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

type Inventory struct {
	items map[string]int
}

var ErrNoItem = errors.New("no such item")

func (inv *Inventory) Take(name string, n int) error {
	have, ok := inv.items[name]
	if !ok {
		return fmt.Errorf("take %s: %w", name, ErrNoItem)
	}
	if have < n {
		return fmt.Errorf("take %s: have %d, want %d", name, have, n)
	}
	inv.items[name] -= n
	return nil
}

type Num interface{ ~int | ~float64 }

func Fold[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func MapKV[K comparable, V, R any](m map[K]V, f func(K, V) R) []R {
	var out []R
	for k, v := range m {
		out = append(out, f(k, v))
	}
	return out
}

func Swap[A, B any](a A, b B) (B, A) { return b, a }

func Pair3[A any, B any](a, a2 A, b B) string { return fmt.Sprint(a, a2, b) }

func Max[T Num](xs ...T) T {
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

func Zero[T any]() T {
	var z T
	return z
}

func main() {
	s := NewSet("lamp", "sword", "lamp")
	fmt.Println(s.Len(), s.Has("lamp"), s.Has("egg"))
	ints := NewSet(1, 2, 3)
	fmt.Println(ints.Has(2))
	for _, p := range SortedPairs(map[string]int{"b": 2, "a": 1}) {
		fmt.Print(p.Key, "=", p.Val, " ")
	}
	fmt.Println()
	evens := Filter([]int{1, 2, 3, 4, 5, 6}, func(x int) bool { return x%2 == 0 })
	fmt.Println(evens)
	words := Filter(strings.Fields("go north then take the lamp"), func(w string) bool { return len(w) > 3 })
	fmt.Println(words)
	total := Reduce[int, int](evens, 0, func(a, x int) int { return a + x })
	joined := Reduce[string, string](words, "", func(a, w string) string { return a + w[:1] })
	fmt.Println(total, joined)
	inv := &Inventory{items: map[string]int{"coin": 3}}
	fmt.Println(inv.Take("coin", 2), inv.Take("coin", 2), errors.Is(inv.Take("gem", 1), ErrNoItem))

	fmt.Println(Fold([]int{1, 2, 3}, "", func(a string, x int) string { return a + strconv.Itoa(x) }))
	fmt.Println(Fold([]string{"a", "b"}, 0, func(n int, s string) int { return n + len(s) }))
	fmt.Println(MapKV(map[string]int{"x": 1}, func(k string, v int) string { return strings.Repeat(k, v+1) }))
	b, a := Swap(1, "one")
	fmt.Println(b, a)
	fmt.Println(Pair3(1, 2, "z"))
	fmt.Println(Max(3, 9, 2), Max(1.5, 0.5))
	fmt.Println(Zero[int](), Zero[string]() == "")
}
