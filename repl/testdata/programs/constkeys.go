// Maps indexed by typed constants (an iota enum as a key), by untyped
// constants of another kind, and updated in place.
package main

import "fmt"

type Level int

const (
	Easy Level = iota + 1
	Hard
)

const Named = "n"

func main() {
	m := map[Level]int{Easy: 1, Hard: 2}
	fmt.Println(m[Hard], m[1], m[Easy+1])
	v, ok := m[Hard]
	fmt.Println(v, ok)
	f := map[float64]string{1: "one", 2.5: "x"}
	fmt.Println(f[1], f[2.5])
	s := map[string]int{"n": 3}
	fmt.Println(s[Named], s["n"])
	a := map[any]int{Hard: 9}
	fmt.Println(len(a), a[Hard])
	m[Hard]++
	m[Easy] += 10
	delete(m, Hard)
	fmt.Println(m)
}
