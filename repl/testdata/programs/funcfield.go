// A struct field of a func type whose parameter is an interface of the
// program's own, called with a value of a type that implements it
// (upstream yaegi's _test/method36.go).
package main

import "fmt"

type Greeter interface{ Hello() string }

type Player struct{ Name string }

func (p *Player) Hello() string { return "hello, " + p.Name }

type Handler func(g Greeter)

type Room struct {
	OnEnter Handler
	Name    string
}

func main() {
	r := &Room{Name: "cellar"}
	r.OnEnter = func(g Greeter) { fmt.Println(r.Name+":", g.Hello()) }
	r.OnEnter(&Player{"ada"})
	rooms := []Room{{Name: "attic", OnEnter: func(g Greeter) { fmt.Println("attic:", g.Hello()) }}}
	rooms[0].OnEnter(&Player{"bob"})
}
