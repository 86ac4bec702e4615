// encoding/json of values of a program's types with MarshalJSON or
// UnmarshalJSON methods: held in an interface the program declared, or
// behind a pointer, and a struct with a Stringer field decoded (which
// must not go through fmt's printing), as Go does.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
)

type Thing interface{ Kind() string }

type Temp float64

func (t Temp) Kind() string                 { return "temp" }
func (t Temp) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`"%.1fC"`, float64(t))), nil }

type Box struct{ N int }

func (b *Box) Kind() string { return "box" }
func (b *Box) UnmarshalJSON(d []byte) error {
	b.N = len(d)
	return nil
}

type Plain struct{ A int }

type Level int

func (l Level) String() string { return [...]string{"low", "high"}[l] }

type Rec struct {
	L    Level
	Name string
}

func (p Plain) Kind() string { return "plain" }

func main() {
	var t Thing = Temp(21.5)
	b, err := json.Marshal(t)
	fmt.Println(string(b), err)
	var bx Thing = &Box{}
	err = json.Unmarshal([]byte(`"abcd"`), bx)
	fmt.Println(bx.(*Box).N, err)
	var p Thing = Plain{3}
	b, _ = json.Marshal(p)
	fmt.Println(string(b))
	var pp Thing = &Plain{4}
	_ = json.Unmarshal([]byte(`{"A":9}`), pp)
	fmt.Println(pp.(*Plain).A)
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	log.Println(t, p)
	fmt.Printf("%v %s %.2f\n", t, strings.ToUpper(t.Kind()), t)
	var box Box
	err = json.Unmarshal([]byte(`"abcd"`), &box)
	fmt.Println(box.N, err)
	var r Rec
	err = json.Unmarshal([]byte(`{"L":1,"Name":"x"}`), &r)
	fmt.Println(r, err)
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
}
