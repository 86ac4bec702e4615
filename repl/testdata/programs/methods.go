// Method expressions of a program's own types, value and pointer
// receivers, variadic and several results.
package main

import (
	"fmt"
	"sort"
	"strings"
)

type T struct{ v int }

func (t T) Get() int   { return t.v }
func (t *T) Set(v int) { t.v = v }
func (t T) Join(sep string, xs ...string) string {
	return fmt.Sprint(t.v) + sep + strings.Join(xs, sep)
}
func (t T) Pair() (n int, s string) { return t.v, "p" }

func apply(f func(T) int, t T) int { return f(t) }

func main() {
	get := T.Get
	set := (*T).Set
	t := T{1}
	set(&t, 5)
	fmt.Println(get(t), apply(T.Get, T{7}), (*T).Get(&t))
	fmt.Println(T.Join(t, "-", "a", "b"))
	n, s := T.Pair(t)
	fmt.Println(n, s)
	ts := []T{{3}, {1}, {2}}
	key := T.Get
	sort.Slice(ts, func(i, j int) bool { return key(ts[i]) < key(ts[j]) })
	fmt.Println(ts)
}
