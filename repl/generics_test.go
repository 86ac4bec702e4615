package repl

import "testing"

// cmp.Or of any number of values is written as pairs, which the
// interpreter can infer the type of.
func TestCmpOrPairs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`cmp.Or(a, b, "c")`, `cmp.Or2(a, cmp.Or2(b, "c"))`},
		{`cmp.Or(x)`, `cmp.Or2(x, x)`},
		{`cmp.Or(cmp.Compare(a, b), cmp.Or(c, d))`, `cmp.Or2(cmp.Compare(a, b), cmp.Or2(c, d))`},
		{`cmp.Or(xs...)`, `cmp.Or(xs...)`},
		{`cmp.Compare(a, b)`, `cmp.Compare(a, b)`},
	} {
		if got := cmpOrPairs(tc.in); got != tc.want {
			t.Errorf("cmpOrPairs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
