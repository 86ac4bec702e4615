// Values of a program's own types with methods put into an interface
// straight from a literal, a conversion, a return or a pointer: they keep
// their methods, so fmt prints them with String and Error.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Sq struct{ n int }

func (s Sq) String() string { return fmt.Sprintf("Sq(%d)", s.n) }

type Fault struct{ msg string }

func (f *Fault) Error() string { return "fault: " + f.msg }

type Shape interface{ Area() int }

type Celsius float64

func (c Celsius) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%.1fC"`, float64(c))), nil
}

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte(fmt.Sprint("level-", int(l))), nil }

func (s Sq) Area() int { return s.n * s.n }

func mk() Sq { return Sq{9} }

func retAny() any { return Sq{10} }

func retErr() error { return &Fault{"ret"} }

func describe(v any) string {
	if s, ok := v.(fmt.Stringer); ok {
		return "stringer " + s.String()
	}
	return fmt.Sprint("plain ", v)
}

func main() {
	x := Sq{1}
	var a1 any = x
	var a2 any = Sq{2}
	a3 := any(Sq{3})
	var a4 any
	a4 = Sq{4}
	var a5 any = mk()
	a6 := retAny()
	p := &Sq{12}
	var a8 any = p
	fmt.Println(a1, a2, a3, a4, a5, a6, a8)
	fmt.Println([]any{Sq{5}, 6}, map[string]any{"k": Sq{7}})
	fmt.Printf("%v %s %q\n", a2, a3, a4)

	e := error(&Fault{"conv"})
	var e2 error = &Fault{"var"}
	fmt.Println(e, e2, retErr(), e.Error())
	st := fmt.Stringer(Sq{8})
	fmt.Println(st.String(), describe(Sq{11}), describe(a2), describe(3))
	var sh Shape = Sq{3}
	fmt.Println(sh.Area(), Shape(Sq{4}).Area())
	fmt.Println(strings.Repeat("-", 3), fmt.Sprint(any(Sq{13})))
	b, err := json.Marshal(map[string]any{"t": Celsius(21.5), "l": Level(2), "n": 3})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]any{Celsius(1), any(Level(4))})
	fmt.Println(string(b), err)
}
