package repl

import "testing"

// Which tuple assignments are made one value at a time, and how: only
// those whose left-hand sides, evaluated again, are the same variables,
// on one line, where a statement list can take a block.
func TestTupleAssigns(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a.LLM, a.Model = c, c.Model()", "{ _grue_t0 := a.LLM; _grue_t1 := a.Model; _grue_t0 = c; _grue_t1 = c.Model(); a.LLM = _grue_t0; a.Model = _grue_t1 }"},
		{"x, _ = f(), g()", "{ _grue_t0 := x; _grue_t0 = f(); _ = g(); x = _grue_t0 }"},
		{"func sw(p *int, h []int, i int) { *p, h[i] = h[i], *p }", "func sw(p *int, h []int, i int) { { _grue_t0 := *p; _grue_t1 := h[i]; _grue_t0 = h[i]; _grue_t1 = *p; *p = _grue_t0; h[i] = _grue_t1 } }"},
		{"if ok { a, b = b, a }", "if ok { { _grue_t0 := a; _grue_t1 := b; _grue_t0 = b; _grue_t1 = a; a = _grue_t0; b = _grue_t1 } }"},
		// Left alone: a define, one value, a call's results, an index
		// that a call gives or that the assignment changes, a statement
		// over several lines, a for loop's post statement.
		{"a, b := 1, 2", "a, b := 1, 2"},
		{"a = 1", "a = 1"},
		// One composite literal into a field, an element or *p goes the
		// same way; into a variable, or another value, as it is.
		{"a.Model = Echo{\"#\"}", "{ _grue_t0 := a.Model; _grue_t0 = Echo{\"#\"}; a.Model = _grue_t0 }"},
		{"ms[k] = &Echo{}", "{ _grue_t0 := ms[k]; _grue_t0 = &Echo{}; ms[k] = _grue_t0 }"},
		{"m = Echo{}", "m = Echo{}"},
		{"a.Model = e", "a.Model = e"},
		{"h[f()] = Echo{}", "h[f()] = Echo{}"},
		{"a, err = f()", "a, err = f()"},
		{"h[next()], x = 1, 2", "h[next()], x = 1, 2"},
		{"i, h[i] = 1, 2", "i, h[i] = 1, 2"},
		{"a, b = 1,\n\t2", "a, b = 1,\n\t2"},
		{"for i, j := 0, n; i < j; i, j = i+1, j-1 {}", "for i, j := 0, n; i < j; i, j = i+1, j-1 {}"},
	} {
		if got := tupleAssigns(tc.in); got != tc.want {
			t.Errorf("tupleAssigns(%q) =\n%q\nwant\n%q", tc.in, got, tc.want)
		}
	}
}
