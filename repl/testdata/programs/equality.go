// == and map keys of interface values holding a program's own types,
// however the value got into the interface (a literal, a variable, a
// conversion, a return), and a switch on an interface value.
package main

import "fmt"

type Sq struct{ n int }

func (s Sq) String() string { return fmt.Sprint("sq", s.n) }

type P struct{ x int }

type Dir int

func (d Dir) String() string { return [...]string{"N", "E"}[d] }

func mk(n int) any { return Sq{n} }

func main() {
	var a any = Sq{1}
	var b any = Sq{1}
	c := any(Sq{1})
	x := Sq{1}
	var d any = x
	fmt.Println(a == b, a == c, a == d, a == mk(1), a != mk(2), a == any(x))
	var e any = P{1}
	var f any = P{1}
	fmt.Println(e == f)
	m := map[any]int{}
	m[Sq{1}] = 1
	m[a] += 10
	m[Dir(1)] = 5
	var k any = Dir(1)
	fmt.Println(len(m), m[b], m[k])
	switch a {
	case Sq{2}:
		fmt.Println("two")
	case Sq{1}:
		fmt.Println("one")
	default:
		fmt.Println("none")
	}
	var p1 any = &x
	var p2 any = &x
	fmt.Println(p1 == p2)
	s := []any{Sq{3}, Dir(0)}
	fmt.Println(s[0] == any(Sq{3}), s[1] == any(Dir(0)), s[1] == Dir(0))
	var st fmt.Stringer = Sq{4}
	var st2 fmt.Stringer = Sq{4}
	fmt.Println(st == st2)
	var err1 error
	fmt.Println(err1 == nil, a != nil)
}
