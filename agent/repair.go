package agent

import (
	"fmt"
	"maps"

	"slices"
	"sort"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/internal/lazyregexp"
	"github.com/grue-lab/grue/internal/wordset"
)

// Repairs fit a parsed reply to the agent's tools and to what games
// understand: the tool's name, its arguments, the command's spelling and
// verb, and a command repeated once too often. Each change is recorded.

// DefaultVerbs is the verb repair table: a command starting with a key
// (matched on whole words, case-insensitively, longest key first) has it
// replaced by the value. It holds only words that the classic games
// (Infocom's and Inform's libraries) do not understand, or understand as
// something else, and whose meaning is plain: "pick up" and "search" are
// valid in most games and are left alone.
var DefaultVerbs = map[string]string{
	"check":           "examine",
	"inspect":         "examine",
	"investigate":     "examine",
	"observe":         "examine",
	"study":           "examine",
	"look at":         "examine",
	"grab":            "take",
	"snatch":          "take",
	"collect":         "take",
	"look around":     "look",
	"look about":      "look",
	"check inventory": "inventory",
	"show inventory":  "inventory",
	"view inventory":  "inventory",
}

// movementVerbs are verbs models put before a direction ("walk north",
// "head east"); the direction alone is the command every game knows.
var movementVerbs = []string{"go", "walk", "run", "head", "move", "travel", "proceed"}

// directions are the words of the twelve directions, long and short.
var directions = wordset.New(`north south east west northeast northwest southeast southwest
	up down in out n s e w ne nw se sw u d`)

// toolAliases maps names models give tools to the game server's names.
var toolAliases = map[string]string{
	"play": mcp.ToolPlayAction, "action": mcp.ToolPlayAction, "do": mcp.ToolPlayAction,
	"act": mcp.ToolPlayAction, "command": mcp.ToolPlayAction, "cmd": mcp.ToolPlayAction,
	"play_game": mcp.ToolPlayAction, "game": mcp.ToolPlayAction, "execute": mcp.ToolPlayAction,
	"run": mcp.ToolPlayAction, "playaction": mcp.ToolPlayAction, "send_command": mcp.ToolPlayAction,
	"game_action": mcp.ToolPlayAction, "take_action": mcp.ToolPlayAction,
	"map": mcp.ToolGetMap, "getmap": mcp.ToolGetMap, "show_map": mcp.ToolGetMap, "view_map": mcp.ToolGetMap,
	"inv": mcp.ToolInventory, "i": mcp.ToolInventory, "items": mcp.ToolInventory,
	"check_inventory": mcp.ToolInventory, "get_inventory": mcp.ToolInventory,
	"state": mcp.ToolMemory, "status": mcp.ToolMemory, "history": mcp.ToolMemory, "get_memory": mcp.ToolMemory,
	"get_state": mcp.ToolMemory,
	"valid":     mcp.ToolValidActions, "actions": mcp.ToolValidActions, "get_valid_actions": mcp.ToolValidActions,
}

// fitTool returns the tool to call for the name a model gave: the name
// itself when the registry has it, or a repaired name. When name cannot be
// matched to a tool, command is the game command it stands for ("take"
// with {"object": "lamp"} is "take lamp"), or "" when it stands for none.
func fitTool(name string, args map[string]any, bare string, known []string) (tool, rest, command string, reps []Repair) {
	if slices.Contains(known, name) {
		return name, "", "", nil
	}
	norm := strings.ToLower(strings.TrimSpace(name))
	for _, prefix := range []string{"functions.", "function.", "tools.", "tool.", "mcp.", "mcp__", "game."} {
		norm = strings.TrimPrefix(norm, prefix)
	}
	norm = strings.TrimSuffix(norm, "()")
	// "play_action north": a tool's name, then a command.
	if f := strings.Fields(norm); len(f) > 1 {
		if t := matchTool(f[0], known); t != "" {
			rest = strings.Join(strings.Fields(name)[1:], " ")
			return t, rest, "", []Repair{{Kind: RepairToolName, From: name, To: t, Detail: "the tool's name followed by its argument"}}
		}
	}
	if t := matchTool(norm, known); t != "" {
		return t, "", "", []Repair{{Kind: RepairToolName, From: name, To: t}}
	}
	// No such tool: perhaps the model named the command as a tool.
	if cmd := commandFrom(norm, args, bare); cmd != "" && slices.Contains(known, DefaultTool) {
		return DefaultTool, "", cmd, []Repair{{Kind: RepairToolName, From: name, To: DefaultTool,
			Detail: fmt.Sprintf("no tool %q: played %q", name, cmd)}}
	}
	return "", "", "", []Repair{{Kind: RepairToolName, From: name, Detail: "no such tool"}}
}

// matchTool finds the tool norm (lower case) means: by case, by spelling
// with '_' for spaces and dashes, by alias, or by a small typo.
func matchTool(norm string, known []string) string {
	if norm == "" {
		return ""
	}
	under := strings.NewReplacer(" ", "_", "-", "_").Replace(norm)
	for _, k := range known {
		if strings.EqualFold(k, norm) || strings.EqualFold(k, under) {
			return k
		}
	}
	if t, ok := toolAliases[under]; ok && slices.Contains(known, t) {
		return t
	}
	best, bestD, tie := "", 1<<30, false
	for _, k := range known {
		d := editDistance(under, strings.ToLower(k))
		switch {
		case d < bestD:
			best, bestD, tie = k, d, false
		case d == bestD:
			tie = true
		}
	}
	limit := 1
	if len(under) > 6 {
		limit = 2
	}
	if bestD <= limit && !tie {
		return best
	}
	return ""
}

// plainWords matches a command a game might understand: letters, digits,
// spaces, apostrophes and hyphens.
var plainWords = lazyregexp.New(`^[a-z][a-z0-9' -]*$`)

// commandFrom makes a game command of an unknown tool's name and
// arguments, or returns "" when they do not read as one.
func commandFrom(norm string, args map[string]any, bare string) string {
	words := strings.Join(strings.Fields(strings.ReplaceAll(norm, "_", " ")), " ")
	if !plainWords.MatchString(words) || len(strings.Fields(words)) > 4 {
		return ""
	}
	parts := []string{words}
	if bare != "" {
		parts = append(parts, bare)
	}
	// Object-like arguments first, then the rest in name order.
	keys := slices.Sorted(maps.Keys(args))
	sort.SliceStable(keys, func(i, j int) bool { return argRank(keys[i]) < argRank(keys[j]) })
	for _, k := range keys {
		switch v := args[k].(type) {
		case string:
			if strings.TrimSpace(v) != "" {
				parts = append(parts, strings.TrimSpace(v))
			}
		case float64, bool, nil:
			if v != nil {
				parts = append(parts, fmt.Sprint(v))
			}
		default:
			return ""
		}
	}
	cmd := strings.ToLower(strings.Join(parts, " "))
	if !plainWords.MatchString(cmd) || len(strings.Fields(cmd)) > 8 {
		return ""
	}
	return cmd
}

// argRank orders an unknown tool's arguments into a command: the object,
// then what it is used with.
func argRank(k string) int {
	switch strings.ToLower(k) {
	case "action", "command", "verb":
		return 0
	case "object", "item", "target", "noun", "thing", "direction", "dir":
		return 1
	case "preposition", "prep":
		return 2
	case "with", "indirect", "second", "tool", "container", "recipient":
		return 3
	}
	return 4
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// actionKeys are the names models give play_action's argument.
var actionKeys = []string{"action", "command", "cmd", "input", "text", "move", "action_input", "value", "query", "act"}

// fitArgs fits arguments to the tool's parameters: a bare command goes to
// its one string parameter, an argument under another name to the name the
// tool wants.
func fitArgs(spec llm.ToolSpec, args map[string]any, bare string) (map[string]any, []Repair) {
	var reps []Repair
	params, required := schemaParams(spec)
	out := args
	if bare != "" {
		name := ""
		switch {
		case spec.Name == DefaultTool:
			name = "action"
		case len(required) == 1:
			name = required[0]
		case len(params) == 1:
			name = params[0]
		}
		if name == "" {
			reps = append(reps, Repair{Kind: RepairArgs, From: bare, Detail: spec.Name + " takes no such argument: dropped"})
		} else {
			out = maps.Clone(args)
			if out == nil {
				out = map[string]any{}
			}
			out[name] = bare
			reps = append(reps, Repair{Kind: RepairArgs, From: bare, To: fmt.Sprintf("{%q: %q}", name, bare),
				Detail: "bare argument given to " + name})
		}
	}
	if spec.Name == DefaultTool {
		if _, ok := out["action"]; !ok {
			for _, k := range actionKeys[1:] {
				if v, ok := lookupFold(out, k); ok {
					out = maps.Clone(out)
					out["action"] = v
					reps = append(reps, Repair{Kind: RepairArgs, From: k, To: "action", Detail: "argument renamed"})
					break
				}
			}
		}
		if _, ok := out["action"]; !ok && len(out) == 1 {
			for k, v := range out {
				if _, isStr := v.(string); isStr {
					out = map[string]any{"action": v}
					reps = append(reps, Repair{Kind: RepairArgs, From: k, To: "action", Detail: "the one argument taken as the action"})
				}
			}
		}
	}
	return out, reps
}

// lookupFold finds key in m, ignoring case.
func lookupFold(m map[string]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

// schemaParams returns a tool's parameter names, sorted, and its required
// ones in the schema's order.
func schemaParams(spec llm.ToolSpec) (params, required []string) {
	props, _ := spec.Parameters["properties"].(map[string]any)
	params = slices.Sorted(maps.Keys(props))
	switch req := spec.Parameters["required"].(type) {
	case []any:
		for _, v := range req {
			if s, ok := v.(string); ok {
				required = append(required, s)
			}
		}
	case []string:
		required = req
	}
	return params, required
}

// cleanAction tidies a command for the game: one line, no markdown, no
// quotes or prompt sign, single spaces, no trailing full stop.
func cleanAction(action string) (string, []Repair) {
	var reps []Repair
	a := action
	if i := strings.IndexAny(a, "\r\n"); i >= 0 {
		first := strings.TrimSpace(a[:i])
		if first == "" {
			first = strings.TrimSpace(a)
			if j := strings.IndexAny(first, "\r\n"); j >= 0 {
				first = first[:j]
			}
		}
		reps = append(reps, Repair{Kind: RepairArgs, From: clip(a, 60), To: first, Detail: "one command per action: the first line kept"})
		a = first
	}
	md := strings.NewReplacer("**", "", "__", "", "`", "").Replace(a)
	md = strings.TrimSpace(md)
	md = strings.Trim(md, "\"'“”‘’")
	if md != strings.TrimSpace(a) {
		reps = append(reps, Repair{Kind: RepairMarkdown, From: a, To: md})
		a = md
	}
	ws := strings.Join(strings.Fields(a), " ")
	ws = strings.TrimSpace(strings.TrimPrefix(ws, ">"))
	ws = strings.TrimRight(ws, ".!;")
	ws = strings.TrimSpace(ws)
	if ws != a {
		reps = append(reps, Repair{Kind: RepairWhitespace, From: a, To: ws})
		a = ws
	}
	return a, reps
}

// repairVerb applies the verb table and drops a movement verb before a
// direction ("walk north" -> "north").
func repairVerb(action string, verbs map[string]string) (string, *Repair) {
	words := strings.Fields(strings.ToLower(action))
	if len(words) == 0 {
		return action, nil
	}
	if len(words) >= 2 && slices.Contains(movementVerbs, words[0]) {
		rest := words[1:]
		if len(rest) == 3 && rest[0] == "to" && rest[1] == "the" {
			rest = rest[2:]
		} else if len(rest) == 2 && (rest[0] == "to" || rest[0] == "the") {
			rest = rest[1:]
		}
		if len(rest) == 1 && directions.Has(rest[0]) {
			return rest[0], &Repair{Kind: RepairVerb, From: action, To: rest[0], Detail: "a direction needs no verb"}
		}
	}
	best := ""
	for k := range verbs {
		kw := strings.Fields(strings.ToLower(k))
		if len(kw) == 0 || len(kw) > len(words) || !slices.Equal(words[:len(kw)], kw) {
			continue
		}
		if len(k) > len(best) || len(k) == len(best) && k < best {
			best = k
		}
	}
	if best == "" {
		return action, nil
	}
	n := len(strings.Fields(best))
	orig := strings.Fields(action)
	if n > len(orig) {
		return action, nil
	}
	out := strings.TrimSpace(verbs[best] + " " + strings.Join(orig[n:], " "))
	if out == action {
		return action, nil
	}
	return out, &Repair{Kind: RepairVerb, From: action, To: out, Detail: fmt.Sprintf("%q -> %q", best, verbs[best])}
}

// sameCommand reports whether two commands are the same to a game.
func sameCommand(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}
