package agent

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/grue-lab/grue/agent/tools"
)

// defaultRegistry holds fakes of the four default tools, with the game
// server's argument schema for play_action.
func defaultRegistry() *tools.Registry {
	return tools.NewRegistry(
		&fakeTool{name: "play_action", params: map[string]any{"type": "object", "required": []any{"action"},
			"properties": map[string]any{"action": map[string]any{"type": "string"}}}},
		&fakeTool{name: "memory"},
		&fakeTool{name: "get_map"},
		&fakeTool{name: "inventory"},
	)
}

// FuzzParseText feeds the parser and the repairs what a model might say:
// whatever it is, they must not panic, and must give a call to one of the
// agent's tools with a one-line command for play_action.
func FuzzParseText(f *testing.F) {
	for _, s := range []string{
		"THOUGHT: x\nTOOL: play_action\nARGS: {\"action\": \"north\"}",
		"```\n**Thought:** x\n**Tool:** play\n**Args:** {'action': 'grab lamp',}\n```",
		"play_action(\"take lamp\")",
		"> take lamp",
		"{\"name\": \"play_action\", \"arguments\": \"{\\\"action\\\": \\\"east\\\"\"}",
		"Thought: a\nAction: take\nAction Input: {\"object\": \"lamp\"}",
		"TOOL: play_action ARGS: {action: north",
		"<think>TOOL: x</think>ARGS: [\"west\"]",
		"TOOL:\nARGS:\n  action: \"north\"\n  x: {",
		"TOOL: inv()\nTHOUGHT: \u212a",
	} {
		f.Add(s)
	}
	a := New(Defaults())
	a.Tools = defaultRegistry()
	known := a.Tools.Names()
	f.Fuzz(func(t *testing.T, reply string) {
		p := ParseText(reply)
		if p.Tool == "" {
			t.Fatalf("ParseText(%q) gave no tool", reply)
		}
		d := a.resolve(p)
		if !slices.Contains(known, d.tool) {
			t.Fatalf("resolve(%q) called %q", reply, d.tool)
		}
		if d.tool == DefaultTool {
			action, ok := d.args["action"].(string)
			if !ok || action == "" || strings.ContainsAny(action, "\r\n") {
				t.Fatalf("resolve(%q): play_action with %#v", reply, d.args["action"])
			}
			if utf8.ValidString(reply) && !utf8.ValidString(action) {
				t.Fatalf("resolve(%q): invalid UTF-8 action %q", reply, action)
			}
		}
	})
}

// FuzzParseLoose: broken JSON must never panic or run away.
func FuzzParseLoose(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, `{'a': [1, 2,], b: True`, `"x`, `[[[[`, `{"a": "\u00`, `{a = b, c: "d"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parseLoose(s)
	})
}
