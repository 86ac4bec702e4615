package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/grue-lab/grue/game/mcp"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// idsKey carries, in a request's context, the session ID manager of the
// place the guard reserved for it in the session table.
type idsKey struct{}

// idResolver gives mcp-go, for each request, a session ID manager that
// turns the request's reserved place (if any) into the session it starts.
type idResolver struct{ side mcp.HTTPSide }

// ResolveSessionIdManager returns the manager of r (nil r: the idle
// sweeper's, with no place reserved).
func (res idResolver) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	if r != nil {
		if ids, ok := r.Context().Value(idsKey{}).(mcp.SessionIDs); ok {
			return ids
		}
	}
	return res.side.SessionIDs()
}

// The JSON-RPC error codes of the guards' answers: the request is refused
// before it is read as JSON-RPC, so no method of it ran.
const (
	codeInvalidRequest = mcpgo.INVALID_REQUEST // origin, token, size, a GET without a session
	codeServerBusy     = -32000                // the session table is full (implementation-defined server error)
)

// httpError answers status with a JSON-RPC error (id null) saying msg,
// as a JSON-RPC client can read it.
func httpError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct { // the client went away: nothing to tell
		JSONRPC string                    `json:"jsonrpc"`
		ID      any                       `json:"id"`
		Error   mcpgo.JSONRPCErrorDetails `json:"error"`
	}{mcpgo.JSONRPC_VERSION, nil, mcpgo.NewJSONRPCErrorDetails(code, msg, nil)})
}

// guard wraps the MCP handler with the checks every HTTP request passes
// before mcp-go sees it: Origin, token, body size and session count.
func guard(side mcp.HTTPSide, next http.Handler) http.Handler {
	lim := side.Limits()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !mcp.OriginAllowed(origin, lim.Origins) {
			httpError(w, http.StatusForbidden, codeInvalidRequest, "Forbidden: origin "+origin+" is not allowed (see grue serve --allow-origin)")
			return
		}
		if lim.Token != "" && !mcp.TokenOK(r.Header.Get("Authorization"), lim.Token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="grue"`)
			httpError(w, http.StatusUnauthorized, codeInvalidRequest, "Unauthorized: send the server's token as Authorization: Bearer TOKEN")
			return
		}
		if !readBody(w, r, lim.MaxBody) {
			return
		}
		sessionless := r.Header.Get("Mcp-Session-Id") == ""
		if r.Method == http.MethodGet && sessionless {
			// mcp-go would mint a session ID for the stream, outside the
			// cap and never ended: a stream belongs to a session.
			httpError(w, http.StatusBadRequest, codeInvalidRequest, "Bad Request: a GET stream needs the Mcp-Session-Id of a session (initialize first)")
			return
		}
		// Only a legacy POST without a session ID can start a session: a
		// request of protocol 2026-07-28 never does (its games are capped
		// in new_game). It holds a slot until it ends.
		if r.Method == http.MethodPost && sessionless && !mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion)) {
			ids, release, ok := side.Reserve()
			if !ok {
				w.Header().Set("Retry-After", "60")
				httpError(w, http.StatusServiceUnavailable, codeServerBusy, fmt.Sprintf(
					"Service Unavailable: %d live sessions, the limit (grue serve --max-sessions): retry once idle sessions have ended", lim.MaxSessions))
				return
			}
			defer release()
			r = r.WithContext(context.WithValue(r.Context(), idsKey{}, ids))
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads a POST's whole body, at most the server's limit, before
// mcp-go sees it, and hands it on as r.Body. A body over the limit is
// answered 413, whether its length was announced (Content-Length, refused
// unread) or not (chunked: refused once the limit is passed, the rest
// never read); so is one that cannot be read (400). It returns whether
// the request goes on. Other methods' bodies are only capped.
func readBody(w http.ResponseWriter, r *http.Request, maxBody int64) bool {
	if r.ContentLength > maxBody {
		tooLarge(w, maxBody)
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if r.Method != http.MethodPost {
		return true
	}
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		tooLarge(w, maxBody)
		return false
	case err != nil:
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "Bad Request: reading the request body: "+err.Error())
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// tooLarge answers 413 for a body over the server's limit.
func tooLarge(w http.ResponseWriter, maxBody int64) {
	httpError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf(
		"Payload Too Large: the request body is over the limit of %d bytes (grue serve --max-body)", maxBody))
}
