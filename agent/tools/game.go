package tools

import (
	"context"
	"fmt"
	"maps"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/game/mcp"
)

// GameTool is one of a game server's MCP tools (play_action, memory,
// get_map, ...) as an agent's Tool. Its Spec is what the server says about
// the tool; its Call forwards to the server through Client.
type GameTool struct {
	Info   mcp.ToolInfo
	Client *mcp.Client
}

// Spec returns the server's name, description and argument schema.
func (t *GameTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: t.Info.Name, Description: t.Info.Description, Parameters: t.Info.InputSchema}
}

// Call calls the tool on the server. A tool that fails (an empty action,
// a game that is over, an unknown state name) gives a Result with IsError
// set and the server's words in Text; a call that never reached the tool
// (a dead server, a broken connection) is an error. Structured content
// (observation, score, max_score, moves, reward, done, victory, location)
// passes through as the server sent it: numbers are float64.
func (t *GameTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	if args == nil {
		args = map[string]any{}
	}
	r, err := t.Client.CallTool(ctx, t.Info.Name, args)
	if err != nil {
		return Result{}, err
	}
	return Result{Text: r.Text, Structured: r.Structured, IsError: r.IsError}, nil
}

// GameTools returns the server's tools as Tools. With no names it returns
// all of them, sorted by name; with names, those tools in that order (the
// earlier Python agent uses "play_action", "memory", "get_map", "inventory"),
// and a name the server lacks is an error that lists the ones it has.
func GameTools(ctx context.Context, c *mcp.Client, names ...string) ([]Tool, error) {
	infos, err := c.ToolInfos(ctx)
	if err != nil {
		return nil, fmt.Errorf("game tools: %w", err)
	}
	byName := map[string]mcp.ToolInfo{}
	var all []string
	for _, in := range infos {
		byName[in.Name] = in
		all = append(all, in.Name)
	}
	if len(names) == 0 {
		names = all
	}
	ts := make([]Tool, 0, len(names))
	for _, n := range names {
		in, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("game tools: the server has no tool %q (it has: %v)", n, all)
		}
		in.InputSchema = maps.Clone(in.InputSchema)
		ts = append(ts, &GameTool{Info: in, Client: c})
	}
	return ts, nil
}

// NewGameRegistry returns a Registry holding the server's tools (all of
// them, or those named, as GameTools).
func NewGameRegistry(ctx context.Context, c *mcp.Client, names ...string) (*Registry, error) {
	ts, err := GameTools(ctx, c, names...)
	if err != nil {
		return nil, err
	}
	r := &Registry{}
	for _, t := range ts {
		if err := r.Add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}
