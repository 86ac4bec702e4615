// Errors of value-receiver types: errors.As and type switches find them,
// in an error variable, a return value and a wrapped chain.
package main

import (
	"errors"
	"fmt"
)

type NotFound struct{ Name string }

func (e NotFound) Error() string { return "not found: " + e.Name }

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Pair struct {
	A, B string
}

func (p Pair) Error() string { return p.A + "/" + p.B }

func find(n string) error  { return fmt.Errorf("find: %w", NotFound{n}) }
func plain(n string) error { return NotFound{n} }

func kind(err error) string {
	switch e := err.(type) {
	case NotFound:
		return "NotFound " + e.Name
	case Code:
		return fmt.Sprint("Code ", int(e))
	case Pair:
		return "Pair " + e.B
	default:
		return "default"
	}
}

func main() {
	var nf NotFound
	fmt.Println(errors.As(find("x"), &nf), nf.Name)
	fmt.Println(errors.As(plain("y"), &nf), nf.Name)
	var e2 error = NotFound{"z"}
	fmt.Println(e2, errors.As(e2, &nf), nf.Name)
	var c Code
	fmt.Println(errors.As(fmt.Errorf("w: %w", Code(4)), &c), int(c))
	var p Pair
	fmt.Println(errors.As(fmt.Errorf("w: %w", Pair{"a", "b"}), &p), p.A, p.B)
	fmt.Println(kind(plain("q")), "|", kind(Code(2)), "|", kind(Pair{"c", "d"}), "|", kind(errors.New("e")))
	switch plain("r").(type) {
	case NotFound:
		fmt.Println("matched")
	default:
		fmt.Println("default")
	}
	_, ok := e2.(NotFound)
	fmt.Println(ok)
}
