// Calls of func literals' values: recursion through a variable,
// closures over variables they change, closures made in a loop, func
// values passed and returned, with interface and variadic parameters.
package main

import (
	"errors"
	"fmt"
	"strings"
)

type Shape interface{ Area() float64 }

type Sq struct{ s float64 }

func (q Sq) Area() float64 { return q.s * q.s }

func counter() (func() int, func() int) {
	n := 0
	return func() int { n++; return n }, func() int { return n }
}

func apply(f func(int) int, x int) int { return f(x) }

func main() {
	var fib func(int) int
	fib = func(n int) int {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	fmt.Println(fib(15))

	inc, get := counter()
	inc()
	inc()
	fmt.Println(get(), inc(), get())

	var fs []func() string
	for _, w := range []string{"a", "b", "c"} {
		fs = append(fs, func() string { return strings.ToUpper(w) })
	}
	for _, f := range fs {
		fmt.Print(f())
	}
	fmt.Println()

	double := func(x int) int { return 2 * x }
	fmt.Println(apply(double, 21), apply(func(x int) int { return x + 1 }, 1))

	area := func(s Shape) float64 { return s.Area() }
	fmt.Println(area(Sq{3}))

	join := func(sep string, parts ...string) string { return strings.Join(parts, sep) }
	fmt.Println(join("-", "x", "y", "z"), join("+"))

	check := func(ok bool) error {
		if !ok {
			return errors.New("not ok")
		}
		return nil
	}
	fmt.Println(check(true), check(false))

	two := func() (int, string) { return 2, "two" }
	n, s := two()
	fmt.Println(n, s)

	total := 0
	add := func(k int) { total += k }
	for i := range 5 {
		add(i)
	}
	fmt.Println(total)

	defer func() { fmt.Println("recovered:", recover()) }()
	boom := func(xs []int) int { return xs[2] }
	boom(nil)
}
