// Slicing out of range panics with Go's run-time error, to a recover.
package main

import "fmt"

func catch(f func()) {
	defer func() { fmt.Println("recovered:", recover()) }()
	f()
}

func main() {
	xs := make([]int, 3, 4)
	i, j := 5, 2
	catch(func() { fmt.Println(xs[:i]) })
	catch(func() { fmt.Println(xs[j:1]) })
	catch(func() { fmt.Println(xs[i:]) })
	catch(func() { fmt.Println(xs[1:2:i]) })
	s := "abc"
	catch(func() { fmt.Println(s[:i]) })
	var a [2]int
	catch(func() { fmt.Println(a[:i]) })
	catch(func() { fmt.Println(xs[:4]) })
}
