package cli

import "testing"

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"short line", 20, "short line"},
		{"the quick brown fox jumps", 10, "the quick\nbrown fox\njumps"},
		{"exactly ten", 11, "exactly ten"},
		{"a\n\nb c d", 3, "a\n\nb c\nd"},
		{"supercalifragilistic word", 8, "supercalifragilistic\nword"},
		{"  indented text here", 10, "  indented\ntext here"},
		{"ends with prompt\n>", 8, "ends\nwith\nprompt\n>"},
		{"wide café au lait", 9, "wide café\nau lait"},
	} {
		if got := wrap(c.in, c.width); got != c.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
