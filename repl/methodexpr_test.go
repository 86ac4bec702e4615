package repl

import "testing"

// A method expression of a declared type is the func literal it stands
// for; method values, fields and packages' functions are left alone.
func TestMethodExprs(t *testing.T) {
	declared := func(key string) (methodSig, bool) {
		sig, ok := map[string]methodSig{
			"Cell.Name": {results: "string"},
			"Cell.Set":  {ptrRecv: true, params: []string{"int"}},
			"Cell.Add":  {params: []string{"int", "...int"}, results: "(int, error)"},
		}[key]
		return sig, ok
	}
	for _, tc := range []struct{ in, want string }{
		{"names := apply(Cell.Name, cells)", "names := apply(func(_grue_r Cell) string { return _grue_r.Name() }, cells)"},
		{"f := Cell.Add", "f := func(_grue_r Cell, _grue_a0 int, _grue_a1 ...int) (int, error) { return _grue_r.Add(_grue_a0, _grue_a1...) }"},
		{"f := (*Cell).Set; g := Cell.Set", "f := func(_grue_r *Cell, _grue_a0 int)  { _grue_r.Set(_grue_a0) }; g := Cell.Set"},
		{"c := Cell{}; f := c.Name; s := strings.ToUpper", "c := Cell{}; f := c.Name; s := strings.ToUpper"},
		// Methods the text declares itself.
		{"func (t T) Get() int { return 0 }\nfunc use() { f := T.Get; _ = f }",
			"func (t T) Get() int { return 0 }\nfunc use() { f := func(_grue_r T) int { return _grue_r.Get() }; _ = f }"},
	} {
		if got := methodExprs(tc.in, declared); got != tc.want {
			t.Errorf("methodExprs(%q) =\n%q\nwant\n%q", tc.in, got, tc.want)
		}
	}
}
