package agent

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// kinds returns the kinds of reps, in order, without repeats.
func kinds(reps []Repair) []string {
	var ks []string
	for _, r := range reps {
		if !slices.Contains(ks, r.Kind) {
			ks = append(ks, r.Kind)
		}
	}
	return ks
}

func TestParseText(t *testing.T) {
	north := map[string]any{"action": "north"}
	tests := []struct {
		name    string
		reply   string
		tool    string
		args    map[string]any
		bare    string
		thought string
		kinds   []string // repair kinds that must be recorded
		none    bool     // no repair at all
	}{
		{name: "clean", reply: "THOUGHT: The exit is north.\nTOOL: play_action\nARGS: {\"action\": \"north\"}",
			tool: "play_action", args: north, thought: "The exit is north.", none: true},
		{name: "code fence", reply: "```\nTHOUGHT: go\nTOOL: play_action\nARGS: {\"action\": \"north\"}\n```",
			tool: "play_action", args: north, thought: "go", kinds: []string{RepairMarkdown}},
		{name: "fence with language", reply: "```text\nTHOUGHT: go\nTOOL: play_action\nARGS: {\"action\": \"north\"}\n```\n",
			tool: "play_action", args: north, kinds: []string{RepairMarkdown}},
		{name: "bold keys, colon inside", reply: "**THOUGHT:** A lamp!\n**TOOL:** play_action\n**ARGS:** {\"action\": \"take lamp\"}",
			tool: "play_action", args: map[string]any{"action": "take lamp"}, thought: "A lamp!", kinds: []string{RepairMarkdown}},
		{name: "bold keys, colon outside", reply: "**Thought**: dark\n**Tool**: play_action\n**Args**: {\"action\": \"north\"}",
			tool: "play_action", args: north, thought: "dark", kinds: []string{RepairMarkdown, RepairKey}},
		{name: "lower-case keys", reply: "thought: hm\ntool: play_action\nargs: {\"action\": \"north\"}",
			tool: "play_action", args: north, thought: "hm", kinds: []string{RepairKey}},
		{name: "list markers", reply: "- THOUGHT: x\n- TOOL: play_action\n- ARGS: {\"action\": \"north\"}",
			tool: "play_action", args: north, thought: "x", kinds: []string{RepairMarkdown}},
		{name: "headings", reply: "### Thought\nI see a door.\n### Tool\nplay_action\n### Args\n{\"action\": \"north\"}",
			tool: "play_action", args: north, thought: "I see a door.", kinds: []string{RepairMarkdown}},
		{name: "single quotes", reply: "THOUGHT: x\nTOOL: play_action\nARGS: {'action': 'open mailbox'}",
			tool: "play_action", args: map[string]any{"action": "open mailbox"}, kinds: []string{RepairSingleQuotes}},
		{name: "single quotes with an apostrophe inside double", reply: "TOOL: play_action\nARGS: {'action': \"ask troll about king's crown\"}",
			tool: "play_action", args: map[string]any{"action": "ask troll about king's crown"}, kinds: []string{RepairSingleQuotes}},
		{name: "trailing comma", reply: "TOOL: play_action\nARGS: {\"action\": \"north\",}",
			tool: "play_action", args: north, kinds: []string{RepairJSON}},
		{name: "missing brace (cut off)", reply: "THOUGHT: x\nTOOL: play_action\nARGS: {\"action\": \"take lamp\"",
			tool: "play_action", args: map[string]any{"action": "take lamp"}, kinds: []string{RepairJSON}},
		{name: "bare keys", reply: "TOOL: play_action\nARGS: {action: \"north\"}",
			tool: "play_action", args: north, kinds: []string{RepairJSON}},
		{name: "python literals", reply: "TOOL: reset_game\nARGS: {\"game\": \"zork1\", \"hard\": True, \"x\": None}",
			tool: "reset_game", args: map[string]any{"game": "zork1", "hard": true, "x": nil}, kinds: []string{RepairJSON}},
		{name: "curly quotes", reply: "TOOL: play_action\nARGS: {“action”: “north”}",
			tool: "play_action", args: north, kinds: []string{RepairJSON}},
		{name: "bare command args", reply: "THOUGHT: x\nTOOL: play_action\nARGS: take lamp",
			tool: "play_action", bare: "take lamp", kinds: []string{RepairArgs}},
		{name: "JSON string args", reply: "TOOL: play_action\nARGS: \"take lamp\"",
			tool: "play_action", bare: "take lamp", kinds: []string{RepairArgs}},
		{name: "backticked args", reply: "TOOL: play_action\nARGS: `{\"action\": \"north\"}`",
			tool: "play_action", args: north, kinds: []string{RepairMarkdown}},
		{name: "backticked tool", reply: "TOOL: `play_action`\nARGS: {\"action\": \"north\"}",
			tool: "play_action", args: north, kinds: []string{RepairMarkdown}},
		{name: "multi-line thought", reply: "THOUGHT: The room is dark.\nI should light the lamp first.\n\nTOOL: play_action\nARGS: {\"action\": \"turn on lamp\"}",
			tool: "play_action", args: map[string]any{"action": "turn on lamp"}, thought: "The room is dark.\nI should light the lamp first.", none: true},
		{name: "pretty-printed args", reply: "TOOL: play_action\nARGS: {\n  \"action\": \"north\"\n}",
			tool: "play_action", args: north, none: true},
		{name: "args on the next line", reply: "TOOL: play_action\nARGS:\n{\"action\": \"north\"}",
			tool: "play_action", args: north, none: true},
		{name: "no ARGS key", reply: "TOOL: play_action\n{\"action\": \"north\"}",
			tool: "play_action", args: north, kinds: []string{RepairKey}},
		{name: "yaml args", reply: "TOOL: play_action\nARGS:\n  action: north",
			tool: "play_action", args: north, kinds: []string{RepairJSON}},
		{name: "text before the object", reply: "TOOL: play_action\nARGS: here you go: {\"action\": \"north\"}",
			tool: "play_action", args: north, kinds: []string{RepairJSON}},
		{name: "tool with no args", reply: "THOUGHT: where am I\nTOOL: get_map\nARGS: {}",
			tool: "get_map", args: map[string]any{}, none: true},
		{name: "tool and no ARGS line", reply: "THOUGHT: check\nTOOL: inventory",
			tool: "inventory", none: true},
		{name: "call in TOOL", reply: "THOUGHT: x\nTOOL: play_action(\"take lamp\")",
			tool: "play_action", bare: "take lamp", kinds: []string{RepairRegexFallback}},
		{name: "keyword call in TOOL", reply: "TOOL: play_action(action=\"north\")",
			tool: "play_action", args: north, kinds: []string{RepairRegexFallback}},
		{name: "keys on one line", reply: "THOUGHT: go west. TOOL: play_action ARGS: {\"action\": \"west\"}",
			tool: "play_action", args: map[string]any{"action": "west"}, thought: "go west.", kinds: []string{RepairWhitespace}},
		{name: "ReAct keys", reply: "Thought: up it is\nAction: play_action\nAction Input: {\"action\": \"up\"}",
			tool: "play_action", args: map[string]any{"action": "up"}, thought: "up it is", kinds: []string{RepairKey}},
		{name: "Action is a command", reply: "Thought: grab it\nAction: take lamp",
			tool: "take lamp", kinds: []string{RepairKey}},
		{name: "two calls", reply: "THOUGHT: a\nTOOL: play_action\nARGS: {\"action\": \"north\"}\nTHOUGHT: b\nTOOL: play_action\nARGS: {\"action\": \"south\"}",
			tool: "play_action", args: north, thought: "a", kinds: []string{RepairExtra}},
		{name: "ARGS without TOOL", reply: "THOUGHT: north\nARGS: {\"action\": \"north\"}",
			tool: "play_action", args: north, kinds: []string{RepairKey}},
		{name: "think block with a draft", reply: "<think>maybe TOOL: get_map?</think>\nTHOUGHT: go\nTOOL: play_action\nARGS: {\"action\": \"north\"}",
			tool: "play_action", args: north, kinds: []string{RepairMarkdown}},
		{name: "call only", reply: "I'll take the lamp: play_action(\"take lamp\")",
			tool: "play_action", bare: "take lamp", kinds: []string{RepairRegexFallback}},
		{name: "call only, JSON inside", reply: "play_action({\"action\": \"north\"})",
			tool: "play_action", args: north, kinds: []string{RepairRegexFallback}},
		{name: "prompt line", reply: "The door is north, so:\n\n> north",
			tool: "play_action", bare: "north", kinds: []string{RepairRegexFallback}},
		{name: "play_action colon", reply: "play_action: open the mailbox",
			tool: "play_action", bare: "open the mailbox", kinds: []string{RepairRegexFallback}},
		{name: "JSON call", reply: "{\"tool\": \"play_action\", \"args\": {\"action\": \"east\"}}",
			tool: "play_action", args: map[string]any{"action": "east"}, kinds: []string{RepairRegexFallback}},
		{name: "OpenAI-style JSON call", reply: "```json\n{\"name\": \"play_action\", \"arguments\": \"{\\\"action\\\": \\\"east\\\"}\"}\n```",
			tool: "play_action", args: map[string]any{"action": "east"}, kinds: []string{RepairMarkdown, RepairRegexFallback}},
		{name: "JSON action", reply: "{\"thought\": \"in\", \"action\": \"open door\"}",
			tool: "play_action", bare: "open door", thought: "in", kinds: []string{RepairRegexFallback}},
		{name: "bare command", reply: "north",
			tool: "play_action", bare: "north", kinds: []string{RepairRegexFallback}},
		{name: "bare command with markdown", reply: "**take lamp**",
			tool: "play_action", bare: "take lamp", kinds: []string{RepairRegexFallback}},
		{name: "short prose is no command", reply: "I dunno",
			tool: DefaultTool, args: map[string]any{"action": DefaultAction}, kinds: []string{RepairDefault}},
		{name: "prose", reply: "I am not sure what to do here; the room is very dark and I might be eaten by a grue.",
			tool: DefaultTool, args: map[string]any{"action": DefaultAction}, kinds: []string{RepairDefault}},
		{name: "thought only", reply: "THOUGHT: I should open the mailbox, it might hold a leaflet.",
			tool: DefaultTool, args: map[string]any{"action": DefaultAction}, thought: "I should open the mailbox, it might hold a leaflet.", kinds: []string{RepairDefault}},
		{name: "empty", reply: "",
			tool: DefaultTool, args: map[string]any{"action": DefaultAction}, kinds: []string{RepairDefault}},
		{name: "hallucinated observation after the call", reply: "THOUGHT: x\nTOOL: play_action\nARGS: {\"action\": \"north\"}\n\nObservation: You are in a cave.\nTHOUGHT: now east",
			tool: "play_action", args: north, thought: "x", kinds: []string{RepairJSON}},
		{name: "CRLF", reply: "THOUGHT: x\r\nTOOL: play_action\r\nARGS: {\"action\": \"north\"}\r\n",
			tool: "play_action", args: north, none: true},
		{name: "Toolbox is no key", reply: "Toolbox: I found one.\nTOOL: play_action\nARGS: {\"action\": \"open toolbox\"}",
			tool: "play_action", args: map[string]any{"action": "open toolbox"}, none: true},
		{name: "action inside ARGS stays an argument", reply: "TOOL: play_action\nARGS:\naction: north\ncommand: x",
			tool: "play_action", args: map[string]any{"action": "north", "command": "x"}, kinds: []string{RepairJSON}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := ParseText(tc.reply)
			if p.Tool != tc.tool {
				t.Errorf("tool %q, want %q", p.Tool, tc.tool)
			}
			if !reflect.DeepEqual(p.Args, tc.args) {
				t.Errorf("args %#v, want %#v", p.Args, tc.args)
			}
			if p.Bare != tc.bare {
				t.Errorf("bare %q, want %q", p.Bare, tc.bare)
			}
			if tc.thought != "" && p.Thought != tc.thought {
				t.Errorf("thought %q, want %q", p.Thought, tc.thought)
			}
			got := kinds(p.Repairs)
			for _, k := range tc.kinds {
				if !slices.Contains(got, k) {
					t.Errorf("repairs %+v lack %q", p.Repairs, k)
				}
			}
			if tc.none && len(p.Repairs) > 0 {
				t.Errorf("repairs %+v in a well-formed reply", p.Repairs)
			}
			if !slices.Contains(tc.kinds, RepairDefault) && slices.Contains(got, RepairDefault) {
				t.Errorf("fell back to the default: %+v", p.Repairs)
			}
		})
	}
}

func TestParseLoose(t *testing.T) {
	tests := []struct {
		in    string
		want  any
		fixed bool
	}{
		{`{"a": 1}`, map[string]any{"a": 1.0}, false},
		{`{'a': 'it\'s'}`, map[string]any{"a": "it's"}, true},
		{`{"a": [1, 2,], }`, map[string]any{"a": []any{1.0, 2.0}}, true},
		{`{"a": {"b": "c"`, map[string]any{"a": map[string]any{"b": "c"}}, true},
		{`{"a": "unterminated`, map[string]any{"a": "unterminated"}, true},
		{`{a = "x"}`, map[string]any{"a": "x"}, true},
		{`{"a": "\u00e9\n"}`, map[string]any{"a": "é\n"}, false},
		{`"just a string"`, "just a string", false},
		{`{"a": 1} and more`, map[string]any{"a": 1.0}, true},
		{`{"a": north}`, map[string]any{"a": "north"}, true},
	}
	for _, tc := range tests {
		v, fixes, ok := parseLoose(tc.in)
		if !ok || !reflect.DeepEqual(v, tc.want) {
			t.Errorf("parseLoose(%s) = %#v, %v; want %#v", tc.in, v, ok, tc.want)
		}
		if (len(fixes) > 0) != tc.fixed {
			t.Errorf("parseLoose(%s): fixes %v, want fixes: %v", tc.in, fixes, tc.fixed)
		}
	}
	for _, bad := range []string{"", "   ", "@@@", "}"} {
		if _, _, ok := parseLoose(bad); ok {
			t.Errorf("parseLoose(%q) ok, want not a value", bad)
		}
	}
	// Nesting beyond the limit is cut off, not followed down the stack.
	v, _, _ := parseLoose(strings.Repeat("[", 100000))
	depth := 0
	for a, ok := v.([]any); ok && len(a) > 0; a, ok = a[0].([]any) {
		depth++
	}
	if depth > maxLooseDepth+1 {
		t.Errorf("parseLoose followed %d levels, want at most %d", depth, maxLooseDepth+1)
	}
}
