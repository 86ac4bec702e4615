// Deferred func literals and func variables: a closure deferred in a
// loop sees its iteration's variables, a func variable deferred runs (it
// deadlocked the interpreter), and recover works in both, re-panicking
// included.
package main

import (
	"errors"
	"fmt"
)

func safe(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

func cleanupOrder() (log []string) {
	add := func(s string) func() { return func() { log = append(log, s) } }
	defer add("first")()
	cleanup := func() { log = append(log, "cleanup") }
	defer cleanup()
	for i := 0; i < 3; i++ {
		defer func() { log = append(log, fmt.Sprint("loop", i)) }()
	}
	return log
}

func rethrow() (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint("outer:", r)
		}
	}()
	func() {
		defer func() {
			r := recover()
			panic(fmt.Sprint("again:", r))
		}()
		panic("inner")
	}()
	return "none"
}

var ErrX = errors.New("x")

func namedResult() (n int, err error) {
	defer func() {
		if err != nil {
			n = -1
		}
	}()
	return 5, ErrX
}

func recoverVar() (out string) {
	handler := func() {
		if r := recover(); r != nil {
			out = fmt.Sprint("handled ", r)
		}
	}
	defer handler()
	panic("boom")
}

func main() {
	fmt.Println(safe(func() { panic("oops") }), safe(func() {}))
	fmt.Println(safe(func() { var m map[string]int; m["a"] = 1 }))
	fmt.Println(cleanupOrder())
	fmt.Println(rethrow())
	fmt.Println(namedResult())
	fmt.Println(recoverVar())
}
