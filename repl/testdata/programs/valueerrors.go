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

// Temporary is an interface of the program's own that errors.As finds.
type Temporary interface{ Temporary() bool }

type tempErr struct{ n int }

func (tempErr) Error() string     { return "temp" }
func (t tempErr) Temporary() bool { return t.n > 0 }

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

	var t Temporary
	fmt.Println(errors.As(fmt.Errorf("wrap: %w", tempErr{3}), &t), t != nil && t.Temporary(), t)
	var t2 Temporary
	fmt.Println(errors.As(find("x"), &t2), t2 == nil)
	var t3 Temporary
	fmt.Println(errors.As(errors.Join(errors.New("a"), tempErr{0}), &t3), t3 != nil && t3.Temporary())
}
