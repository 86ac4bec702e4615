package repl

import "testing"

// Calls of min and max over constants become the constant chosen, of the
// result's kind; others are left to the session's generic functions.
func TestConstMinMax(t *testing.T) {
	none := func(string) bool { return false }
	for _, tc := range []struct{ in, want string }{
		{"max(1, 2.5)", "(2.5)"},
		{"x := min(2.5, 1.5) + 1", "x := (1.5) + 1"},
		{"min(1, 2.5)", "(1 + 0.0)"},
		{"min(1, 'a')", "(1 + '\\x00')"},
		{"max('a', 1.5)", "('a' + 0.0)"},
		{"max(-min(1, 2), 0.5)", "(0.5)"},
		{"max(min(1, 2), -0.5)", "(1 + 0.0)"},
		{"min(-3, (-2.5))", "(-3 + 0.0)"},
		{`max("a", "b")`, `("b")`},
		{"f(min(1, 2), max(3, 4))", "f((1), (4))"},
		// Left alone: a variable or a named constant, imaginary or mixed
		// arguments, a min declared in the unit, a spread slice.
		{"min(x, 1)", "min(x, 1)"},
		// A constant first goes after the others, which keep their order.
		{"min(2.5, x)", "min(x, 2.5)"},
		{"max(1, f(), 2, g())", "max(f(), g(), 1, 2)"},
		{"max(1, min(2, y))", "max(min(y, 2), 1)"},
		{"min(1i, 2)", "min(1i, 2)"},
		{`min("a", 1)`, `min("a", 1)`},
		{"func min(a, b int) int { return a }; min(1, 2)", "func min(a, b int) int { return a }; min(1, 2)"},
		{"min(xs...)", "min(xs...)"},
	} {
		if got := constMinMax(tc.in, none); got != tc.want {
			t.Errorf("constMinMax(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := constMinMax("min(1, 2)", func(name string) bool { return name == "min" }); got != "min(1, 2)" {
		t.Errorf("a cell's own min was replaced: %q", got)
	}
}
