// An agent's configuration: interface fields set by literals, in maps
// and slices, retries through closures, a worker pool, sync.Once.
package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Model interface {
	Complete(prompt string) (string, error)
}

type Echo struct{ prefix string }

func (e Echo) Complete(p string) (string, error) { return e.prefix + p, nil }

type Failing struct{ n *int }

func (f *Failing) Complete(p string) (string, error) {
	*f.n++
	if *f.n < 3 {
		return "", errors.New("busy")
	}
	return "ok:" + p, nil
}

type Agent struct {
	Name   string
	Model  Model
	Memory []string
	hooks  []func(string)
}

func (a *Agent) Step(obs string) (string, error) {
	for _, h := range a.hooks {
		h(obs)
	}
	out, err := a.Model.Complete(obs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", a.Name, err)
	}
	a.Memory = append(a.Memory, out)
	return out, nil
}

func retry(n int, f func() (string, error)) (string, error) {
	var last error
	for i := 0; i < n; i++ {
		s, err := f()
		if err == nil {
			return s, nil
		}
		last = err
	}
	return "", last
}

func main() {
	count := 0
	agents := []*Agent{
		{Name: "echo", Model: Echo{">"}},
		{Name: "flaky", Model: &Failing{&count}},
	}
	var seen []string
	agents[0].hooks = append(agents[0].hooks, func(s string) { seen = append(seen, s) })
	for _, a := range agents {
		out, err := retry(3, func() (string, error) { return a.Step("look") })
		fmt.Println(a.Name, out, err, len(a.Memory))
	}
	fmt.Println(seen, count)
	a := Agent{Name: "x"}
	a.Model = Echo{"#"}
	s, _ := a.Step("n")
	fmt.Println(s)
	m := map[string]Model{"e": Echo{"!"}}
	r, _ := m["e"].Complete("go")
	fmt.Println(r)

	results := make([]string, 5)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results[j] = strings.Repeat("*", j)
			}
		}()
	}
	for j := 0; j < 5; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	fmt.Println(results)
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("once", i) })
	}
	byLen := map[int][]string{}
	for _, w := range strings.Fields("a bb cc d eee") {
		byLen[len(w)] = append(byLen[len(w)], w)
	}
	keys := make([]int, 0)
	for k := range byLen {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		fmt.Print(k, byLen[k], " ")
	}
	fmt.Println()
}
