package mcp

import (
	"context"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// The names of the tools grue's server offers. Code that calls a tool by
// name (the agent, the harness, the web server) uses these.
const (
	ToolPlayAction   = "play_action"
	ToolMemory       = "memory"
	ToolGetMap       = "get_map"
	ToolInventory    = "inventory"
	ToolValidActions = "valid_actions"
	ToolResetGame    = "reset_game"
	ToolNewGame      = "new_game"
	ToolListGames    = "list_games"
	ToolSaveState    = "save_state"
	ToolRestoreState = "restore_state"
	ToolUndo         = "undo"
)

// toolSpec is one tool of grue's server: the one list of them, which the
// server registers and [ToolNames] reads. A new tool is its handler and
// one entry in toolSpecs.
type toolSpec struct {
	name, desc string
	// readOnly marks a tool that changes nothing (MCP's readOnlyHint).
	readOnly bool
	// params are the tool's arguments; a game tool also takes game_id.
	params map[string]param
	// game handles a call of a game tool, on the game the call names (its
	// game_id) or else on the calling session's, which it holds locked.
	game func(s *Server, ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult
	// own handles a call of a tool that finds its game itself (or needs
	// none); its params are all it takes.
	own func(s *Server, ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult
}

// toolSpecs returns the server's tools in the order it registers them.
func toolSpecs() []toolSpec {
	gameAndSeed := func(game string) map[string]param {
		return map[string]param{
			"game": {typ: "string", desc: game},
			"seed": {typ: "number", desc: "seed of the game's random numbers (default: the server's)"},
		}
	}
	return []toolSpec{
		{name: ToolPlayAction, game: (*Server).playAction,
			desc:   "Send one command to the game (\"open mailbox\", \"north\", \"take lamp\") and get its reply, with the score and moves.",
			params: map[string]param{"action": {typ: "string", desc: "the command to type", required: true}}},
		{name: ToolMemory, readOnly: true, game: (*Server).memory,
			desc: "The current state: location, score, moves, game, the last actions with their results, and the current observation."},
		{name: ToolGetMap, readOnly: true, game: (*Server).getMap,
			desc: "The locations explored so far and the exits taken between them."},
		{name: ToolInventory, readOnly: true, game: (*Server).inventory,
			desc: "What the player carries, read from the game's object tree (it costs no move)."},
		{name: ToolValidActions, readOnly: true, game: (*Server).validActions,
			desc: "Commands that change the world from the current state."},
		{name: ToolResetGame, own: (*Server).resetGame,
			desc: "Start a game again from the beginning: this game, or another one by name (see list_games). " +
				"Its result gives the game's game_id; without a session or a game_id it starts a new game, as new_game.",
			params: withGameID(gameAndSeed("the game to start (default: the current one)"))},
		{name: ToolNewGame, own: (*Server).newGameTool,
			desc: "Start a new game of your own and get its game_id, to pass to every other tool. " +
				"A client without an MCP session (protocol 2026-07-28) starts here.",
			params: gameAndSeed("the game to start (default: the server's; see list_games)")},
		{name: ToolListGames, readOnly: true, own: (*Server).listGames,
			desc: "The games this server can start."},
		{name: ToolSaveState, game: (*Server).saveState,
			desc:   "Save the game's state under a name, to come back to it with restore_state.",
			params: map[string]param{"name": {typ: "string", desc: "letters, digits, '.', '_' or '-', at most 64", required: true}}},
		{name: ToolRestoreState, game: (*Server).restoreState,
			desc:   "Go back to a state saved with save_state.",
			params: map[string]param{"name": {typ: "string", desc: "the name given to save_state", required: true}}},
		{name: ToolUndo, game: (*Server).undo,
			desc: "Take back the last play_action."},
	}
}

// ToolNames returns the names of the tools grue's server offers, sorted:
// what [Client.Tools] lists for grue's server, known without starting one.
func ToolNames() []string {
	var names []string
	for _, t := range toolSpecs() {
		names = append(names, t.name)
	}
	slices.Sort(names)
	return names
}

// ChangesGame reports whether grue's tool name changes the game (it is not
// read-only): what replaying an episode must call again. It is false for
// a name grue's server does not have.
func ChangesGame(name string) bool {
	i := slices.IndexFunc(toolSpecs(), func(t toolSpec) bool { return t.name == name })
	return i >= 0 && !toolSpecs()[i].readOnly
}

// addTools registers toolSpecs' tools.
func (s *Server) addTools() {
	for _, t := range toolSpecs() {
		opts := []mcpgo.ToolOption{mcpgo.WithDescription(t.desc)}
		if t.readOnly {
			opts = append(opts, mcpgo.WithReadOnlyHintAnnotation(true), mcpgo.WithDestructiveHintAnnotation(false))
		}
		tool := mcpgo.NewTool(t.name, opts...)
		if t.game != nil {
			s.tool(tool, t.params, func(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
				return t.game(s, ctx, ss, req)
			})
		} else {
			s.addTool(tool, t.params, func(ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
				return t.own(s, ctx, req)
			})
		}
	}
}
