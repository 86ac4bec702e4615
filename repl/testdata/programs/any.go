// Values of a program's own types with methods, kept in an any (a
// variable, a field, []any, map[string]any): printed and encoded as the
// values they are.
package main

import (
	"encoding/json"
	"fmt"
)

type Echo struct{ P string }

func (e Echo) Name() string { return e.P }

type Box struct{ V any }

func main() {
	e := Echo{"v"}
	b := &Box{}
	b.V = e
	fmt.Println(b.V)
	var x any = e
	fmt.Println(x)
	d := Box{V: e}
	fmt.Println(d.V, d)
	xs := []any{e, 1, "s"}
	fmt.Println(xs)
	fmt.Printf("%v %+v %q\n", xs[0], xs[0], xs[2])
	m := map[string]any{"e": e, "n": 1}
	fmt.Println(m["e"], m)
	out, err := json.Marshal(m)
	fmt.Println(string(out), err)
	out, _ = json.Marshal([]any{e, nil})
	fmt.Println(string(out))
	out, _ = json.Marshal(x)
	fmt.Println(string(out))
	out, _ = json.Marshal(d)
	fmt.Println(string(out))
}
