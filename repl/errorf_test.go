package repl

import (
	"slices"
	"testing"
)

// Which operands of a format are wrapped: those of %w, counting the
// operands that * widths take, none when operands are numbered.
func TestWrapVerbs(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   []int
	}{
		{"open %s: %w", []int{1}},
		{"%w", []int{0}},
		{"100%% %d %w and %+w", []int{1, 2}},
		{"%*d %.*f %w", []int{4}},
		{"%[1]w", nil},
		{"no verbs", nil},
		{"trailing %", nil},
	} {
		if got := wrapVerbs(tc.format); !slices.Equal(got, tc.want) {
			t.Errorf("wrapVerbs(%q) = %v, want %v", tc.format, got, tc.want)
		}
	}
	in := `err := fmt.Errorf("find %q: %w", name, &NotFound{name})`
	want := `err := fmt.Errorf("find %q: %w", name, func(e error) error { return e }(&NotFound{name}))`
	if got := errorfOperands(in); got != want {
		t.Errorf("errorfOperands(%q) =\n%q\nwant\n%q", in, got, want)
	}
	if again := errorfOperands(want); again != want {
		t.Errorf("errorfOperands of its own output changed it: %q", again)
	}
}

// TestFramePlace: a panic's frame names the line the interpreter's frame
// says, in the cell (or file) that declared the function, not the line of
// the declaration (issue 37: "panics inside a cell's function always say
// line 1").
func TestFramePlace(t *testing.T) {
	for _, tc := range []struct {
		decl, line string
		offset     int
		want       string
	}{
		{"cell 3, line 1", "5", 1, "cell 3, line 4"},
		{"cell 3, line 2", "2", 1, "cell 3, line 2"}, // before the declaration: the declaration
		{"lib.go:7", "9", 1, "lib.go:8"},
		{"script.go:7", "9", 0, "script.go:9"},
		{"", "9", 1, ""},
	} {
		if got := framePlace(tc.decl, tc.line, tc.offset); got != tc.want {
			t.Errorf("framePlace(%q, %q, %d) = %q, want %q", tc.decl, tc.line, tc.offset, got, tc.want)
		}
	}
}
