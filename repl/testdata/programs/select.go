// break, continue and return inside a select in a loop: an unlabeled
// break leaves the select, break L the loop L, continue the next
// iteration, as in Go.
package main

import (
	"fmt"
	"time"
)

func first(chs ...chan int) int {
	for {
		select {
		case v := <-chs[0]:
			return v
		case v := <-chs[1]:
			return v * 10
		}
	}
}

func main() {
	ch := make(chan int, 10)
	for i := 0; i < 6; i++ {
		ch <- i
	}
	close(ch)
	var got []int
	n := 0
loop:
	for {
		n++
		select {
		case v, ok := <-ch:
			if !ok {
				break loop
			}
			if v == 1 {
				break // leaves the select only
			}
			if v == 3 {
				continue
			}
			got = append(got, v)
		}
	}
	fmt.Println(got, n)

	ticks := 0
	timeout := time.After(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-tick.C:
			ticks++
			if ticks == 3 {
				break wait
			}
		case <-timeout:
			break wait
		}
	}
	fmt.Println("ticks", ticks)

	a, b := make(chan int, 1), make(chan int, 1)
	b <- 4
	fmt.Println(first(a, b))

	count := 0
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			select {
			default:
				if j == 1 {
					continue outer
				}
				count++
			}
		}
	}
	fmt.Println("count", count)

	done := make(chan struct{})
	close(done)
	for i := 0; i < 2; i++ {
		select {
		case <-done:
			fmt.Println("done", i)
			break
		}
	}
}
