// Generics, sort.Interface, closures, goroutines, channels, select,
// context, defer, maps of structs, fmt verbs.
package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type Person struct {
	Name string
	Age  int
}

type byAge []Person

func (a byAge) Len() int           { return len(a) }
func (a byAge) Less(i, j int) bool { return a[i].Age < a[j].Age }
func (a byAge) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }

type Number interface{ ~int | ~float64 }

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(x T) { s.items = append(s.items, x) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x, true
}

type Animal interface{ Sound() string }
type Named interface {
	Animal
	Name() string
}
type Dog struct{ name string }

func (d *Dog) Sound() string { return "woof" }
func (d *Dog) Name() string  { return d.name }

func counter() func() int {
	c := 0
	return func() int { c++; return c }
}

func main() {
	people := []Person{{"a", 30}, {"b", 20}, {"c", 25}}
	sort.Sort(byAge(people))
	fmt.Println(people)
	sort.Slice(people, func(i, j int) bool { return people[i].Name > people[j].Name })
	fmt.Println(people)
	fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2.5}))
	fmt.Println(Map[int, string]([]int{1, 2}, func(i int) string { return strconv.Itoa(i * 2) }))
	st := &Stack[string]{}
	st.Push("x")
	st.Push("y")
	v, ok := st.Pop()
	fmt.Println(v, ok, len(st.items))
	var n Named = &Dog{"rex"}
	fmt.Println(n.Name(), n.Sound())
	var a Animal = n
	if nn, ok := a.(Named); ok {
		fmt.Println("named", nn.Name())
	}
	c := counter()
	c()
	c()
	fmt.Println(c())
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i := 1; i <= 10; i++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			mu.Lock()
			total += k
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	fmt.Println(total)
	ch := make(chan int, 3)
	go func() {
		for i := 0; i < 3; i++ {
			ch <- i * i
		}
		close(ch)
	}()
	for x := range ch {
		fmt.Print(x, " ")
	}
	fmt.Println()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
		fmt.Println("timeout", ctx.Err())
	case <-time.After(time.Second):
		fmt.Println("late")
	}
	defer fmt.Println("deferred") // not in a loop: there every deferred call sees the last iteration's values (docs/repl.md)
	m := map[string]*Person{"x": {"x", 1}}
	m["x"].Age++
	fmt.Println(m["x"].Age, *m["x"])
	ms := map[string]Person{"y": {"y", 2}}
	p := ms["y"]
	p.Age = 5
	fmt.Println(ms["y"].Age, p.Age)
	fmt.Println(strings.Repeat("ab", 3), strings.Fields(" a  b "), time.Duration(1500)*time.Millisecond)
	x, err := strconv.Atoi("12x")
	fmt.Println(x, err)
	fmt.Printf("%5.2f|%-4d|%q|%x|%08b\n", 3.14159, 7, "hi", 255, 5)
	var ip *int
	fmt.Println(ip == nil, fmt.Sprint(ip))
	type local struct{ A int }
	fmt.Printf("%v %+v\n", local{1}, &local{2})
}
