// Run-time panics of interpreted code say what compiled Go's say, to a
// recover in the program.
package main

import (
	"fmt"
	"strings"
)

func get(q []int, i int) int {
	x := i + 1
	_ = x
	return q[i]
}

func catch(f func()) {
	defer func() {
		r := recover()
		_, isErr := r.(error)
		fmt.Println("recovered:", r, isErr)
	}()
	f()
}

type T struct{ xs [2]int }

func main() {
	var q []int
	catch(func() { fmt.Println(get(q, 3)) })
	catch(func() { fmt.Println(get([]int{1, 2}, -1+0*len(q))) })
	var a [3]string
	i := 5
	catch(func() { fmt.Println(a[i%8]) })
	s := strings.Repeat("x", 2)
	catch(func() { fmt.Println(s[i]) })
	t := &T{}
	catch(func() { fmt.Println(t.xs[i]) })
	catch(func() { panic(fmt.Sprintf("mine %d", i)) })
	fmt.Println("end")
}
