// Type assertions and type switches on interfaces a program declares, and
// on compiled ones (fmt.Stringer, error), with values of its own types.
package main

import (
	"errors"
	"fmt"
)

type Shape interface{ Area() float64 }
type Named interface{ Name() string }

type Sq struct{ s float64 }

func (q Sq) Area() float64 { return q.s * q.s }

type Dog struct{}

func (Dog) Name() string { return "dog" }

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1fC", float64(t)) }

type NotFound struct{ what string }

func (e *NotFound) Error() string { return e.what + " not found" }

func kind(v any) string {
	switch x := v.(type) {
	case fmt.Stringer:
		return "stringer " + x.String()
	case error:
		return "error " + x.Error()
	case Named:
		return "named " + x.Name()
	case Shape:
		return fmt.Sprint("shape ", x.Area())
	case int, string:
		return fmt.Sprint("basic ", x)
	case nil:
		return "nil"
	}
	return "other"
}

func silent(v any) string {
	switch v.(type) {
	case Named:
		return "named"
	case Shape:
		return "shape"
	default:
		return "default"
	}
}

func area(v any) (float64, bool) {
	s, ok := v.(Shape)
	if !ok {
		return 0, false
	}
	return s.Area(), true
}

func main() {
	for _, v := range []any{Sq{2}, Dog{}, Temp(3), &NotFound{"lamp"}, 4, "s", nil, 2.5} {
		fmt.Println(kind(v), "|", silent(v))
	}
	fmt.Println(area(Sq{3}))
	fmt.Println(area(Dog{}))
	var n Named = Dog{}
	if d, ok := any(n).(Dog); ok {
		fmt.Println("dog", d.Name())
	}
	var err error = &NotFound{"key"}
	nf, ok := err.(*NotFound)
	fmt.Println(ok, nf.what, errors.Unwrap(err) == nil)
	sq := Sq{1}
	var a any = sq
	s := a.(Shape)
	fmt.Println(s.Area())
}
