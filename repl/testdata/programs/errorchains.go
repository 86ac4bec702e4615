// errors.Is, errors.As and errors.Unwrap through errors of a program's
// own types: their Unwrap, Is and As methods, sentinels of its own
// types, errors.Join, type switches on an error, and such errors printed.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

type NotFound struct{ Name string }

func (e *NotFound) Error() string { return "not found: " + e.Name }

type Wrap struct {
	Op  string
	Err error
}

func (w *Wrap) Error() string { return w.Op + ": " + w.Err.Error() }
func (w *Wrap) Unwrap() error { return w.Err }

type Multi struct{ errs []error }

func (m Multi) Error() string   { return fmt.Sprint(len(m.errs), " errors") }
func (m Multi) Unwrap() []error { return m.errs }

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Temp struct{}

func (Temp) Error() string        { return "temporary" }
func (Temp) Is(target error) bool { return target == ErrRetry }

type Legacy struct{ code int }

func (l *Legacy) Error() string { return fmt.Sprint("legacy ", l.code) }
func (l *Legacy) As(target any) bool {
	if c, ok := target.(*Code); ok {
		*c = Code(l.code)
		return true
	}
	return false
}

var ErrRetry = errors.New("retry")

var ErrMine = &NotFound{"sentinel"}

func lookup(name string) error {
	if name == "x" {
		return ErrMine
	}
	return &Wrap{"lookup", &NotFound{name}}
}

func main() {
	err := lookup("a")
	fmt.Println(err)
	var nf *NotFound
	fmt.Println(errors.As(err, &nf), nf.Name)
	fmt.Println(errors.Unwrap(err))
	var w *Wrap
	fmt.Println(errors.As(fmt.Errorf("top: %w", err), &w), w.Op)
	fmt.Println(errors.Is(lookup("x"), ErrMine), errors.Is(fmt.Errorf("a: %w", lookup("x")), ErrMine), errors.Is(err, ErrMine))

	m := Multi{[]error{io.EOF, &NotFound{"m"}}}
	fmt.Println(errors.Is(m, io.EOF), errors.As(m, &nf), nf.Name)
	var c Code
	fmt.Println(errors.As(fmt.Errorf("w: %w", Code(7)), &c), c)
	fmt.Println(errors.Is(Code(3), Code(3)), errors.Is(Code(3), Code(4)))
	fmt.Println(errors.Is(Temp{}, ErrRetry), errors.Is(&Wrap{"t", Temp{}}, ErrRetry))
	fmt.Println(errors.As(&Wrap{"l", &Legacy{42}}, &c), c)

	j := errors.Join(io.EOF, &NotFound{"j"})
	fmt.Println(errors.As(j, &nf), nf.Name, errors.Is(j, io.EOF))
	_, ferr := os.Open("/nonexistent/file")
	var pe *fs.PathError
	fmt.Println(errors.As(&Wrap{"open", ferr}, &pe), pe.Op, errors.Is(&Wrap{"o", ferr}, fs.ErrNotExist))
	fmt.Println(errors.As(io.EOF, &nf), errors.Is(nil, ErrMine), errors.Is(err, nil))

	switch e := err.(type) {
	case *NotFound:
		fmt.Println("not found", e.Name)
	case *Wrap:
		fmt.Println("wrap", e.Op)
	default:
		fmt.Println("other")
	}
	switch e := errors.Unwrap(err).(type) {
	case *NotFound:
		fmt.Println("unwrapped", e.Name)
	}
	switch errors.Unwrap(err).(type) {
	case *Wrap:
		fmt.Println("wrap")
	case *NotFound:
		fmt.Println("not found")
	}
	fmt.Printf("%v|%s|%q\n", err, err, err)
	fmt.Println(&NotFound{"p"}, Code(5), []error{Code(6), ErrMine}, []any{Code(7)})
}
