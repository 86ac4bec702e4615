package repl

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/game"
)

func TestDisplay(t *testing.T) {
	type rec struct {
		Name  string
		Score int
		Tags  []string
		inner int
	}
	long := strings.Repeat("lorem ipsum ", 12)
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, "nil"},
		{"string", "two\nlines", "two\nlines"},
		{"empty string", "", `""`},
		{"number", 42, "42"},
		{"error", errors.New("bad"), "error: bad"},
		{"Stringer", 1500 * time.Millisecond, "1.5s"},
		{"struct", game.Info{Score: 5, MaxScore: 60, Moves: 3, Location: "Meadow", LocationID: 29},
			"game.Info\n  Score        5\n  MaxScore     60\n  Moves        3\n  Location     \"Meadow\"\n  LocationID   29\n  KeyExpected  false"},
		{"pointer to struct", &rec{Name: "a", Tags: []string{"x"}}, "&repl.rec\n  Name   \"a\"\n  Score  0\n  Tags   [\"x\"]"},
		{"long text in a field is folded under the name", rec{Name: long},
			// 40 columns less the 9 of the names' column
			"repl.rec\n  Name   lorem ipsum lorem ipsum lorem\n         ipsum lorem ipsum lorem ipsum\n         lorem ipsum lorem ipsum lorem\n         ipsum lorem ipsum lorem ipsum\n         lorem ipsum lorem ipsum \n  Score  0\n  Tags   []"},
		{"records as a table", []rec{{"a", 1, nil, 0}, {"b", 2, []string{"t"}, 0}},
			"┌──────┬───────┬───────┐\n│ Name │ Score │ Tags  │\n├──────┼───────┼───────┤\n│ a    │ 1     │ []    │\n│ b    │ 2     │ [\"t\"] │\n└──────┴───────┴───────┘"},
		{"short list", []int{1, 2, 3}, "[1 2 3]"},
		{"long list, one a line", []string{long, "b"}, "[]string, 2 elements:\n  [0] \"lorem ipsum lorem ipsum lorem …\n  [1] \"b\""},
		{"map", map[string]int{"b": 2, "a": 1}, "map[string]int, 2 entries:\n  \"a\": 1\n  \"b\": 2"},
		{"func", strings.ToUpper, "func(string) string"},
		{"bytes", []byte("hi"), "[]byte(\"hi\")"},
	} {
		got := display(reflect.ValueOf(tc.v), 40)
		if got != tc.want {
			t.Errorf("%s: display = \n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestFold(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"the quick brown fox", 10, "the quick\nbrown fox"},
		{"abcdefghijklmnop", 5, "abcde\nfghij\nklmno\np"},
		{"keep\n\nblank lines", 20, "keep\n\nblank lines"},
	} {
		if got := fold(tc.in, tc.width); got != tc.want {
			t.Errorf("fold(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
	if got := inline(reflect.ValueOf(strings.Repeat("x", 50)), 10); got != `"xxxxxxxx…` {
		t.Errorf("inline cut = %q", got)
	}
}
