package stripansi

import "testing"

func TestStrip(t *testing.T) {
	cases := map[string]string{
		"plain":                       "plain",
		"\x1b[31mred\x1b[0m":          "red",
		"\x1b[1;32mbold green\x1b[m!": "bold green!",
		"\x1b]0;title\x07after":       "after",
		"a\x1b[2Kb\x1b[10;20Hc":       "abc",
		"\u009b31mcsi\u009b0m":        "csi",
	}
	for in, want := range cases {
		if got := Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}
