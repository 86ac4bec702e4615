package agent

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/internal/lazyregexp"
	"github.com/grue-lab/grue/internal/wordset"
)

// The text protocol, as the earlier Python agent spoke it: the model answers
//
//	THOUGHT: <reasoning>
//	TOOL: <tool name>
//	ARGS: <JSON object>
//
// Models drift from it in every way they can: markdown around it, keys in
// another case or another word, single-quoted or broken JSON, a bare
// command instead of JSON, the call written as play_action("take lamp"), or
// no layout at all. ParseText reads what it can and records each liberty as
// a Repair; when nothing can be read it falls back to looking around.

// Parsed is a reply read as one tool call, before the agent fits it to
// its tools (tool-name, argument and verb repairs come after parsing).
type Parsed struct {
	Thought string         `json:"thought,omitempty"`
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args,omitempty"`
	// Bare holds arguments that were not a JSON object: a bare command
	// ("ARGS: take lamp", play_action("take lamp")). The agent gives it to
	// the tool's one string argument.
	Bare    string   `json:"bare,omitempty"`
	Repairs []Repair `json:"repairs,omitempty"`
}

// DefaultTool and DefaultAction are what the agent plays when a reply
// holds nothing it can use: a look around, which is always safe.
const (
	DefaultTool   = mcp.ToolPlayAction
	DefaultAction = "look"
)

// The keys of the text protocol.
const (
	keyThought = "THOUGHT"
	keyTool    = "TOOL"
	keyArgs    = "ARGS"
)

// keySpellings maps the ways models write the keys (lower case) to the key
// meant. Longer spellings are tried first.
var keySpellings = map[string]string{
	"thought": keyThought, "thoughts": keyThought, "thinking": keyThought,
	"reasoning": keyThought, "reason": keyThought, "think": keyThought,
	"analysis": keyThought,

	"tool": keyTool, "tool_name": keyTool, "tool name": keyTool,
	"tool_call": keyTool, "function": keyTool, "function_name": keyTool,
	"action": keyTool, "command": keyTool, "cmd": keyTool,

	"args": keyArgs, "arguments": keyArgs, "argument": keyArgs, "arg": keyArgs,
	"input": keyArgs, "action_input": keyArgs, "action input": keyArgs,
	"parameters": keyArgs, "params": keyArgs, "tool_input": keyArgs,
	"tool input": keyArgs, "args_json": keyArgs,
}

// spellingsByLength is keySpellings' keys, longest first (sorted on first
// use, not at every grue command's start).
var spellingsByLength = sync.OnceValue(func() []string {
	var ks []string
	for k := range keySpellings {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if len(ks[i]) != len(ks[j]) {
			return len(ks[i]) > len(ks[j])
		}
		return ks[i] < ks[j]
	})
	return ks
})

// section is a key and the text that follows it, up to the next key.
type section struct {
	key     string
	written string // the key as written
	lines   []string
}

func (s *section) text() string { return strings.TrimSpace(strings.Join(s.lines, "\n")) }

// ParseText reads a text-protocol reply. It never fails: a reply with
// nothing usable gives the default action, with a RepairDefault saying so.
func ParseText(reply string) Parsed {
	var p Parsed
	text := strings.ReplaceAll(reply, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if t, ok := stripThink(text); ok {
		text = t
		p.repair(RepairMarkdown, "<think>", "", "removed the model's <think> block")
	}
	text, fenced := stripFences(text)
	if fenced {
		p.repair(RepairMarkdown, "```", "", "removed code fences")
	}
	secs, reps := sections(text)
	if !hasKey(secs, keyTool) {
		// The keys may share a line: "THOUGHT: x TOOL: y ARGS: {}".
		if inline := splitInlineKeys(text); inline != "" {
			if s2, r2 := sections(inline); hasKey(s2, keyTool) {
				secs, reps = s2, append(r2, Repair{Kind: RepairWhitespace, Detail: "keys on one line split onto their own"})
			}
		}
	}
	p.Repairs = append(p.Repairs, reps...)
	p.fromSections(secs)
	if p.Tool == "" {
		p.fallback(text)
	}
	if p.Tool == "" {
		p.Tool, p.Args, p.Bare = DefaultTool, map[string]any{"action": DefaultAction}, ""
		p.repair(RepairDefault, clip(reply, 60), DefaultAction, "no tool call could be read from the reply")
	}
	return p
}

func (p *Parsed) repair(kind, from, to, detail string) {
	p.Repairs = append(p.Repairs, Repair{Kind: kind, From: from, To: to, Detail: detail})
}

// stripThink removes the <think>...</think> blocks reasoning models put
// before their answer (drafts of a call in them must not be taken for the
// call). An unclosed block is kept: it may be all there is.
func stripThink(text string) (string, bool) {
	found := false
	for {
		i := indexFold(text, "<think>")
		if i < 0 {
			break
		}
		j := indexFold(text[i:], "</think>")
		if j < 0 {
			break
		}
		text = text[:i] + text[i+j+len("</think>"):]
		found = true
	}
	// A reply that starts mid-thought: "...</think>\nTHOUGHT: ...".
	if i := indexFold(text, "</think>"); i >= 0 {
		text, found = text[i+len("</think>"):], true
	}
	return text, found
}

// indexFold is strings.Index ignoring ASCII case, for an ASCII sub.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// stripFences removes code-fence lines (``` or ~~~, with or without a
// language), keeping what they enclosed.
func stripFences(text string) (string, bool) {
	if !strings.Contains(text, "```") && !strings.Contains(text, "~~~") {
		return text, false
	}
	lines := strings.Split(text, "\n")
	out := lines[:0]
	found := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			found = true
			// A fence with content on the same line: ```TOOL: x```.
			inner := strings.Trim(t, "`~")
			if strings.HasPrefix(t, "```") && strings.HasSuffix(t, "```") && len(t) > 6 && !isWord(inner) {
				out = append(out, inner)
			}
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n"), found
}

// isWord reports whether s is a fence's language tag (json, text, ...).
func isWord(s string) bool {
	if s == "" {
		return true
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// inlineKey finds the keys of the protocol written mid-line.
var inlineKey = lazyregexp.New(`(?i)\b(thought|tool|args)\s*:`)

// splitInlineKeys puts each key found mid-line on its own line, or
// returns "" when there are not at least a TOOL and one other key.
func splitInlineKeys(text string) string {
	locs := inlineKey.FindAllStringIndex(text, -1)
	if len(locs) < 2 {
		return ""
	}
	hasTool := false
	for _, l := range locs {
		if strings.EqualFold(text[l[0]:l[0]+4], "tool") {
			hasTool = true
		}
	}
	if !hasTool {
		return ""
	}
	var b strings.Builder
	prev := 0
	for _, l := range locs {
		b.WriteString(text[prev:l[0]])
		b.WriteByte('\n')
		prev = l[0]
	}
	b.WriteString(text[prev:])
	return b.String()
}

// sections splits text into key sections. Inside an ARGS section only a
// canonical or decorated key ends it, so that "action: north" written as
// YAML stays an argument.
func sections(text string) ([]section, []Repair) {
	var secs []section
	var reps []Repair
	for _, line := range strings.Split(text, "\n") {
		key, written, value, decorated, ok := keyLine(line)
		if ok && len(secs) > 0 && secs[len(secs)-1].key == keyArgs &&
			!decorated && !strings.EqualFold(written, key) {
			ok = false
		}
		if !ok {
			if len(secs) > 0 {
				secs[len(secs)-1].lines = append(secs[len(secs)-1].lines, line)
			}
			continue
		}
		if decorated {
			reps = append(reps, Repair{Kind: RepairMarkdown, From: clip(line, 40), To: key + ": ...", Detail: "markdown around a key"})
		}
		if written != key {
			reps = append(reps, Repair{Kind: RepairKey, From: written, To: key})
		}
		secs = append(secs, section{key: key, written: written, lines: []string{value}})
	}
	return secs, reps
}

// hasKey reports whether one of secs is a key section.
func hasKey(secs []section, key string) bool {
	for _, s := range secs {
		if s.key == key {
			return true
		}
	}
	return false
}

// keyLine reads line as "KEY: value", allowing markdown around the key
// (**Thought:**, - TOOL:, ### Args). It returns the key meant, the key as
// written, the value, whether markdown was removed, and ok false when the
// line starts with no key.
func keyLine(line string) (key, written, value string, decorated, ok bool) {
	t := strings.TrimLeft(line, " \t")
	for _, prefix := range []string{"- ", "* ", "+ ", "> "} {
		if strings.HasPrefix(t, prefix) {
			t, decorated = strings.TrimLeft(t[len(prefix):], " \t"), true
			break
		}
	}
	if h := strings.TrimLeft(t, "#"); len(h) < len(t) {
		t, decorated = strings.TrimLeft(h, " \t"), true
	} else if n := leadingDigits(t); n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') {
		t, decorated = strings.TrimLeft(t[n+1:], " \t"), true
	}
	if u := strings.TrimLeft(t, "*_`"); len(u) < len(t) {
		t, decorated = u, true
	}
	for _, sp := range spellingsByLength() {
		if len(t) < len(sp) || !strings.EqualFold(t[:len(sp)], sp) {
			continue
		}
		rest := t[len(sp):]
		if rest != "" && (isWordByte(rest[0])) {
			continue // "Toolbox", "Thoughtful"
		}
		written, key = t[:len(sp)], keySpellings[sp]
		r := strings.TrimLeft(rest, " \t")
		closing := strings.TrimLeft(r, "*_`")
		if len(closing) < len(r) {
			decorated = true
			r = strings.TrimLeft(closing, " \t")
		}
		switch {
		case strings.HasPrefix(r, ":") || strings.HasPrefix(r, "="):
			r = r[1:]
		case strings.TrimSpace(r) == "" && (decorated || written == key):
			// A heading: "### Thought" or "**TOOL**" alone on its line.
		default:
			return "", "", "", false, false
		}
		if c := strings.TrimLeft(r, " \t*_"); len(c) < len(strings.TrimLeft(r, " \t")) {
			decorated = true
			r = c
		}
		return key, written, strings.TrimSpace(r), decorated, true
	}
	return "", "", "", false, false
}

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// fromSections takes the first TOOL, the ARGS that follow it and the first
// THOUGHT; later calls are ignored, and recorded.
func (p *Parsed) fromSections(secs []section) {
	tool := -1
	for i, s := range secs {
		switch s.key {
		case keyThought:
			if p.Thought == "" && (tool < 0 || i < tool) {
				p.Thought = s.text()
			}
		case keyTool:
			if tool < 0 {
				tool = i
			} else {
				p.repair(RepairExtra, s.text(), "", "a second TOOL ignored")
			}
		}
	}
	// The tool's arguments: the first ARGS after it (before any other
	// TOOL), or else the last ARGS before it.
	args := -1
	if tool >= 0 {
		for i := tool + 1; i < len(secs) && secs[i].key != keyTool; i++ {
			if secs[i].key == keyArgs {
				args = i
				break
			}
		}
		for i := tool - 1; args < 0 && i >= 0; i-- {
			if secs[i].key == keyArgs {
				args = i
			}
		}
	} else {
		for i := 0; args < 0 && i < len(secs); i++ {
			if secs[i].key == keyArgs {
				args = i
			}
		}
	}
	var argsText string
	if args >= 0 {
		argsText = secs[args].text()
	}
	if tool < 0 {
		if args >= 0 {
			// ARGS with no TOOL: an action means play_action.
			p.readArgs(argsText)
			if _, ok := p.Args["action"]; ok || p.Bare != "" {
				p.Tool = DefaultTool
				p.repair(RepairKey, "", "TOOL: "+DefaultTool, "no TOOL; ARGS hold an action")
				return
			}
			p.Args, p.Bare = nil, ""
		}
		return
	}
	// The tool is the first line of its section; more lines may be its
	// arguments when no ARGS key follows.
	var lines []string
	for _, l := range secs[tool].lines {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 {
		return
	}
	name := lines[0]
	if args < 0 && len(lines) > 1 {
		argsText = strings.Join(lines[1:], "\n")
		args = tool
		p.repair(RepairKey, "", keyArgs, "arguments on the lines after TOOL, with no ARGS key")
	}
	// "TOOL: play_action ARGS: {...}" on one line.
	if loc := inlineArgs.FindStringIndex(name); loc != nil && loc[0] > 0 {
		if args < 0 {
			argsText = strings.TrimSpace(name[loc[1]:])
			args = tool
		}
		name = strings.TrimSpace(name[:loc[0]])
	}
	p.Tool = p.cleanName(name)
	if i := strings.IndexByte(p.Tool, '('); i > 0 {
		// play_action("take lamp"), play_action(action="take lamp")
		inner := p.Tool[i+1:]
		p.Tool = strings.TrimSpace(p.Tool[:i])
		if j := strings.LastIndexByte(inner, ')'); j >= 0 {
			inner = inner[:j]
		}
		if args < 0 {
			p.readCallArgs(inner)
			return
		}
	}
	if args >= 0 {
		p.readArgs(argsText)
	}
}

var inlineArgs = lazyregexp.New(`(?i)\s(args|arguments)\s*:`)

// cleanName strips the quotes, backticks, stars and trailing punctuation
// models put around a tool's name.
func (p *Parsed) cleanName(name string) string {
	c := strings.TrimSpace(strings.Trim(strings.TrimSpace(name), "`*\"'“”‘’"))
	c = strings.TrimRight(c, ".,;:!")
	c = strings.TrimSpace(strings.Trim(c, "`*\"'“”‘’"))
	if c != name {
		p.repair(RepairMarkdown, name, c, "tool name cleaned")
	}
	return c
}

// readArgs reads ARGS text: a JSON object, JSON-ish text, key: value
// lines, a quoted string or a bare command.
func (p *Parsed) readArgs(text string) {
	t := strings.TrimSpace(text)
	if u := strings.Trim(t, "`"); u != t {
		p.repair(RepairMarkdown, clip(t, 40), clip(u, 40), "backticks around the arguments")
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(u), "json"))
	}
	if t == "" {
		return
	}
	switch t[0] {
	case '{', '[', '"', '\'':
		p.readValue(t)
		return
	}
	if strings.HasPrefix(t, "“") || strings.HasPrefix(t, "‘") {
		p.readValue(t)
		return
	}
	if i := strings.IndexByte(t, '{'); i > 0 && strings.LastIndexByte(t, '}') > i {
		p.repair(RepairJSON, clip(t[:i], 40), "", "text before the JSON object ignored")
		p.readValue(t[i:])
		return
	}
	if m := yamlLines(t); m != nil {
		p.Args = m
		p.repair(RepairJSON, clip(t, 40), "", "key: value lines read as a JSON object")
		return
	}
	p.Bare = strings.TrimSpace(strings.SplitN(t, "\n", 2)[0])
	p.repair(RepairArgs, clip(t, 40), "", "ARGS not JSON: read as a bare command")
}

// readValue reads a JSON(-ish) value as the arguments.
func (p *Parsed) readValue(t string) {
	v, fixes, ok := parseLoose(t)
	for _, f := range fixes {
		p.repair(f.kind, clip(t, 60), "", f.detail)
	}
	if !ok {
		p.Bare = t
		p.repair(RepairArgs, clip(t, 40), "", "arguments not readable as JSON: read as a bare command")
		return
	}
	switch v := v.(type) {
	case map[string]any:
		p.Args = v
	case string:
		p.Bare = v
		p.repair(RepairArgs, clip(t, 40), "", "arguments a JSON string, not an object")
	case []any:
		if len(v) > 0 {
			if s, ok := v[0].(string); ok {
				p.Bare = s
				p.repair(RepairArgs, clip(t, 40), s, "arguments a JSON array: its first string taken")
				return
			}
			if m, ok := v[0].(map[string]any); ok {
				p.Args = m
				p.repair(RepairArgs, clip(t, 40), "", "arguments a JSON array: its first object taken")
				return
			}
		}
		p.repair(RepairArgs, clip(t, 40), "", "arguments a JSON array: ignored")
	default:
		p.Bare = fmt.Sprint(v)
		p.repair(RepairArgs, clip(t, 40), p.Bare, "arguments a JSON scalar, not an object")
	}
}

// readCallArgs reads the inside of name(...): a JSON object, a quoted
// string, keyword arguments (action="take lamp") or a bare command.
func (p *Parsed) readCallArgs(inner string) {
	inner = strings.TrimSpace(inner)
	p.repair(RepairRegexFallback, "", "", "call written as name(arguments)")
	if inner == "" {
		return
	}
	if inner[0] == '{' {
		p.readValue(inner)
		return
	}
	if _, ok := openQuote([]rune(inner)[0]); ok {
		p.readValue(inner)
		return
	}
	if kw := keywordArg.FindStringIndex(inner); kw != nil && kw[0] == 0 {
		p.readValue("{" + inner + "}")
		return
	}
	p.Bare = inner
}

var keywordArg = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*\s*[=:]`)

// yamlLines reads "key: value" lines as an object, or returns nil.
func yamlLines(t string) map[string]any {
	m := map[string]any{}
	for _, l := range strings.Split(t, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		mm := yamlLine.FindStringSubmatch(l)
		if mm == nil {
			return nil
		}
		m[mm[1]] = strings.Trim(strings.TrimSpace(mm[2]), `"'`)
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

var yamlLine = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.+)$`)

// The fallbacks for a reply without the layout.
var (
	callPattern   = lazyregexp.New(`(?i)\b(play_action|get_map|inventory|memory|valid_actions|look|[a-z]+(?:_[a-z]+)+)\(([^\n]*)`)
	colonCommand  = lazyregexp.New(`(?im)^\s*play_action\s*[:=\-]\s*(.+)$`)
	promptCommand = lazyregexp.New(`(?m)^\s*>\s*([A-Za-z][^\n>]*)$`)
	bareCommand   = lazyregexp.New(`^[A-Za-z][A-Za-z0-9' -]*$`)
)

// commandVerbs are the first words of commands that a reply may consist
// of alone ("north", "take lamp"); a short reply starting otherwise ("I
// dunno") is prose, not a command; "i" is inventory only alone.
var commandVerbs = wordset.New(`look l examine x take get drop open close read go walk enter exit
		inventory i wait z put give ask tell turn light unlock lock push pull move climb attack kill
		eat drink wear remove search listen smell touch say jump pick fill pour cut dig burn break
		throw show insert wave rub knock ring sleep wake score talk hit tie untie follow board
		north south east west northeast northwest southeast southwest up down in out
		n s e w ne nw se sw u d`)

// fallback looks for a call in a reply without the layout, in order:
// name(args), a JSON object naming a tool or holding an action, a
// "play_action: cmd" line, a "> cmd" line, and a reply that is nothing but
// a short command starting with a verb or a direction.
func (p *Parsed) fallback(text string) {
	if m := callPattern.FindStringSubmatchIndex(text); m != nil {
		name := text[m[2]:m[3]]
		inner := text[m[4]:m[5]]
		if j := strings.LastIndexByte(inner, ')'); j >= 0 {
			inner = inner[:j]
		}
		p.Tool = name
		p.readCallArgs(inner)
		return
	}
	if i := strings.IndexByte(text, '{'); i >= 0 && p.jsonCall(text[i:]) {
		return
	}
	if m := colonCommand.FindStringSubmatch(text); m != nil {
		p.Tool, p.Bare = DefaultTool, strings.TrimSpace(m[1])
		p.repair(RepairRegexFallback, strings.TrimSpace(m[0]), p.Bare, "a play_action: line")
		return
	}
	if m := promptCommand.FindStringSubmatch(text); m != nil {
		p.Tool, p.Bare = DefaultTool, strings.TrimSpace(m[1])
		p.repair(RepairRegexFallback, strings.TrimSpace(m[0]), p.Bare, "a > command line")
		return
	}
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(text), "`*\"'“”"))
	t = strings.TrimRight(t, ".!")
	if f := strings.Fields(t); len(f) > 0 && len(f) <= 5 && bareCommand.MatchString(t) &&
		commandVerbs.Has(strings.ToLower(f[0])) && (len(f) == 1 || !strings.EqualFold(f[0], "i")) {
		p.Tool, p.Bare = DefaultTool, t
		p.repair(RepairRegexFallback, clip(text, 40), t, "the reply is a bare command")
	}
}

// jsonCall reads a JSON object that is the whole call: {"tool": ...,
// "args": {...}}, OpenAI's {"name": ..., "arguments": "..."}, or just
// {"action": "take lamp"}.
func (p *Parsed) jsonCall(text string) bool {
	v, fixes, ok := parseLoose(text)
	m, isMap := v.(map[string]any)
	if !ok || !isMap {
		return false
	}
	if f, ok := m["function"].(map[string]any); ok {
		m = f
	}
	name := firstString(m, "tool", "name", "tool_name", "function")
	if name == "" {
		action := firstString(m, "action", "command")
		if action == "" {
			return false
		}
		p.Tool, p.Bare = DefaultTool, action
		p.Thought = firstString(m, "thought", "reasoning")
		p.repair(RepairRegexFallback, clip(text, 40), action, "a JSON object holding an action")
		return true
	}
	for _, f := range fixes {
		p.repair(f.kind, clip(text, 60), "", f.detail)
	}
	p.Tool = name
	p.Thought = firstString(m, "thought", "reasoning")
	p.repair(RepairRegexFallback, clip(text, 40), name, "a JSON object naming the tool")
	for _, k := range []string{"args", "arguments", "parameters", "input"} {
		switch a := m[k].(type) {
		case map[string]any:
			p.Args = a
			return true
		case string:
			p.readValueOrBare(a)
			return true
		}
	}
	return true
}

// readValueOrBare reads s as JSON arguments when it looks like JSON, and
// as a bare command otherwise.
func (p *Parsed) readValueOrBare(s string) {
	t := strings.TrimSpace(s)
	if t != "" && (t[0] == '{' || t[0] == '"' || t[0] == '\'') {
		p.readValue(t)
		return
	}
	p.Bare = t
}

// firstString returns the first of keys that holds a non-empty string.
func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}
