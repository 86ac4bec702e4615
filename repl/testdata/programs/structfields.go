// fmt prints a struct whose exported fields are of a program's types
// with String methods by those methods (an unexported one by its value),
// with %+v, through a pointer and nested, as Go does.
package main

import "fmt"

type Level int

func (l Level) String() string { return [...]string{"low", "mid", "high"}[l] }

type Score float64

func (s Score) String() string { return fmt.Sprintf("%.1f pts", float64(s)) }

type Step struct {
	L     Level
	S     Score
	N     int
	quiet Level
}

type Outer struct {
	Name string
	In   Step
	P    *Step
}

type Own struct{ L Level }

func (o Own) String() string { return "own" }

func main() {
	s := Step{2, 3, 4, 1}
	fmt.Println(s)
	fmt.Printf("%v|%+v\n", s, s)
	fmt.Println(&s)
	o := Outer{Name: "x", In: s}
	fmt.Printf("%v\n%+v\n", o, o)
	fmt.Println(Own{1})
	var np *Step
	fmt.Println(np)
	fmt.Println(fmt.Sprint(Step{L: 1}))
}
