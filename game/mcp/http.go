package mcp

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
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
type sessionIDs struct {
	mu   sync.Mutex
	live map[string]time.Time
}

func newSessionIDs() *sessionIDs { return &sessionIDs{live: map[string]time.Time{}} }

// Generate makes a new, unguessable session ID.
func (m *sessionIDs) Generate() string {
	id := "grue-" + rand.Text()
	m.mu.Lock()
	m.live[id] = time.Now()
	m.mu.Unlock()
	return id
}

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

// guard wraps the MCP handler with the checks every HTTP request passes
// before mcp-go sees it: Origin, token, body size and session count.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !OriginAllowed(origin, s.cfg.origins) {
			http.Error(w, "Forbidden: origin "+origin+" is not allowed (see grue serve --allow-origin)", http.StatusForbidden)
			return
		}
		if s.cfg.token != "" && !TokenOK(r.Header.Get("Authorization"), s.cfg.token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="grue"`)
			http.Error(w, "Unauthorized: send the server's token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		if r.ContentLength > s.cfg.maxBody {
			http.Error(w, "Request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.maxBody)
		// Only a legacy request without a session ID can start a session:
		// a request of protocol 2026-07-28 never does (its games are
		// capped in new_game).
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" &&
			!mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion)) && s.ids.count() >= s.cfg.maxSessions {
			w.Header().Set("Retry-After", "60")
			http.Error(w, "Service Unavailable: too many live sessions", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
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
