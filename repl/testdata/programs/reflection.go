// reflect and compiled code given values of a program's own types held
// in an any: reflect sees the value, not the interpreter's wrapper.
package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

type Sq struct{ N int }

func (s Sq) String() string { return fmt.Sprint("sq", s.N) }

type Item struct {
	Name string
	V    any
}

func kind(v any) string { return reflect.TypeOf(v).Kind().String() }

func main() {
	x := Sq{1}
	var a any = x
	var b any = Sq{2}
	p := &Sq{3}
	var c any = p
	fmt.Println(reflect.TypeOf(a).Kind(), reflect.TypeOf(b).Kind(), reflect.TypeOf(c).Kind())
	fmt.Println(kind(Sq{4}), kind(p), kind(3))
	fmt.Println(reflect.ValueOf(b).Field(0).Int())
	items := []any{Sq{3}, Sq{1}, Sq{2}}
	sort.Slice(items, func(i, j int) bool { return items[i].(Sq).N < items[j].(Sq).N })
	fmt.Println(items)
	out, _ := json.Marshal(Item{"i", Sq{5}})
	fmt.Println(string(out))
	var back Item
	json.Unmarshal(out, &back)
	fmt.Println(back.Name, back.V)
	m := map[string]any{}
	m["p"] = p
	fmt.Println(m["p"].(*Sq).N, m)
}
