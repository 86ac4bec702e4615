// A value held in an interface a program declared (a Shape holding a
// *Circle) prints by its String method, alone, in a slice, a map, a
// range, as Go prints it.
package main

import "fmt"

type Shape interface{ Area() float64 }

type Circle struct{ R float64 }

func (c *Circle) Area() float64  { return 3 * c.R * c.R }
func (c *Circle) String() string { return fmt.Sprint("circle ", c.R) }

type Sq struct{ S float64 }

func (s Sq) Area() float64  { return s.S * s.S }
func (s Sq) String() string { return "sq" }

func main() {
	var s Shape = &Circle{1}
	fmt.Println(s)
	shapes := []Shape{&Circle{2}, Sq{1}}
	fmt.Println(shapes[0], shapes[1])
	fmt.Println(shapes)
	for _, x := range shapes {
		fmt.Println(x)
	}
	m := map[string]Shape{"a": &Circle{3}}
	fmt.Println(m["a"], m)
	var t Shape = Sq{2}
	fmt.Println(t)
}
