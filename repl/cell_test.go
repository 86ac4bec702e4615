package repl

import (
	"go/token"
	"testing"
)

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"x := 1", true},
		{"g.Step(\"look\")", true},
		{"", true},
		{"// just a comment", true},
		{"func f() int {", false},
		{"func f() int {\n\treturn 1\n}", true},
		{"fmt.Println(1,", false},
		{"fmt.Println(1,\n2)", true},
		{"xs := []int{", false},
		{"m[", false},
		{"x := 1 +", false},
		{"x := 1 +\n2", true},
		{"ok := a &&", false},
		{"s := `raw", false},
		{"s := `raw\nstring`", true},
		{"/* open comment", false},
		{"x := g.", false}, // a selector goes on on the next line
		{"x :=", false},
		{"if x {", false},
		{"if x {\n} else {", false},
		{"if x {\n} else {\n}", true},
		{"return", true},
		{"i++", true},
		{"var (", false},
		{"import (\n\t\"fmt\"\n)", true},
		{`s := "unterminated`, true}, // Go forbids the newline: the error shows at once
		{"x := 1;", true},
		{"f(a)) // too many", true}, // an error, shown at once
	} {
		if got := Complete(tc.src); got != tc.want {
			t.Errorf("Complete(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestScanUnits(t *testing.T) {
	for _, tc := range []struct {
		src   string
		texts []string
		lines []int
	}{
		{"x := 1\ny := 2\nx + y", []string{"x := 1", "y := 2", "x + y"}, []int{1, 2, 3}},
		{"func f() int {\n\treturn 1\n}\nf() // call it", []string{"func f() int {\n\treturn 1\n}", "f()"}, []int{1, 4}},
		{"a := 1; b := 2", []string{"a := 1", "b := 2"}, []int{1, 1}},
		{"for i := 0; i < 3; i++ {\n}", []string{"for i := 0; i < 3; i++ {\n}"}, []int{1}},
		{"if v := f(); v > 0 { g() }; h()", []string{"if v := f(); v > 0 { g() }", "h()"}, []int{1, 1}},
		{"\n\n  x\n", []string{"x"}, []int{3}},
		{"f(1,\n2)", []string{"f(1,\n2)"}, []int{1}},
	} {
		r := scan(tc.src)
		if len(r.units) != len(tc.texts) {
			t.Errorf("scan(%q): %d units %+v, want %q", tc.src, len(r.units), r.units, tc.texts)
			continue
		}
		for i, u := range r.units {
			if u.text != tc.texts[i] || u.line != tc.lines[i] {
				t.Errorf("scan(%q) unit %d = %q at line %d, want %q at line %d", tc.src, i, u.text, u.line, tc.texts[i], tc.lines[i])
			}
		}
	}
	r := scan("func (r T) M() {}")
	if r.units[0].first != token.FUNC || r.units[0].next != token.LPAREN {
		t.Errorf("scan of a method: first %v next %v, want func (", r.units[0].first, r.units[0].next)
	}
}
