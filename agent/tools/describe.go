package tools

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
)

// Describe renders r's tools for a text-protocol prompt, one line each in
// the order they were added:
//
//   - play_action(action: string): Send one command to the game ...
//   - reset_game(game?: string, seed?: number): Start a game again ...
//
// Required arguments come first, in the schema's order; optional ones
// follow, sorted, with a "?" after their names.
func Describe(r *Registry) string {
	var b strings.Builder
	for _, s := range r.Specs() {
		b.WriteString(DescribeSpec(s))
		b.WriteByte('\n')
	}
	return b.String()
}

// DescribeSpec renders one tool as Describe does, without the newline.
func DescribeSpec(s llm.ToolSpec) string {
	props, _ := s.Parameters["properties"].(map[string]any)
	var required []string
	switch req := s.Parameters["required"].(type) {
	case []any:
		for _, v := range req {
			if n, ok := v.(string); ok {
				required = append(required, n)
			}
		}
	case []string:
		required = req
	}
	var args []string
	for _, n := range required {
		args = append(args, n+": "+schemaType(props[n]))
	}
	var optional []string
	for n := range props {
		if !slices.Contains(required, n) {
			optional = append(optional, n)
		}
	}
	sort.Strings(optional)
	for _, n := range optional {
		args = append(args, n+"?: "+schemaType(props[n]))
	}
	line := fmt.Sprintf("- %s(%s)", s.Name, strings.Join(args, ", "))
	if d := strings.Join(strings.Fields(s.Description), " "); d != "" {
		line += ": " + d
	}
	return line
}

// schemaType is a property's JSON Schema type in a word: "string",
// "number", "string[]", "a|b" for an enum of strings, "any" when unsaid.
func schemaType(p any) string {
	m, _ := p.(map[string]any)
	if enum, ok := m["enum"].([]any); ok && len(enum) > 0 {
		var vs []string
		for _, v := range enum {
			vs = append(vs, fmt.Sprint(v))
		}
		return strings.Join(vs, "|")
	}
	if enum, ok := m["enum"].([]string); ok && len(enum) > 0 {
		return strings.Join(enum, "|")
	}
	switch t := m["type"].(type) {
	case string:
		if t == "array" {
			return schemaType(m["items"]) + "[]"
		}
		return t
	case []any:
		var ts []string
		for _, v := range t {
			ts = append(ts, fmt.Sprint(v))
		}
		return strings.Join(ts, "|")
	}
	return "any"
}
