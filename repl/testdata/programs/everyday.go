// Everyday Go: an iota type with a String method (printed alone, as a
// method's result, in slices and maps, with %d), an interface embedded in
// a struct and its promoted method, variadic functions, closures, sorting,
// arrays, runes, fallthrough, range over an int.
package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

type Dir int

const (
	North Dir = iota
	East
	South
	West
)

func (d Dir) String() string { return [...]string{"N", "E", "S", "W"}[d] }

func (d Dir) Turn() Dir { return (d + 1) % 4 }

type Pos struct{ X, Y int }

type Logger interface{ Log(string) }

type Service struct {
	Logger
	name string
}

type prefixLog struct {
	p   string
	out *[]string
}

func (l prefixLog) Log(s string) { *l.out = append(*l.out, l.p+s) }

type MyErr struct{}

func (*MyErr) Error() string { return "my" }

func mayFail(fail bool) error {
	var e *MyErr
	if fail {
		e = &MyErr{}
	}
	return e
}

func sum(nums ...int) (total int) {
	for _, n := range nums {
		total += n
	}
	return
}

func apply(fs ...func(int) int) int {
	v := 1
	for _, f := range fs {
		v = f(v)
	}
	return v
}

func main() {
	d := North
	fmt.Println(d, d.Turn(), d.Turn().Turn(), []Dir{East, West})
	fmt.Printf("%v %d %s\n", South, South, West)
	ds := []Dir{1, 3}
	fmt.Println(ds, [2]Dir{2, 1}, map[string]Dir{"a": 3, "b": 0})
	fmt.Printf("%v %d %s %q\n", ds, ds, ds, ds)
	m := map[Dir]int{North: 1, South: 2}
	fmt.Println(m[North], len(m))
	visited := map[Pos]bool{{1, 2}: true}
	fmt.Println(visited[Pos{1, 2}], visited[Pos{2, 1}], Pos{1, 2} == Pos{1, 2})

	var lines []string
	s := Service{prefixLog{"> ", &lines}, "svc"}
	s.Log("start")
	s.Logger.Log("again")
	fmt.Println(lines)

	fmt.Println(mayFail(true) == nil)
	fmt.Println(sum(), sum(1, 2, 3), sum([]int{4, 5}...))
	double := func(x int) int { return x * 2 }
	inc := func(x int) int { return x + 1 }
	fmt.Println(apply(double, inc, double))

	words := strings.Fields("the quick brown fox jumps over the lazy dog")
	counts := map[string]int{}
	for _, w := range words {
		counts[w]++
	}
	type kv struct {
		K string
		V int
	}
	var kvs []kv
	for k, v := range counts {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool {
		if kvs[i].V != kvs[j].V {
			return kvs[i].V > kvs[j].V
		}
		return kvs[i].K < kvs[j].K
	})
	fmt.Println(kvs[:3])
	var arr [3]int
	arr2 := arr
	arr2[0] = 9
	fmt.Println(arr, arr2, len(arr))
	for i, r := range "héllo" {
		fmt.Print(i, ":", string(r), " ")
	}
	fmt.Println()
	fmt.Println(time.Duration(1500)*time.Millisecond, 90*time.Second)
	switch x := 2; x {
	case 2:
		fmt.Print("two ")
		fallthrough
	case 3:
		fmt.Println("three")
	}
	grid := make([][]rune, 2)
	for i := range grid {
		grid[i] = []rune(strings.Repeat(".", 3))
	}
	grid[1][2] = '#'
	for _, row := range grid {
		fmt.Println(string(row))
	}
	var sb strings.Builder
	for i := range 3 {
		fmt.Fprintf(&sb, "%d,", i)
	}
	fmt.Println(sb.String())
	type pair struct {
		a, b int
	}
	ps := []pair{{1, 2}, {3, 4}}
	for _, p := range ps {
		p.a = 0
	}
	for i := range ps {
		ps[i].b *= 10
	}
	fmt.Println(ps)
	fmt.Printf("%+v %v\n", Pos{1, 2}, &Pos{3, 4})
}
