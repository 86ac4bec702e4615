// Values of a program's own types put into places of an interface type.
package main

import "fmt"

type Model interface{ Name() string }
type Echo struct{ prefix string }

func (e Echo) Name() string { return e.prefix }

type Agent struct {
	N     string
	Model Model
}

func main() {
	for i, f := range []func(){
		func() { a := Agent{}; var m Model = Echo{"1"}; a.Model = m; fmt.Println(a.Model.Name()) },
		func() { a := &Agent{}; a.Model = Echo{"2"}; fmt.Println(a.Model.Name()) },
		func() { a := Agent{N: "x"}; a.Model = Echo{"3"}; fmt.Println(a.Model.Name()) },
		func() { var a Agent; a.Model = Echo{"4"}; fmt.Println(a.Model.Name()) },
		func() { a := Agent{Model: Echo{"5"}}; fmt.Println(a.Model.Name()) },
		func() { var m Model; m = Echo{"6"}; fmt.Println(m.Name()) },
		func() { ms := []Model{nil}; ms[0] = Echo{"7"}; fmt.Println(ms[0].Name()) },
		func() { mm := map[string]Model{}; mm["a"] = Echo{"8"}; fmt.Println(mm["a"].Name()) },
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					fmt.Println(i+1, "panic:", r)
				}
			}()
			f()
		}()
	}
}
