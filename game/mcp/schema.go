package mcp

import (
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Tools' input schemas. A schema built with mcp-go's helpers
// (mcpgo.WithString and the like) is a tree of Go values that mcp-go's
// AddTools turns into JSON and back to check its header annotations, and
// that the in-process client's tool list turned into JSON and back again:
// most of the start-up work of grue serve and grue agent besides package
// initialisation (docs/performance.md). Each tool's schema is written as
// JSON once, when the server is made (mcpgo.Tool.RawInputSchema), laid out
// as those helpers laid it out.

// param is one argument of a tool: its JSON type, what it is, and whether
// a call must give it.
type param struct {
	typ, desc string
	required  bool
}

// gameIDParam is the optional game_id argument of the tools that play a
// game (see handles.go).
var gameIDParam = param{typ: "string", desc: "the game to play, as new_game or reset_game returned it; leave it out to play " +
	"this MCP session's game (a client without a session, protocol 2026-07-28 over HTTP, must give it)"}

// withGameID adds the optional game_id argument to params (a copy).
func withGameID(params map[string]param) map[string]param {
	params = maps.Clone(params)
	if params == nil {
		params = map[string]param{}
	}
	params[gameIDArg] = gameIDParam
	return params
}

// setParams makes t's input schema an object of params, by name, written
// as JSON: {"properties":{NAME:{"description":...,"type":...},...},
// "required":[NAME,...],"type":"object"}, names sorted.
func setParams(t *mcpgo.Tool, params map[string]param) {
	names := slices.Sorted(maps.Keys(params))
	b := []byte(`{"properties":{`)
	var required []string
	for i, name := range names {
		p := params[name]
		if i > 0 {
			b = append(b, ',')
		}
		b = quote(b, name)
		b = append(b, `:{"description":`...)
		b = quote(b, p.desc)
		b = append(b, `,"type":`...)
		b = quote(b, p.typ)
		b = append(b, '}')
		if p.required {
			required = append(required, name)
		}
	}
	b = append(b, `},"required":[`...)
	for i, name := range required {
		if i > 0 {
			b = append(b, ',')
		}
		b = quote(b, name)
	}
	b = append(b, `],"type":"object"}`...)
	t.InputSchema = mcpgo.ToolInputSchema{}
	t.RawInputSchema = b
}

// paramsSchema is the schema setParams writes for params, as encoding/json
// decodes it into an any: what an in-process client reads instead of
// decoding each tool's JSON (that was a tenth of grue agent's start, in
// machine instructions). TestParamsSchemaIsTheJSON holds the two equal.
func paramsSchema(params map[string]param) map[string]any {
	props := make(map[string]any, len(params))
	required := []any{}
	for _, name := range slices.Sorted(maps.Keys(params)) {
		p := params[name]
		props[name] = map[string]any{"description": p.desc, "type": p.typ}
		if p.required {
			required = append(required, name)
		}
	}
	return map[string]any{"properties": props, "required": required, "type": "object"}
}

// quote appends s to b as a JSON string: as it is, between quotes, when it
// is printable ASCII with no quote or backslash (jsontext.AppendQuote's
// general case was 4 % of grue agent's start in machine instructions).
func quote(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	b, err := jsontext.AppendQuote(b, s)
	if err != nil {
		// Only invalid UTF-8 fails, and grue's own texts are valid.
		panic("game server: tool schema: " + err.Error())
	}
	return b
}
