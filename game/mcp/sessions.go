package mcp

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The HTTP transport's session table, limits and the checks its guards
// make (Origin, bearer token): the parts that do not need net/http. The
// transport itself, and the guards that answer HTTP requests, are package
// [github.com/grue-lab/grue/game/mcp/mcphttp]. See docs/security.md
// ("grue serve").

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

// validate accepts a live ID and marks it used.
func (m *sessionIDs) validate(id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.live[id]; !ok {
		return false, errors.New("unknown or ended session")
	}
	m.live[id] = time.Now()
	return false, nil
}

// terminate ends an ID.
func (m *sessionIDs) terminate(id string) (bool, error) {
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
