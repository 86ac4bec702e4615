// Everyday library code: JSON with tags, a map type with methods, funcs in
// maps, bufio, regexp, math, errors.Join, Sscanf, typed nils, value
// semantics of ranges and maps, runes, select, fmt verbs.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

type Step struct {
	N       int               `json:"n"`
	Command string            `json:"command"`
	Score   *int              `json:"score,omitempty"`
	Tags    []string          `json:"tags"`
	Extra   map[string]string `json:"extra,omitempty"`
}

type Result struct {
	Game  string `json:"game"`
	Steps []Step `json:"steps"`
}

type Counter map[string]int

func (c Counter) Add(k string) { c[k]++ }

func (c Counter) Top() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if c[keys[i]] != c[keys[j]] {
			return c[keys[i]] > c[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

type Op func(float64, float64) float64

var ops = map[string]Op{
	"+": func(a, b float64) float64 { return a + b },
	"*": func(a, b float64) float64 { return a * b },
}

type T struct{ v int }

func (t T) Get() int   { return t.v }
func (t *T) Set(v int) { t.v = v }
func typedNil() error  { var p *os.PathError; return p }

func main() {
	five := 5
	r := Result{Game: "zork", Steps: []Step{{N: 1, Command: "n", Score: &five, Tags: []string{"move"}}, {N: 2, Command: "take lamp"}}}
	b, err := json.MarshalIndent(r, "", " ")
	fmt.Println(string(b), err)
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		fmt.Println(err)
	}
	fmt.Println(back.Steps[0].Command, *back.Steps[0].Score, back.Steps[1].Score == nil, len(back.Steps[1].Tags))
	var anyv map[string]any
	json.Unmarshal([]byte(`{"a": [1, "x", true, null], "b": {"c": 2.5}}`), &anyv)
	fmt.Println(anyv["a"], anyv["b"].(map[string]any)["c"])

	c := Counter{}
	for _, w := range strings.Fields("go north go south go north look") {
		c.Add(w)
	}
	fmt.Println(c.Top(), c["go"])

	fmt.Println(ops["+"](2, 3), ops["*"](2, 3))
	sc := bufio.NewScanner(strings.NewReader("line one\nline two\n\nlast"))
	n := 0
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			n++
		}
	}
	fmt.Println(n)
	re := regexp.MustCompile(`Score: (\d+)\s+Moves: (\d+)`)
	m := re.FindStringSubmatch("West of House   Score: 25   Moves: 7")
	s1, _ := strconv.Atoi(m[1])
	fmt.Println(s1, m[2])
	fmt.Println(math.Sqrt(2), math.Floor(-2.5), math.MaxInt64, math.Inf(1), math.NaN() == math.NaN())
	e1 := errors.New("a")
	e2 := errors.New("b")
	j := errors.Join(e1, e2)
	fmt.Println(errors.Is(j, e2), strings.ReplaceAll(j.Error(), "\n", "|"))
	var x, y int
	k, _ := fmt.Sscanf("10 20", "%d %d", &x, &y)
	fmt.Println(k, x+y)
	t := T{1}
	t.Set(4)
	fmt.Println(t.Get())
	err = typedNil()
	fmt.Println(err == nil, err != nil)
	arr := []T{{1}, {2}}
	arr[0].v = 10
	for _, a := range arr {
		a.v = 99
	}
	fmt.Println(arr)
	mm := map[int]bool{1: true, 2: true, 3: true}
	for key := range mm {
		if key%2 == 1 {
			delete(mm, key)
		}
	}
	fmt.Println(len(mm), mm[2])
	word := "Héllo, Wörld"
	up := 0
	for _, ch := range word {
		if unicode.IsUpper(ch) {
			up++
		}
	}
	fmt.Println(len(word), len([]rune(word)), up, strconv.Quote(word), word[1:3] == "é")
	switch {
	case five > 3 && five < 10:
		fmt.Println("mid")
	default:
		fmt.Println("other")
	}
	ch := make(chan int)
	select {
	case v := <-ch:
		fmt.Println(v)
	default:
		fmt.Println("empty")
	}
	var i8 int8 = 127
	i8++
	fmt.Println(i8, uint32(1<<32-1), 7/2.0, float32(0.1), 1e3)
	rep := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	fmt.Println(rep.Replace("<b>"))
	fmt.Printf("%v %d %s %6.2f %t %c %U\n", []string{"a"}, []int{1, 2}, []byte("hi"), math.Pi, true, 'G', 'G')
}
