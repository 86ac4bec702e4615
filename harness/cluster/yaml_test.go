package cluster

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// trickyStrings are values that YAML reads as something else when
// written plainly: documents, comments, keys, numbers, booleans, nulls,
// indentation, line breaks of other kinds.
var trickyStrings = []string{
	"", " ", "x", "8", "0x1F", "1e3", "yes", "on", "No", "~", "null", "true", "-", "- x", "? x", ": x", "a: b", "#c", "x #c",
	"[a]", "{a: b}", "*ref", "&anchor", "!tag", "|", ">", "%YAML", "@x", "`x`", "'q'", "\"q\"", "\\", "x\\n",
	"a\n---\napiVersion: v1\nkind: Pod\n", "---", "...", "a\n...\nb", "  leading\nx", "x\n  indented\n", "trailing  \nx\n\n\n",
	"\n\nstarts", "ends\n", "ends\n\n", "x\r\ny", "x\ry", "tab\tx\ny", "\tx\ny", "x\n\ty", "x\n ", "x\n \ny", "\u2028", "x\u2028---\u2028kind: Pod",
	"x\u0085y", "x\u2029y", "\ufeffx", "é\nü\n", "\x00", "\x1b[31m", "\x7f", "line\vtab\f",
}

// roundTrip encodes s in the places a manifest puts strings and checks
// that it reads back as itself, in one document.
func roundTrip(t *testing.T, s string) {
	t.Helper()
	type item struct {
		V text `yaml:"v"`
	}
	in := struct {
		Data   map[string]text   `yaml:"data"`
		List   []scalar          `yaml:"list"`
		Labels map[string]scalar `yaml:"labels"`
		Nested struct {
			Items []item `yaml:"items"`
		} `yaml:"nested"`
		After scalar `yaml:"after"`
	}{Data: map[string]text{"k": text(s)}, List: []scalar{scalar(s), "next"}, Labels: map[string]scalar{"a/b": scalar(s)}, After: "end"}
	in.Nested.Items = []item{{text(s)}, {"next"}}
	b, err := encode(in)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	docs := documents(t, b)
	if len(docs) != 1 {
		t.Fatalf("%q: %d documents:\n%s", s, len(docs), b)
	}
	d := docs[0]
	for _, p := range []string{"data/k", "list/0", "labels/a/b", "nested/items/0/v"} {
		var got any
		if p == "labels/a/b" {
			got = at(t, d, "labels").(map[string]any)["a/b"]
		} else {
			got = at(t, d, p)
		}
		if got != s {
			t.Errorf("%q at %s reads back as %q:\n%s", s, p, got, b)
		}
	}
	if at(t, d, "list/1") != "next" || at(t, d, "nested/items/1/v") != "next" || d["after"] != "end" {
		t.Errorf("%q: the values after it changed:\n%s", s, b)
	}
}

// Every string the manifests hold reads back as itself from the YAML the
// encoder writes, whatever it holds: the tricky strings, and random
// strings of their characters.
func TestYAMLStringsReadBack(t *testing.T) {
	for _, s := range trickyStrings {
		roundTrip(t, s)
	}
	parts := []string{"a", "Z", "0", " ", "  ", "\t", "\n", "\r", "-", "---", ":", ": ", "#", "'", "\"", "\\", "|", ">", "[", "{", "*", "&", "!", "?",
		"\u2028", "\u0085", "é", "\x00", "yes", "1.5"}
	r := rand.New(rand.NewPCG(35, 8))
	for range 3000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		roundTrip(t, b.String())
	}
}

// A string that is not UTF-8 is refused, not written with escapes that
// YAML reads as other characters.
func TestYAMLRefusesNonUTF8(t *testing.T) {
	if _, err := encode(map[string]scalar{"k": "\xff"}); err == nil {
		t.Error("no error")
	}
}

func FuzzYAMLStringsReadBack(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("not UTF-8: refused (TestYAMLRefusesNonUTF8)")
		}
		roundTrip(t, s)
	})
}
