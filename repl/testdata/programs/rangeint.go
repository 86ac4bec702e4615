// Ranging over an integer of any integer type (Go 1.22): named, sized,
// unsigned, a constant, a parameter; an assignment to the key in the body
// does not change the iterations.
package main

import (
	"fmt"
	"time"
)

type Count uint8

func f(n int) int {
	s := 0
	for i := range n {
		s += i
		i += 10
		_ = i
	}
	return s
}

func main() {
	for i := range int64(3) {
		fmt.Print(i, " ")
	}
	for i := range Count(2) {
		fmt.Print(uint8(i), " ")
	}
	var n int32 = 2
	for i := range n {
		fmt.Print(i*10, " ")
	}
	for range 2 {
		fmt.Print("x ")
	}
	const k = 3
	for i := range k {
		fmt.Print(i, " ")
	}
	for i := range time.Duration(2) {
		fmt.Print(int64(i), " ")
	}
	for i := range uint64(0) {
		fmt.Print("never", i)
	}
	for i := range -2 {
		fmt.Print("never", i)
	}
	var fs []func() int
	for i := range 3 {
		fs = append(fs, func() int { return i })
	}
	fmt.Println(f(4), fs[0](), fs[2]())
}
