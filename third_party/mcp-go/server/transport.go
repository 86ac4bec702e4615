package server

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// grue: the HTTP transports (SSE and Streamable HTTP) live in package
// serverhttp, so that a program serving MCP over stdio or in process does
// not link net/http (whose initialisation, with crypto/tls's, every process
// that links it pays at start-up). These are the parts of an MCPServer's
// insides that the transports use, exported for them; upstream has them
// unexported in one package.

// ClientInfoStore keeps a session's client info, capabilities and
// protocol version; a transport's session type embeds it to implement
// [SessionWithClientInfo].
type ClientInfoStore = clientInfoStore

// ContextWithRequestHeader returns ctx carrying the headers of the HTTP
// request that brought a message, for the handlers, hooks, logging and
// tracing that read them (a request's Header field).
func ContextWithRequestHeader(ctx context.Context, h map[string][]string) context.Context {
	return context.WithValue(ctx, requestHeader, mcp.Header(h))
}

// NewErrorResponse returns the JSON-RPC error response to the request id.
func NewErrorResponse(id any, code int, message string) mcp.JSONRPCMessage {
	return createErrorResponse(id, code, message)
}

// RegisterListenSession makes a session serving a subscriptions/listen
// stream reachable by the notifications the server broadcasts; it is for
// transports that serve each modern request with an ephemeral session they
// never register. It fires no session hooks.
func (s *MCPServer) RegisterListenSession(session ClientSession) { s.registerListenSession(session) }

// UnregisterListenSession undoes [MCPServer.RegisterListenSession].
func (s *MCPServer) UnregisterListenSession(session ClientSession) {
	s.unregisterListenSession(session)
}

// LookupSession returns the registered session with the ID, if any.
func (s *MCPServer) LookupSession(sessionID string) (ClientSession, bool) {
	v, ok := s.sessions.Load(sessionID)
	if !ok {
		return nil, false
	}
	cs, ok := v.(ClientSession)
	return cs, ok
}
