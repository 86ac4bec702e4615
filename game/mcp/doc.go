// Package mcp serves grue's games over the Model Context Protocol and plays
// any MCP game server: a protocol layer on package
// [github.com/grue-lab/grue/game], which it uses only through its exported
// API.
//
// [Server] is the game server: the tools play_action, memory, get_map,
// inventory, valid_actions, reset_game, new_game, list_games, save_state,
// restore_state and undo (their names are [ToolNames]), over stdio
// ([Server.ServeStdio]) or streamable HTTP (package
// [github.com/grue-lab/grue/game/mcp/mcphttp], mcphttp.Handler), to
// clients of both protocol eras: one game per MCP session (stdio: one per
// process), and for clients without a session (MCP 2026-07-28 over HTTP)
// one per game_id that new_game returns. [Client] is the agent's side: it
// calls grue's own server in process with no serialisation
// ([NewInProcessClient]), or any MCP game server of either era over a
// stdio command ([NewStdioClient]) or streamable HTTP (mcphttp.NewClient).
// What only HTTP has (the handler, its guards, the HTTP client) is in
// mcphttp.
// The protocol itself is github.com/mark3labs/mcp-go, imported here as
// mcpgo.
package mcp
