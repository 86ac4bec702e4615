// %+v names the unexported fields of a program's structs as declared
// (the interpreter exports them under an X), in a struct, its fields,
// a slice and a map, and a pointer to one, as Go does.
package main

import "fmt"

type point struct{ x, y int }

type shape struct {
	name   string
	Center point
	Pts    []point
}

type Level int

func (l Level) String() string { return "L" }

type node struct {
	val  Level
	next *node
}

func main() {
	p := point{1, 2}
	fmt.Printf("%v %+v\n", p, p)
	s := shape{"tri", point{0, 0}, []point{{1, 1}}}
	fmt.Printf("%v\n%+v\n", s, s)
	fmt.Printf("%+v\n", []point{{3, 4}})
	fmt.Printf("%+v\n", map[string]point{"a": {5, 6}})
	n := node{val: 1}
	fmt.Printf("%v %+v\n", n, n)
	fmt.Println(&p)
	fmt.Printf("%+v\n", &p)
}
