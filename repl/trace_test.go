package repl

import (
	"fmt"
	"strings"
	"testing"
)

// TestFoldTrace: a recursion's frames show three times and are counted,
// and a long trace is cut with a count of what it left out.
func TestFoldTrace(t *testing.T) {
	var trace []string
	trace = append(trace, "main.leaf (cell 4, line 1)")
	for range 1000 {
		trace = append(trace, "main.down (cell 3, line 1)")
	}
	trace = append(trace, "main.top (cell 2, line 1)")
	got := strings.Join(foldTrace(trace), "\n")
	want := strings.Join([]string{
		"main.leaf (cell 4, line 1)",
		"main.down (cell 3, line 1)", "main.down (cell 3, line 1)", "main.down (cell 3, line 1)",
		"… the frame above 997 more times",
		"main.top (cell 2, line 1)",
	}, "\n")
	if got != want {
		t.Errorf("foldTrace:\n%s\nwant:\n%s", got, want)
	}

	var distinct []string
	for i := range 80 {
		distinct = append(distinct, fmt.Sprintf("main.f%d", i))
	}
	folded := foldTrace(distinct)
	if len(folded) != maxTrace+1 || folded[maxTrace] != "… 30 more frames" {
		t.Errorf("80 distinct frames folded to %d lines ending %q", len(folded), folded[len(folded)-1])
	}
	e := &Error{Kind: KindPanic, Msg: "boom", Trace: foldTrace(trace)}
	if s := e.Error(); !strings.Contains(s, "\n\tat main.down (cell 3, line 1)\n\t… the frame above 997 more times\n\tat main.top") {
		t.Errorf("Error():\n%s", s)
	}
}
