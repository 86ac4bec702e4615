// A pool of goroutines running one function with a select on a context
// and a channel (each run of the select has its own cases: they were one
// set, written by every goroutine), a binary tree, an embedded pointer,
// a timeout, sync.Once.
package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

type Job struct {
	ID   int
	Text string
}

type Result struct {
	ID  int
	Len int
}

type Node struct {
	Val         int
	Left, Right *Node
}

func (n *Node) Insert(v int) *Node {
	if n == nil {
		return &Node{Val: v}
	}
	if v < n.Val {
		n.Left = n.Left.Insert(v)
	} else {
		n.Right = n.Right.Insert(v)
	}
	return n
}

func (n *Node) Walk(f func(int)) {
	if n == nil {
		return
	}
	n.Left.Walk(f)
	f(n.Val)
	n.Right.Walk(f)
}

type Animal struct{ Name string }

func (a *Animal) String() string { return "animal:" + a.Name }

type Dog struct {
	*Animal
	Breed string
}

func worker(ctx context.Context, jobs <-chan Job, results chan<- Result, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case j, ok := <-jobs:
			if !ok {
				return
			}
			results <- Result{j.ID, len(j.Text)}
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	jobs := make(chan Job)
	results := make(chan Result, 10)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go worker(ctx, jobs, results, &wg)
	}
	for i, t := range []string{"a", "bb", "ccc", "dddd"} {
		jobs <- Job{i, t}
	}
	close(jobs)
	wg.Wait()
	close(results)
	var rs []Result
	for r := range results {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	fmt.Println(rs)

	var root *Node
	for _, v := range []int{5, 3, 8, 1, 4} {
		root = root.Insert(v)
	}
	var vals []string
	root.Walk(func(v int) { vals = append(vals, fmt.Sprint(v)) })
	fmt.Println(strings.Join(vals, ","))

	a := &Animal{"rex"}
	fmt.Println(a)
	d := Dog{a, "lab"}
	fmt.Println(d.Name, d.Animal)

	tctx, tcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer tcancel()
	select {
	case <-tctx.Done():
		fmt.Println(errors.Is(tctx.Err(), context.DeadlineExceeded))
	case <-time.After(5 * time.Second):
		fmt.Println("late")
	}
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("once") })
	}
	m := map[string][]int{}
	m["a"] = append(m["a"], 1, 2)
	m["b"] = append(m["b"], 3)
	fmt.Println(len(m["a"]), m["b"], m["zz"] == nil)
	copyOf := d
	copyOf.Breed = "pug"
	copyOf.Animal.Name = "max"
	fmt.Println(d.Breed, d.Name)
}
