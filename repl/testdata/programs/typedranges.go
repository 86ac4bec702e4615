//go:build ignore

// Range loops and defers that the REPL rewrites by checked types (issue
// 37): a slice type named like an integer, a range over an int64, an
// iterator that a function returns, used inside a function, and
// deferred calls with the arguments they had at the defer statement.
package main

import (
	"errors"
	"fmt"
	"strconv"
)

type interval []int

type int2 struct{ a, b int }

func sum(iv interval) int {
	t := 0
	for i := range iv {
		t += iv[i]
	}
	return t
}

func count(n int64) int64 {
	var c int64
	for i := range n {
		c += i
	}
	return c
}

func evens(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i += 2 {
			if !yield(i) {
				return
			}
		}
	}
}

func useEvens() int {
	t := 0
	for v := range evens(9) {
		if v > 6 {
			break
		}
		t += v
	}
	return t
}

func deferred() (out string) {
	x := 1
	defer func(v int) { out += fmt.Sprint(" deferred ", v) }(x)
	x = 2
	return fmt.Sprint("body ", x)
}

func main() {
	fmt.Println(sum(interval{3, 4, 5}))
	fmt.Println(count(5))
	fmt.Println(useEvens())
	fmt.Println(deferred())
	p := int2{1, 2}
	for i := range p.b {
		fmt.Print(i, " ")
	}
	fmt.Println()
	c, err := strconv.Atoi("42")
	show := func() int { return c * 2 }
	for i := 0; i < 2; i++ {
		fmt.Println(show(), err)
	}
	_, err = strconv.Atoi("x")
	var ne *strconv.NumError
	fmt.Println(errors.As(err, &ne), ne.Func)
}
