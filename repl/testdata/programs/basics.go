// Ordinary Go: interfaces, embedding, methods, errors, recover, iota,
// arrays, slices, maps, strings, type switches, labels, fallthrough.
package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

type Shape interface {
	Area() float64
	Name() string
}

type Rect struct {
	W float64 `json:"w"`
	H float64
}

func (r Rect) Area() float64 { return r.W * r.H }
func (r Rect) Name() string  { return "rect" }

type Square struct {
	Rect
	Label string `json:"label,omitempty"`
}

func (s Square) Name() string { return "square " + s.Label }

type MyErr struct{ Code int }

func (e *MyErr) Error() string { return fmt.Sprintf("code %d", e.Code) }

func find(code int) error {
	if code > 0 {
		return &MyErr{code}
	}
	return nil
}

const (
	A = iota * 10
	B
	C
)

func divide(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	q = a / b
	return
}

func main() {
	shapes := []Shape{Rect{2, 3}, Square{Rect{2, 2}, "s"}}
	for _, s := range shapes {
		fmt.Println(s.Name(), s.Area())
	}
	sq := Square{Rect{1, 1}, "x"}
	fmt.Printf("%v %+v\n", sq, sq)
	b, _ := json.Marshal(sq.Rect)
	fmt.Println(string(b))
	var r Rect
	json.Unmarshal([]byte(`{"w": 5}`), &r)
	fmt.Println(r.W, r.H)
	fmt.Println(find(0) == nil)
	var plain error = &MyErr{5}
	me2, ok2 := plain.(*MyErr)
	fmt.Println(ok2, me2.Code)
	fmt.Println(A, B, C)
	fmt.Println(divide(7, 2))
	fmt.Println(divide(7, 0))
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(strings.Join(keys, ","))
	arr := [3]int{1, 2, 3}
	arr2 := arr
	arr2[0] = 9
	fmt.Println(arr, arr2, arr == [3]int{1, 2, 3})
	s := []int{1, 2, 3, 4}
	t := s[1:3]
	t = append(t, 99)
	fmt.Println(s, t, len(t), cap(t))
	var sb strings.Builder
	for i, c := range "héllo" {
		fmt.Fprintf(&sb, "%d:%c ", i, c)
	}
	fmt.Println(sb.String())
	switch x := shapes[1].(type) {
	case Rect:
		fmt.Println("rect", x.W)
	case Square:
		fmt.Println("square", x.Label, x.W)
	}
	var u8 uint8 = 250
	u8 += 10
	fmt.Println(u8, -7/2, -7%2, 1<<10, 0x0f&^0x05)
	p := struct{ X, Y int }{1, 2}
	q := struct{ X, Y int }{1, 2}
	fmt.Println(p == q)
	f := sq.Name
	fmt.Println(f())
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()
	switch 2 {
	case 2:
		fmt.Print("two ")
		fallthrough
	case 3:
		fmt.Println("three")
	}
}
