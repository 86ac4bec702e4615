// A method value evaluates and saves its receiver where it is made: a
// value receiver is copied then, a pointer receiver is the pointer then.
package main

import "fmt"

type V struct{ N int }

func (v V) Get() int   { return v.N }
func (v *V) PGet() int { return v.N }

type Wrap struct{ V }

// Bump changes its copy of the receiver only.
func (v V) Bump() int { v.N++; return v.N }

// Inc changes the receiver.
func (v *V) Inc() { v.N++ }

func main() {
	v := V{1}
	h := v.Get
	p := v.PGet
	v.N = 2
	fmt.Println(h(), p(), v.Get())

	vs := []V{{1}, {2}}
	var fs []func() int
	for _, x := range vs {
		fs = append(fs, x.Get)
	}
	vs[0].N = 9
	g := vs[0].Get
	vs[0].N = 10
	fmt.Println(fs[0](), fs[1](), g())

	pv := &V{5}
	k := pv.Get
	kp := pv.PGet
	pv.N = 6
	fmt.Println(k(), kp())

	w := Wrap{V{7}}
	wg := w.Get
	w.N = 8
	fmt.Println(wg(), w.Get())

	var calls []func() int
	for i := range 3 {
		c := V{i * 10}
		calls = append(calls, c.Get)
		c.N = -1
	}
	for _, c := range calls {
		fmt.Print(c(), " ")
	}
	fmt.Println()

	// Calls: a value receiver is a copy, a pointer receiver the value
	// itself, promoted through an embedded field too.
	b := V{1}
	fmt.Println(b.Bump(), b.Bump(), b.N)
	b.Inc()
	b.Inc()
	fmt.Println(b.N)
	ww := &Wrap{V{3}}
	ww.Inc()
	fmt.Println(ww.Get(), ww.Bump(), ww.N)
	m := map[string]V{"k": {8}}
	fmt.Println(m["k"].Get(), m["k"].Bump(), m["k"].N)
	arr := []V{{1}, {2}}
	arr[1].Inc()
	fmt.Println(arr[1].Get(), arr[0].Bump())
}
