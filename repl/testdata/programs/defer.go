// Arguments of deferred calls are evaluated at the defer statement, as
// in Go; clear empties a map and zeroes a slice.
package main

import (
	"fmt"
	"strings"
)

type T struct{ N int }

func show(prefix string, t T) { fmt.Println(prefix, t.N) }

func record(out *[]string, s string) { *out = append(*out, s) }

func main() {
	x := 1
	defer fmt.Println("deferred x", x)
	x = 2
	t := T{1}
	defer show("deferred t", t)
	t.N = 5
	p := &T{1}
	defer fmt.Println("deferred p.N", p.N)
	p.N = 9
	var out []string
	func() {
		for i := 0; i < 3; i++ {
			defer record(&out, fmt.Sprint("i", i))
		}
	}()
	fmt.Println(out)
	var sb strings.Builder
	s := "a"
	defer sb.WriteString(s)
	s = "b"
	fmt.Println(x, t.N, p.N)
	func() {
		for i := 0; i < 3; i++ {
			defer func(k int) { fmt.Print("a", k, " ") }(i)
		}
	}()
	fmt.Println()
	m := map[string]int{"a": 1}
	xs := []int{1, 2}
	clear(m)
	clear(xs)
	fmt.Println(len(m), xs)
}
