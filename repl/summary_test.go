package repl

import (
	"reflect"
	"strings"
	"testing"
)

// run is a record that holds more than is shown: it is shown by its
// Summary.
type run struct {
	Name  string
	Steps []string
}

type runSummary struct {
	Name  string
	Steps int
}

func (r *run) Summary() any { return runSummary{Name: r.Name, Steps: len(r.Steps)} }

// move is shown by its String line alone, and by its TableRow in tables.
type move struct {
	N       int
	Command string
	Raw     []byte
}

type moveRow struct {
	N       int
	Command string
}

func (m move) String() string { return "move " + m.Command }
func (m move) TableRow() any  { return &moveRow{N: m.N, Command: m.Command} }

// TestSummaries: a Summarizer is shown by its summary alone, inside other
// values and in tables (a nil one as nil, under the summary's columns); a
// TableRower by its own String alone and by its row in tables.
func TestSummaries(t *testing.T) {
	r := &run{Name: "a", Steps: []string{"x", "y"}}
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"summarizer alone", r, "&repl.run\n  Name   \"a\"\n  Steps  2"},
		{"summarizer value alone", *r, "repl.run\n  Name   \"a\"\n  Steps  [\"x\" \"y\"]"}, // not addressable: no summary
		{"summarizer inside", struct{ R *run }{r}, "struct\n  R  repl.run{Name: \"a\", Steps: 2}"},
		{"summarizers as a table", []*run{r, nil},
			"┌──────┬───────┐\n│ Name │ Steps │\n├──────┼───────┤\n│ a    │ 2     │\n│ nil  │ nil   │\n└──────┴───────┘"},
		{"table rower alone", move{1, "north", nil}, "move north"},
		{"table rowers as a table", []move{{1, "north", []byte("raw")}, {2, "take lamp", nil}},
			"┌───┬───────────┐\n│ N │ Command   │\n├───┼───────────┤\n│ 1 │ north     │\n│ 2 │ take lamp │\n└───┴───────────┘"},
	} {
		if got := display(reflect.ValueOf(tc.v), 60); got != tc.want {
			t.Errorf("%s: display =\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
	tab, err := tableOf(reflect.ValueOf([]*run{nil}))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := tab.csv(); out != "Name,Steps\nnil,nil" {
		t.Errorf("a table of one nil *run: %q, want the summary's columns", out)
	}
	if strings.Contains(display(reflect.ValueOf([]move{{1, "n", []byte("raw")}}), 60), "raw") {
		t.Error("a table of TableRowers shows a field that their rows leave out")
	}
}
