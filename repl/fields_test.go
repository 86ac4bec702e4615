package repl

import (
	"reflect"
	"testing"
)

// Unexported fields get the tag that keeps the encoders off them, their
// other tag keys kept; exported and embedded fields are left alone.
func TestUnexportedTags(t *testing.T) {
	hidden := `json:"-" xml:"-" yaml:"-" grue:"unexported"`
	for _, tc := range []struct{ in, want string }{
		{"type r struct { Name string; score int }", "type r struct { Name string; score int `" + hidden + "` }"},
		{"type r struct { a, b int `yaml:\"ab\" json:\"x,omitempty\"` }", "type r struct { a, b int `yaml:\"-\" json:\"-\" xml:\"-\" grue:\"unexported\"` }"},
		{"type r struct { note string \"db:\\\"n\\\"\" }", "type r struct { note string `db:\"n\" " + hidden + "` }"},
		{"type r struct { a, B int; inner; *Outer }", "type r struct { a, B int; inner; *Outer }"},
		{"x := struct{ k string }{\"a\"}", "x := struct{ k string `" + hidden + "` }{\"a\"}"},
		{"n := 3", "n := 3"},
	} {
		if got := unexportedTags(tc.in); got != tc.want {
			t.Errorf("unexportedTags(%q) =\n%q\nwant\n%q", tc.in, got, tc.want)
		}
	}
	f := reflect.StructField{Name: "Xscore", Tag: `json:"-" grue:"unexported"`}
	if got := fieldName(f); got != "score" {
		t.Errorf("fieldName(%v) = %q, want score", f, got)
	}
	if got := fieldName(reflect.StructField{Name: "Xray"}); got != "Xray" {
		t.Errorf("fieldName of an exported Xray = %q", got)
	}
}
