// Package mcphttp is the streamable HTTP transport of grue's MCP game
// server and client (package [github.com/grue-lab/grue/game/mcp]): [Handler]
// serves a [mcp.Server] at /mcp, behind its guards, and [NewClient] plays any
// MCP game server over streamable HTTP, in either protocol era.
//
// It is a package of its own so that package mcp holds what every transport
// shares (the tools, the session table, the limits) and this one what only
// HTTP has. Both are on upstream mcp-go's server and client packages.
//
// Its tests are package mcp's HTTP tests (sessions, both protocol eras,
// the guards, the interop with the TypeScript SDK and the Inspector), which
// reach Handler and NewClient through game/mcp/mcphttp_test.go.
package mcphttp

import (
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Handler serves s over the streamable HTTP transport at /mcp, to clients
// of both protocol eras. Session IDs are issued on initialize and checked
// on every later request (an unknown or ended one gets 404); a request of
// protocol 2026-07-28 has no session and names its game with a game_id. A
// session, or a game_id's game, idle for longer than idle (when idle > 0)
// is ended and its game dropped. Every request first passes the server's
// guards: Origin (403), token (401), body size (413) and, for a new
// session, the session cap (503); see [mcp.WithToken],
// [mcp.WithAllowedOrigins], [mcp.WithMaxBody] and [mcp.WithMaxSessions].
func Handler(s *mcp.Server, idle time.Duration) http.Handler {
	side := s.HTTPSide()
	opts := []server.StreamableHTTPOption{
		server.WithEndpointPath("/mcp"),
		server.WithSessionIdManagerResolver(idResolver{side}),
		// mcp-go logs each expired session at INFO on stderr: keep only
		// warnings and errors.
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	}
	if idle > 0 {
		opts = append(opts, server.WithSessionIdleTTL(idle))
		side.Reap(idle)
	}
	h := server.NewStreamableHTTPServer(side.MCPServer(), opts...)
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(side, h))
	return mux
}
