package mcp

import (
	"context"
	"fmt"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/server"
)

// HTTPSide is the part of a [Server] that its streamable HTTP transport,
// package [github.com/grue-lab/grue/game/mcp/mcphttp], works with: the
// mcp-go server, the session table, the limits and the idle reaper.
// Other code has no use for it.
type HTTPSide struct{ s *Server }

// HTTPSide returns the server's side of its HTTP transport.
func (s *Server) HTTPSide() HTTPSide { return HTTPSide{s} }

// MCPServer returns the mcp-go server the transport serves.
func (h HTTPSide) MCPServer() *server.MCPServer { return h.s.mcpServer() }

// Limits are the guards' settings: see [WithMaxBody], [WithMaxSessions],
// [WithToken] and [WithAllowedOrigins].
type Limits struct {
	MaxBody     int64
	MaxSessions int
	Token       string   // "" when requests need none
	Origins     []string // besides the loopback ones
}

// Limits returns the server's limits.
func (h HTTPSide) Limits() Limits {
	c := h.s.cfg
	return Limits{MaxBody: c.maxBody, MaxSessions: c.maxSessions, Token: c.token, Origins: c.origins}
}

// Reap makes the server end HTTP sessions, and games named by game_id,
// idle for longer than idle (from the first call on; later calls change
// nothing but the idle time of game_id handles).
func (h HTTPSide) Reap(idle time.Duration) {
	s := h.s
	s.mu.Lock()
	start := !s.reaping
	s.reaping = true
	s.gameIdle = idle
	s.mu.Unlock()
	if start {
		go s.reap(idle)
	}
}

// SessionIDs issues, checks and ends the HTTP session IDs: it is mcp-go's
// SessionIdManager. A new ID takes the place reserved for the request
// (see [HTTPSide.Reserve]), if any; without one it names a session only
// when the table has room, so that the session cap holds whichever way
// mcp-go asks for an ID.
type SessionIDs struct {
	ids  *sessionIDs
	slot *slot
}

// SessionIDs returns the session ID manager of a request that reserved no
// place (and the idle sweeper's).
func (h HTTPSide) SessionIDs() SessionIDs { return SessionIDs{ids: h.s.ids} }

// Reserve holds a place in the session table for a request that may start
// a session, and returns the request's session ID manager, which turns the
// place into the session, and release, which gives the place back unless
// it became a session (call it when the request ends). ok is false when
// live sessions and reserved places fill the table.
func (h HTTPSide) Reserve() (ids SessionIDs, release func(), ok bool) {
	sl := h.s.ids.reserve()
	if sl == nil {
		return SessionIDs{}, nil, false
	}
	return SessionIDs{ids: h.s.ids, slot: sl}, sl.release, true
}

// Generate makes a new, unguessable session ID.
func (m SessionIDs) Generate() string { return m.ids.generate(m.slot) }

// Validate accepts a live ID and marks it used; an unknown or ended one is
// an error (mcp-go answers 404).
func (m SessionIDs) Validate(id string) (bool, error) { return m.ids.validate(id) }

// Terminate ends an ID.
func (m SessionIDs) Terminate(id string) (bool, error) { return m.ids.terminate(id) }

// NewRemoteClient makes a Client of an mcp-go client that has started its
// transport (package mcphttp's is streamable HTTP): it connects in the era
// of version ("" negotiates the newest both sides speak; see
// [mcphttp.WithProtocolVersion]) and, on a connection without a session
// to a server that issues game handles, starts a game of the client's
// own. name says where the server is, in errors. On error cl is closed;
// an error of the connection itself is an [*InitializeError].
//
// [mcphttp.WithProtocolVersion]: https://pkg.go.dev/github.com/grue-lab/grue/game/mcp/mcphttp#WithProtocolVersion
func NewRemoteClient(ctx context.Context, cl *mcpclient.Client, name, version string) (*Client, error) {
	if err := Initialize(ctx, cl, version); err != nil {
		cl.Close()
		return nil, &InitializeError{Name: name, Err: err}
	}
	c := &Client{remote: cl, url: name, version: cl.ProtocolVersion()}
	if err := c.takeGame(ctx); err != nil {
		cl.Close()
		return nil, fmt.Errorf("MCP server at %s: %w", name, err)
	}
	return c, nil
}

// InitializeError is [NewRemoteClient]'s error when the connection itself
// failed (server/discover and initialize), which a transport may explain
// better than mcp-go does.
type InitializeError struct {
	Name string // where the server is
	Err  error
}

func (e *InitializeError) Error() string { return fmt.Sprintf("MCP server at %s: %v", e.Name, e.Err) }

func (e *InitializeError) Unwrap() error { return e.Err }
