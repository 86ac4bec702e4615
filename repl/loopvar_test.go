package repl

import (
	"context"
	"testing"
)

// Loops mean what they mean in Go 1.22 and later: each iteration's
// closures and pointers see that iteration's variables. (Goroutines made
// in a loop see theirs too, but goroutines started from a func literal in
// a loop race inside yaegi v0.16.1, rewritten or not, so -race cannot
// test them here; a
// deferred closure is made only when it runs, the gap docs/repl.md
// gives for deferred calls.)
func TestLoopVariablesPerIteration(t *testing.T) {
	s, _ := newSession(t)
	for _, tc := range []struct{ src, want string }{
		{"fs := []func() string{}\nfor _, s := range []string{\"a\", \"b\"} { fs = append(fs, func() string { return s }) }\nfs[0]() + fs[1]()", "ab\n"},
		{"ns := []func() int{}\nfor i := 0; i < 3; i++ {\n\tns = append(ns, func() int { return i })\n}\nns[0]()*100 + ns[1]()*10 + ns[2]()", "12\n"},
		{"func mk() []func() int {\n\tvar out []func() int\n\tfor i := 0; i < 2; i++ { out = append(out, func() int { return i }) }\n\treturn out\n}\nmk()[0]() + mk()[1]()*10", "10\n"},
		{"ps := []*int{}\nfor _, v := range []int{1, 2} { ps = append(ps, &v) }\n*ps[0] + *ps[1]*10", "21\n"},
		{"kv := map[string]int{\"x\": 1}\nvar get func() string\nfor k, v := range kv { get = func() string { return fmt.Sprint(k, v) } }\nget()", "x1\n"},
		// A body that changes the variable changes the next iteration.
		{"out := []int{}\nfor i := 0; i < 5; i++ {\n\tif i == 1 { i += 2 }\n\tout = append(out, i)\n}\nout", "[0 3 4]\n"},
		// ...with closures and pointers too, each seeing its iteration's.
		{"cs := []func() int{}\nfor i := 0; i < 6; i++ {\n\tif i == 1 { i += 2; continue }\n\tcs = append(cs, func() int { return i })\n}\ncs[0]()*100 + cs[1]()*10 + cs[2]()", "45\n"},
		{"func ptrs() []*int {\n\tps := []*int{}\n\tfor i := 0; i < 3; i++ { ps = append(ps, &i) }\n\treturn ps\n}\npp := ptrs()\n*pp[0]*100 + *pp[1]*10 + *pp[2]", "12\n"},
	} {
		res, err := s.Eval(context.Background(), tc.src)
		if err != nil || res.Output != tc.want {
			t.Errorf("Eval(%q) printed %q, %v; want %q", tc.src, res.Output, err, tc.want)
		}
	}
}

func TestPerIteration(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"for _, g := range gs { go func() { play(g) }() }", "for _, g := range gs { g := g; go func() { play(g) }() }"},
		{"for k, v := range m { f(&v) }", "for k, v := range m { k, v := k, v; f(&v) }"},
		{"for i := 0; i < n; i++ { defer func() { use(i) }() }", "for i := 0; i < n; i++ { i := i; defer func() { use(i) }() }"},
		// Nothing to copy: no closure, no address; the variable assigned;
		// no loop variable declared.
		{"for _, g := range gs { play(g) }", "for _, g := range gs { play(g) }"},
		// A three-clause loop whose body changes its variable (or may, by
		// its address) writes the copy back at the end and before each
		// continue of its own; a labeled continue or a goto leaves the
		// loop as it is.
		{"for i := 0; i < n; i++ { fs = append(fs, func() {}); i++ }", "for i := 0; i < n; i++ { _grue_i := &i; i := i; fs = append(fs, func() {}); i++ ; *_grue_i = i }"},
		{"for i := 0; i < n; i++ { if i == 1 { i++; continue }; for range m { continue }; f(&i) }",
			"for i := 0; i < n; i++ { _grue_i := &i; i := i; if i == 1 { i++; { *_grue_i = i; continue } }; for range m { continue }; f(&i) ; *_grue_i = i }"},
		{"L: for i := 0; i < n; i++ { for { continue L }; f(&i) }", "L: for i := 0; i < n; i++ { for { continue L }; f(&i) }"},
		{"for i = 0; i < n; i++ { go func() {}() }", "for i = 0; i < n; i++ { go func() {}() }"},
		{"for range gs { go func() {}() }", "for range gs { go func() {}() }"},
		// The copy written before Go 1.22 is kept, and not made twice.
		{"for _, g := range gs { g := g; go func() { play(g) }() }", "for _, g := range gs { g := g; go func() { play(g) }() }"},
		{"for k, v := range m { var k = k; f(&k, &v) }", "for k, v := range m { v := v; var k = k; f(&k, &v) }"},
		// Nested loops each get their own, on the lines they were on.
		{"for _, a := range as {\n\tfor _, b := range bs { go func() { f(a, b) }() }\n}", "for _, a := range as { a := a;\n\tfor _, b := range bs { b := b; go func() { f(a, b) }() }\n}"},
	} {
		if got := perIteration(tc.in); got != tc.want {
			t.Errorf("perIteration(%q) =\n%q\nwant\n%q", tc.in, got, tc.want)
		}
	}
}
