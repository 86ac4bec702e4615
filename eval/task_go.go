package eval

import (
	"strings"

	"github.com/grue-lab/grue/agent"
)

// The built-in tasks: small Go programs, each in a workspace that is a Go
// module of its own with no dependencies, checked with the go command.

// goMod is a workspace's go.mod for module path.
func goMod(path string) string {
	return "module " + path + "\n\ngo 1.21\n"
}

// write and shell are a reference solution's tool calls.
func write(path, text string) agent.Action {
	return agent.Action{Thought: "write " + path, Tool: "write_file", Args: map[string]any{"path": path, "content": text}}
}

func shell(command string) agent.Action {
	return agent.Action{Thought: "check: " + command, Tool: "run_shell", Args: map[string]any{"command": command}}
}

func read(path string) agent.Action {
	return agent.Action{Thought: "read " + path, Tool: "read_file", Args: map[string]any{"path": path}}
}

// goTest is how the tasks run their hidden tests: a time limit well
// inside the verifier's, so that a slow solution fails with go test's own
// message.
const goTest = "go test -timeout 30s ./..."

func helloWorldTask() Task {
	const hello = `package main

import "fmt"

func main() {
	fmt.Println("Hello, World!")
}
`
	return Task{
		ID:      "hello_world",
		Summary: "write hello.go, a program that prints Hello, World!",
		Prompt: "Write a Go program, hello.go in the root of the workspace (package main), that prints exactly\n" +
			"Hello, World!\n" +
			"on a line of its own. The workspace is a Go module (go.mod is there). Check it with `go run hello.go`.",
		Files: map[string]string{"go.mod": goMod("example.com/hello")},
		Verify: AllOf(
			FileExists("hello.go"),
			ShellMatches("go run hello.go", `(?m)^Hello, World!$`),
		),
		Reference: []agent.Action{write("hello.go", hello), shell("go run hello.go")},
	}
}

func fibonacciTask() Task {
	const fib = `// Package fib computes Fibonacci numbers.
package fib

// Fib returns the n-th Fibonacci number: Fib(0) = 0, Fib(1) = 1, and
// Fib(n) = Fib(n-1) + Fib(n-2). It returns 0 for a negative n.
func Fib(n int) int {
	if n <= 0 {
		return 0
	}
	a, b := 0, 1
	for i := 1; i < n; i++ {
		a, b = b, a+b
	}
	return b
}
`
	const hidden = `package fib

import "testing"

func TestHiddenFibFirst(t *testing.T) {
	want := []int{0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55}
	for n, w := range want {
		if got := Fib(n); got != w {
			t.Errorf("Fib(%d) = %d, want %d", n, got, w)
		}
	}
}

func TestHiddenFibLarge(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{20, 6765},
		{50, 12586269025},
		{90, 2880067194370816120},
	} {
		if got := Fib(c.n); got != c.want {
			t.Errorf("Fib(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestHiddenFibNegative(t *testing.T) {
	for _, n := range []int{-1, -2, -50} {
		if got := Fib(n); got != 0 {
			t.Errorf("Fib(%d) = %d, want 0", n, got)
		}
	}
}
`
	return Task{
		ID:      "fibonacci",
		Summary: "write package fib with func Fib(n int) int",
		Prompt: "Write a Go package named fib in the root of the workspace (the module example.com/fib; go.mod is there) with the function\n\n" +
			"    func Fib(n int) int\n\n" +
			"that returns the n-th Fibonacci number: Fib(0) = 0, Fib(1) = 1 and Fib(n) = Fib(n-1) + Fib(n-2). " +
			"Fib of a negative n is 0. It must be fast: Fib(90) returns at once. " +
			"Hidden tests will check it; write your own tests too if you like.",
		Files:     map[string]string{"go.mod": goMod("example.com/fib")},
		Hidden:    map[string]string{"fib_hidden_test.go": hidden},
		Verify:    TestsPass(goTest, nil),
		Reference: []agent.Action{write("fib.go", fib), shell("go vet ./...")},
	}
}

// fixTheBugStats is the planted package of fix_the_bug: Mean divides
// integers, so Mean([1 2]) is 1, not 1.5.
const fixTheBugStats = `// Package stats computes simple statistics of integer samples.
package stats

// Sum returns the sum of xs.
func Sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

// Mean returns the arithmetic mean of xs, or 0 when xs is empty.
func Mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	return float64(Sum(xs) / len(xs))
}
`

func fixTheBugTask() Task {
	const visible = `package stats

import "testing"

func TestMean(t *testing.T) {
	if got := Mean([]int{1, 2}); got != 1.5 {
		t.Errorf("Mean([1 2]) = %v, want 1.5", got)
	}
}
`
	// The reference's fix: the planted file with the division done in
	// floating point.
	fixed := strings.Replace(fixTheBugStats, "float64(Sum(xs) / len(xs))", "float64(Sum(xs)) / float64(len(xs))", 1)
	const hidden = `package stats

import (
	"math"
	"testing"
)

func TestHiddenMean(t *testing.T) {
	for _, c := range []struct {
		xs   []int
		want float64
	}{
		{nil, 0},
		{[]int{}, 0},
		{[]int{7}, 7},
		{[]int{1, 2}, 1.5},
		{[]int{1, 2, 3, 4}, 2.5},
		{[]int{-1, -2}, -1.5},
		{[]int{1, 1, 2}, 4.0 / 3},
	} {
		if got := Mean(c.xs); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Mean(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestHiddenSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3, -4}); got != 2 {
		t.Errorf("Sum([1 2 3 -4]) = %d, want 2", got)
	}
	if got := Sum(nil); got != 0 {
		t.Errorf("Sum(nil) = %d, want 0", got)
	}
}
`
	return Task{
		ID:      "fix_the_bug",
		Summary: "find and fix the bug that makes the stats package's test fail",
		Prompt: "The tests of the Go package in this workspace (the module example.com/stats) fail: run `go test ./...` to see. " +
			"Find the bug and fix it, without changing the tests. More tests, which you cannot see, will check your fix.",
		Files: map[string]string{
			"go.mod":        goMod("example.com/stats"),
			"stats.go":      fixTheBugStats,
			"stats_test.go": visible,
		},
		Hidden:    map[string]string{"stats_hidden_test.go": hidden},
		Verify:    TestsPass(goTest, nil),
		Reference: []agent.Action{read("stats.go"), write("stats.go", fixed), shell(goTest)},
	}
}
