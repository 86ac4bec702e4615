// A program that imports only iter, of the packages the REPL makes from
// source, finds it.
package main

import (
	"fmt"
	"iter"
)

func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	var seq iter.Seq[int] = Count(4)
	for v := range seq {
		if v == 3 {
			break
		}
		fmt.Print(v, " ")
	}
	fmt.Println()
}
