// encoding/json promotes the fields of an embedded struct a program
// declared (by value or pointer), as Go does, and reads them back.
package main

import (
	"encoding/json"
	"fmt"
	"sync"
)

type Base struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

func (b Base) Describe() string { return fmt.Sprintf("%d:%s", b.ID, b.Name) }

type Item struct {
	Base
	Price float64 `json:"price"`
}

type Ptr struct {
	*Base
	Qty int
}

type Locked struct {
	sync.Mutex
	N int
}

type Wrapper struct {
	Locked
	Tag string
}

type Named struct {
	Base `json:"base"`
	X    int
}

func main() {
	it := Item{Base{1, "lamp"}, 2.5}
	b, _ := json.Marshal(it)
	fmt.Println(string(b))
	var back Item
	_ = json.Unmarshal([]byte(`{"id":7,"name":"rope","price":1}`), &back)
	fmt.Println(back.ID, back.Name, back.Price, back.Describe())
	p := Ptr{&Base{2, "key"}, 3}
	b, _ = json.Marshal(p)
	fmt.Println(string(b), p.Describe())
	l := &Locked{N: 1}
	l.Lock()
	l.N++
	l.Unlock()
	fmt.Println(l.N)
	w := Wrapper{Tag: "t"}
	w.Lock()
	w.N = 5
	w.Unlock()
	b, _ = json.Marshal(Named{Base{3, "n"}, 4})
	fmt.Println(string(b))
	fmt.Printf("%v %+v\n", it, it)
}
