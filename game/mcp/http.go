package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The HTTP transport's guards: a cap on request bodies and on live
// sessions, the Origin check the MCP specification asks of servers (a web
// page a browser shows must not reach a server on the user's machine
// through DNS rebinding) and bearer-token authentication. See
// docs/security.md ("grue serve").

// Defaults of the HTTP limits; see the With* options.
const (
	DefaultMaxBody     = 1 << 20 // bytes of one request body
	DefaultMaxSessions = 1000    // live HTTP sessions
	DefaultUndoDepth   = 100     // play_action steps undo can take back
	DefaultStoryCache  = 16      // stories kept loaded
)

// sessionIDs issues, checks and ends the HTTP session IDs (mcp-go's
// SessionIdManager), remembering when each live one was last used so that
// the reaper finds idle ones without touching any game. An ended or
// unknown ID is simply absent: mcp-go answers 404 for it.
//
// It also keeps the session cap. A request that may start a session
// first reserves a slot (reserve); the slot becomes the session when
// mcp-go asks for its ID, or is given back when the request ends without
// one. Live sessions and reserved slots together never pass max, so a
// burst of concurrent initialize requests cannot make more sessions than
// the cap.
type sessionIDs struct {
	mu       sync.Mutex
	max      int
	live     map[string]time.Time
	reserved int // slots held by requests in flight that have no session yet
}

func newSessionIDs(max int) *sessionIDs {
	return &sessionIDs{max: max, live: map[string]time.Time{}}
}

// slot is a place in the session table held by one request, until it
// becomes that request's session or the request ends (release).
type slot struct {
	ids  *sessionIDs
	done bool // it became a session or was released; guarded by ids.mu
}

// reserve takes a slot for a request that may start a session, or
// returns nil when live sessions and reserved slots fill the table.
func (m *sessionIDs) reserve() *slot {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.live)+m.reserved >= m.max {
		return nil
	}
	m.reserved++
	return &slot{ids: m}
}

// release gives the slot back unless it became a session.
func (sl *slot) release() {
	sl.ids.mu.Lock()
	defer sl.ids.mu.Unlock()
	if !sl.done {
		sl.done = true
		sl.ids.reserved--
	}
}

// generate makes a new, unguessable session ID and makes it live in
// sl's place. Without a slot (or with one already used) the ID is live
// only if the table has room: otherwise it names no session, and every
// request that carries it gets 404, so the cap holds whatever path
// mcp-go took to ask for an ID.
func (m *sessionIDs) generate(sl *slot) string {
	id := "grue-" + rand.Text()
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case sl != nil && !sl.done:
		sl.done = true
		m.reserved--
		m.live[id] = time.Now()
	case len(m.live)+m.reserved < m.max:
		m.live[id] = time.Now()
	}
	return id
}

// Generate makes a new session ID with no slot reserved (see generate).
func (m *sessionIDs) Generate() string { return m.generate(nil) }

// Validate accepts a live ID and marks it used.
func (m *sessionIDs) Validate(id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.live[id]; !ok {
		return false, errors.New("unknown or ended session")
	}
	m.live[id] = time.Now()
	return false, nil
}

// Terminate ends an ID.
func (m *sessionIDs) Terminate(id string) (bool, error) {
	m.mu.Lock()
	delete(m.live, id)
	m.mu.Unlock()
	return false, nil
}

func (m *sessionIDs) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.live)
}

// idle ends and returns the IDs unused since before cutoff.
func (m *sessionIDs) idle(cutoff time.Time) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for id, t := range m.live {
		if t.Before(cutoff) {
			delete(m.live, id)
			out = append(out, id)
		}
	}
	return out
}

// slotKey carries a request's reserved session slot in its context, from
// the guard to the session ID manager mcp-go resolves for the request.
type slotKey struct{}

// idResolver gives mcp-go, for each request, a session ID manager that
// turns the request's reserved slot (if any) into the session it starts.
type idResolver struct{ ids *sessionIDs }

// ResolveSessionIdManager returns the manager of r (nil r: the idle
// sweeper's, with no slot).
func (res idResolver) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	var sl *slot
	if r != nil {
		sl, _ = r.Context().Value(slotKey{}).(*slot)
	}
	return requestIDs{sessionIDs: res.ids, slot: sl}
}

// requestIDs is the session ID manager of one request: IDs are checked
// and ended as by [sessionIDs], and a new one takes the request's slot.
type requestIDs struct {
	*sessionIDs
	slot *slot
}

// Generate makes the request's new session ID in its reserved slot.
func (m requestIDs) Generate() string { return m.generate(m.slot) }

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
	_ = json.NewEncoder(w).Encode(rpcError(nil, code, msg)) // the client went away: nothing to tell
}

// guard wraps the MCP handler with the checks every HTTP request passes
// before mcp-go sees it: Origin, token, body size and session count.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !OriginAllowed(origin, s.cfg.origins) {
			httpError(w, http.StatusForbidden, codeInvalidRequest, "Forbidden: origin "+origin+" is not allowed (see grue serve --allow-origin)")
			return
		}
		if s.cfg.token != "" && !TokenOK(r.Header.Get("Authorization"), s.cfg.token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="grue"`)
			httpError(w, http.StatusUnauthorized, codeInvalidRequest, "Unauthorized: send the server's token as Authorization: Bearer TOKEN")
			return
		}
		if !s.readBody(w, r) {
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
			sl := s.ids.reserve()
			if sl == nil {
				w.Header().Set("Retry-After", "60")
				httpError(w, http.StatusServiceUnavailable, codeServerBusy, fmt.Sprintf(
					"Service Unavailable: %d live sessions, the limit (grue serve --max-sessions): retry once idle sessions have ended", s.cfg.maxSessions))
				return
			}
			defer sl.release()
			r = r.WithContext(context.WithValue(r.Context(), slotKey{}, sl))
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
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) bool {
	if r.ContentLength > s.cfg.maxBody {
		s.tooLarge(w)
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.maxBody)
	if r.Method != http.MethodPost {
		return true
	}
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		s.tooLarge(w)
		return false
	case err != nil:
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "Bad Request: reading the request body: "+err.Error())
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// tooLarge answers 413 for a body over the server's limit.
func (s *Server) tooLarge(w http.ResponseWriter) {
	httpError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf(
		"Payload Too Large: the request body is over the limit of %d bytes (grue serve --max-body)", s.cfg.maxBody))
}

// TokenOK compares the bearer token of an Authorization header
// ("Bearer TOKEN") with want in constant time: the check grue serve
// --http (and grue web) makes off loopback.
func TokenOK(header, want string) bool {
	got, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(want)) == 1
}

// OriginAllowed reports whether a browser page of origin (an Origin
// header) may call a grue server: a page served from this machine
// (localhost, 127.0.0.0/8, ::1) or one of the origins in allowed
// (WithAllowedOrigins). It is the guard against DNS rebinding.
func OriginAllowed(origin string, allowed []string) bool {
	for _, o := range allowed {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether host (a name or an IP address, without a
// port) is this machine's loopback: "localhost" or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// NewToken makes a random bearer token for a server that needs one.
func NewToken() string {
	return rand.Text()
}
