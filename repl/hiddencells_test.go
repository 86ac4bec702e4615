package repl

import (
	"slices"
	"testing"
)

// The attack of issue 35, item 12: a ```go block inside an HTML comment is
// invisible on GitHub and in any Markdown view, yet it ran. Only the cells
// a reader of the rendered notebook sees as Go code run.
func TestParseNotebookHiddenCells(t *testing.T) {
	text := "# A notebook\n\n" +
		"```go\nseen := 1\n```\n\n" +
		"<!--\n```go\nhidden1()\n```\n-->\n\n" +
		"<!-- one line --> text\n\n" +
		"```go\nseen2 := 2\n```\n\n" +
		"  <!-- a comment that\n\n```go\nhidden2()\n```\nends here -->\n\n" +
		"<script>\n```go\nhidden3()\n```\n</script>\n\n" +
		"~~~markdown\n```go\nhidden4()\n```\n~~~\n\n" +
		"<!DOCTYPE x\n```go\nhidden5()\n```\n>\n\n" +
		"```go\nseen3 := 3\n```\n"
	cells, err := ParseNotebook(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"seen := 1", "seen2 := 2", "seen3 := 3"}
	if !slices.Equal(cells, want) {
		t.Errorf("cells %q, want only the visible ones %q", cells, want)
	}
}
