// A named result that a panicking function's deferred recover leaves
// unset is the zero value, not the previous call's, as in Go.
package main

import "fmt"

type C struct{ k int }

func (c *C) get(fail bool) (v string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	c.k++
	if fail {
		boom()
	}
	return fmt.Sprint("v", c.k), true
}

func boom() { panic("boom") }

func sum(xs []int) (total int) {
	defer func() { recover() }()
	for _, x := range xs {
		if x < 0 {
			panic("neg")
		}
		total += x
	}
	return total
}

func main() {
	c := &C{}
	fmt.Println(c.get(false))
	fmt.Println(c.get(true))
	fmt.Println(c.get(false))
	fmt.Println(sum([]int{1, 2}), sum([]int{5, -1}), sum([]int{3}))
}
