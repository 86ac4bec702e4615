// Package tools is the agent's tool registry: the tools an agent may call,
// described to the model and dispatched by name.
//
// A Tool has a Spec (its name, description and JSON Schema parameters, as a
// model sees them) and a Call. The tools here are the game server's MCP
// tools (GameTools), a notes scratchpad, a wiki lookup over a folder of
// Markdown documents and, for coding agents, read_file, write_file and
// run_shell confined to a workspace. The web search through a configured
// HTTP endpoint is in package
// [github.com/grue-lab/grue/agent/tools/websearch], so that this package
// does not link net/http. A script adds its own by implementing Tool.
//
// Describe renders a registry's tools for a text-protocol prompt, and
// Record keeps every call made through a registry as a []Call, the
// trajectory an evaluation stores.
package tools

import (
	"context"

	"github.com/grue-lab/grue/agent/llm"
)

// Result is what a tool call gave back: text for the model, structured
// content for programs (the game's score, moves, done, ...), and whether the
// tool failed in a way the model should read about.
type Result struct {
	Text       string         `json:"text"`
	Structured map[string]any `json:"structured,omitempty"`
	IsError    bool           `json:"is_error,omitempty"`
}

// Tool is one tool an agent can call. Call's error is for failures the
// model cannot act on (a dead game server, a cancelled context); a tool
// that refuses its arguments returns a Result with IsError set and says
// why in its Text.
type Tool interface {
	Spec() llm.ToolSpec
	Call(ctx context.Context, args map[string]any) (Result, error)
}

// Int returns the structured field key as an int (0 when absent or not a
// number). JSON numbers arrive as float64; ints are accepted too.
func (r Result) Int(key string) int {
	switch v := r.Structured[key].(type) {
	case float64:
		return int(v)
	case int:
		return v
	case int64:
		return int(v)
	}
	return 0
}

// Bool returns the structured field key as a bool (false when absent).
func (r Result) Bool(key string) bool {
	b, _ := r.Structured[key].(bool)
	return b
}

// String returns the structured field key as a string ("" when absent).
func (r Result) String(key string) string {
	s, _ := r.Structured[key].(string)
	return s
}
