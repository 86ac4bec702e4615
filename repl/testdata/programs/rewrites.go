// What the session rewrites for the interpreter: assignments of several
// values with an interface among them, min and max of constants, loop
// variables per iteration.
package main

import "fmt"

type Namer interface{ Name() string }

type Client struct{ n string }

func (c Client) Name() string  { return c.n }
func (c Client) Model() string { return "model-" + c.n }

type Agent struct {
	LLM   Namer
	Model string
}

func configure(a *Agent, c Client) {
	a.LLM, a.Model = c, c.Model()
}

func main() {
	a := &Agent{}
	configure(a, Client{"x"})
	fmt.Println(a.LLM != nil, a.LLM.Name(), a.Model)
	var n Namer
	var s string
	n, s = Client{"y"}, "lit"
	fmt.Println(n.Name(), s)
	x, y := 1, 2
	x, y = y, x
	h := []int{1, 2, 3}
	i := 0
	i, h[i] = 2, 9
	fmt.Println(x, y, i, h)

	fmt.Println(max(1, 2.5), min(2.5, 1.5)+1, min(1, 0x61, 'b'), max("a", "b"))
	m := min(1, 2.5)
	fmt.Printf("%T %v\n", m, m)

	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
}
