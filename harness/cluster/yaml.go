package cluster

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
)

// scalar is a string the YAML encoder always writes double-quoted, with
// every character that is not printable escaped: whatever it holds, it
// reads back as itself and as a string (not a number, a boolean or a
// null), and it never ends its line.
type scalar string

// MarshalYAML writes s as a double-quoted YAML scalar. Go's escapes of a
// valid UTF-8 string (\n, \t, \", \\, \uXXXX...) are YAML's too; the
// values are checked to be UTF-8 before they get here.
func (s scalar) MarshalYAML() ([]byte, error) {
	if !utf8.ValidString(string(s)) {
		return nil, fmt.Errorf("yaml: %q is not UTF-8 text", string(s))
	}
	return []byte(strconv.Quote(string(s))), nil
}

// text is a file's content in a manifest: a literal block when the
// encoder writes it back exactly (lines of printable text), otherwise a
// double-quoted scalar.
type text string

// MarshalYAML chooses the style of t.
func (t text) MarshalYAML() (any, error) {
	if literalSafe(string(t)) {
		return string(t), nil // a literal block: see encode
	}
	return scalar(t), nil
}

// literalSafe says whether s reads back exactly from the literal block
// the encoder writes for a string with a newline in it: valid UTF-8 with
// no control character but newlines and tabs, no line break other than
// \n, a line with text, the first of which does not start with a space
// or a tab (it would set the block's indentation), and no line that ends
// with one.
func literalSafe(s string) bool {
	if !strings.Contains(s, "\n") || !utf8.ValidString(s) {
		return false
	}
	first := true
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			continue
		}
		if strings.TrimRight(line, " \t") != line || first && (line[0] == ' ' || line[0] == '\t') {
			return false
		}
		first = false
		for _, r := range line {
			if r != '\t' && !unicode.IsPrint(r) {
				return false
			}
		}
	}
	return !first
}

// encode writes v as one YAML document: scalar and text values as they
// choose, maps and sequences in block style.
func encode(v any) ([]byte, error) {
	return yaml.MarshalWithOptions(v, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
}
