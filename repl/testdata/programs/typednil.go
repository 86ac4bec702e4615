// A nil pointer (or slice) of a program's type returned or assigned as an
// error is a non-nil error holding it, as in Go; nil and a nil interface
// stay nil.
package main

import (
	"errors"
	"fmt"
)

type MyErr struct{ msg string }

func (e *MyErr) Error() string {
	if e == nil {
		return "nil MyErr"
	}
	return e.msg
}

// DerefErr's method cannot run on a nil pointer: fmt prints such an
// error as <nil>.
type DerefErr struct{ msg string }

func (e *DerefErr) Error() string { return e.msg }

func derefNil() error {
	var p *DerefErr
	return p
}

type ListErr []string

func (l ListErr) Error() string { return fmt.Sprint(len(l), " errors") }

func typedNil() error {
	var p *MyErr
	return p
}

func plainNil() error { return nil }

func ifaceNil() error {
	var e error
	return e
}

func listNil() error {
	var l ListErr
	return l
}

func check(err error) string {
	if err == nil {
		return "nil"
	}
	return "non-nil: " + err.Error()
}

func two() (int, error) {
	var p *MyErr
	return 1, p
}

func main() {
	fmt.Println(check(typedNil()), check(plainNil()), check(ifaceNil()), check(listNil()))
	var p *MyErr
	var err error = p
	fmt.Println(err == nil, check(p))
	err = p
	fmt.Println(err != nil)
	_, e2 := two()
	fmt.Println(e2 == nil)
	var target *MyErr
	fmt.Println(errors.As(typedNil(), &target), target == nil)
	fmt.Println(typedNil())
	errs := []error{nil, p, &MyErr{"x"}}
	for _, e := range errs {
		fmt.Println(e == nil)
	}
	var r fmt.Stringer
	fmt.Println(r == nil)
	d := derefNil()
	fmt.Println(d != nil)
	fmt.Println(d)
	fmt.Printf("[%v] [%s] [%8v]\n", d, d, d)
}
