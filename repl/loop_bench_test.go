package repl

import (
	"context"
	"testing"
)

// The hot paths a cell meets (issue 37's figure): a 1e6-iteration loop
// at a cell's top level and in a function a cell declared, calls of a
// cell's function, and method calls, each a whole cell run by the
// session. docs/repl.md's "Figures" has the results.
func BenchmarkCellLoop(b *testing.B) {
	for _, c := range []struct{ name, decl, cell string }{
		{"toplevel", "", "s := 0; for i := 0; i < 1000000; i++ { s += i }; s"},
		{"func", "func sum(n int) int { s := 0; for i := 0; i < n; i++ { s += i }; return s }", "sum(1000000)"},
		{"range", "func sumr(n int) int { s := 0; for i := range n { s += i }; return s }", "sumr(1000000)"},
		{"calls", "func add(a, b int) int { return a + b }\nfunc calls(n int) int { s := 0; for i := 0; i < n; i++ { s = add(s, i) }; return s }", "calls(1000000)"},
		{"methods", "type Acc struct{ n int }\nfunc (a *Acc) Add(i int) { a.n += i }\nfunc methods(n int) int { a := &Acc{}; for i := 0; i < n; i++ { a.Add(i) }; return a.n }", "methods(1000000)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, _ := newSession(b)
			ctx := context.Background()
			if c.decl != "" {
				if _, err := s.Eval(ctx, c.decl); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				res, err := s.Eval(ctx, c.cell)
				if err != nil {
					b.Fatal(err)
				}
				if res.Output != "499999500000\n" && c.name != "toplevel" {
					b.Fatalf("the cell printed %q", res.Output)
				}
			}
		})
	}
}
