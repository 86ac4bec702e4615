// A receive that waits, as the operand of && and ||, in a condition
// (upstream yaegi's _test/chan8.go: under a context it was false).
package main

import "fmt"

func main() {
	ready := make(chan bool)
	go func() { ready <- true }()
	fmt.Println(<-ready && true)
	go func() { ready <- true }()
	if <-ready || false {
		fmt.Println("ready")
	}
	go func() { ready <- false }()
	fmt.Println(<-ready && true)
}
