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
