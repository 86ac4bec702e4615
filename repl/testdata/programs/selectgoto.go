// A goto out of a select's clause, back to a label before the select (a
// retry) or forward past it, as in Go; the interpreter overflowed its
// stack compiling the first and the process died.
package main

import (
	"fmt"
	"time"
)

func poll(ch chan int) (got int, tries int) {
retry:
	tries++
	select {
	case v := <-ch:
		return v, tries
	default:
		if tries < 5 {
			if tries == 3 {
				ch <- 42
			}
			goto retry
		}
	}
	return -1, tries
}

func skip() string {
	out := ""
	for i := 0; i < 3; i++ {
		select {
		case <-time.After(time.Millisecond):
			if i == 1 {
				goto next
			}
			out += fmt.Sprint(i)
		}
	next:
	}
	return out
}

func forward(ch chan int) string {
	select {
	case <-ch:
		goto done
	default:
		goto none
	}
none:
	return "none"
done:
	return "done"
}

func main() {
	fmt.Println(poll(make(chan int, 1)))
	fmt.Println(skip())
	c := make(chan int, 1)
	fmt.Println(forward(c))
	c <- 1
	fmt.Println(forward(c))
	tries := 0
	ch := make(chan int, 1)
retry:
	tries++
	select {
	case v := <-ch:
		fmt.Println("got", v, "after", tries)
	default:
		if tries == 2 {
			ch <- 7
		}
		goto retry
	}
}
