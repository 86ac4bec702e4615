// fmt prints a map whose keys are of a program's type with a String
// method by those methods, sorted by the keys' values, as Go does.
package main

import "fmt"

type Level int

func (l Level) String() string { return [...]string{"low", "mid", "high"}[l] }

type Dir int

const (
	North Dir = iota
	East
	South
)

func (d Dir) String() string { return "NES"[d : d+1] }

func main() {
	m := map[Level]int{2: 3, 0: 1, 1: 2}
	fmt.Println(m)
	fmt.Printf("%v %d\n", m, m)
	d := map[Dir]Level{East: 2, North: 0}
	fmt.Println(d)
	s := map[string]Level{"a": 1}
	fmt.Println(s)
	fmt.Println(map[Dir]bool{})
	var nm map[Dir]int
	fmt.Println(nm, len(nm))
	fmt.Println(fmt.Sprint(map[Dir]int{South: 9, North: 7}))
}
