package web

import (
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/game/mcp"
)

// TokenHeader is the header the page sends the token in (as Jupyter's
// X-XSRFToken): a page of another origin cannot set it without the
// server's leave (a CORS preflight, never granted), and cannot know its
// value.
const TokenHeader = "X-Grue-Token"

// guard checks what every request must pass before a handler sees it:
//
//   - its Host is one the server listens as (DNS rebinding: a name that
//     resolves to 127.0.0.1 is not this server's name);
//   - its Origin, when a browser sends one, is exactly the server's own
//     (scheme, host and port) or an allowed one: a page on another port
//     of this machine is another origin;
//   - an API request carries the token when there is one, in a header
//     (or, for a GET, the query), never in a cookie;
//   - a request that changes anything (any method but GET and HEAD)
//     says its body is JSON (Content-Type: application/json; a story's
//     upload application/octet-stream), which a form or a no-cors fetch
//     of another page cannot send;
//   - and its body is not over the limit (checked before its type, so
//     that an upload too large says so whatever its type).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostOK(r) {
			writeError(w, http.StatusForbidden, "Host", "host %q is not this server's: open it as http://127.0.0.1:PORT/ or http://localhost:PORT/ (see grue web --addr)", r.Host)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !s.originOK(r, origin) {
			writeError(w, http.StatusForbidden, "Origin", "origin %s is not this server's (see grue web --allow-origin)", origin)
			return
		}
		api := strings.HasPrefix(r.URL.Path, "/api/")
		if api && s.opts.Token != "" && !s.tokenOK(w, r) {
			return
		}
		if r.ContentLength > s.opts.MaxBody {
			tooLarge(w, s.opts.MaxBody)
			return
		}
		if api && r.Method != http.MethodGet && r.Method != http.MethodHead && !contentTypeOK(r) {
			want := "application/json"
			if r.URL.Path == "/api/games" {
				want = "application/octet-stream"
			}
			w.Header().Set("Connection", "close") // the body is not read
			writeError(w, http.StatusUnsupportedMediaType, "Content-Type", "%s %s wants Content-Type: %s, not %q", r.Method, r.URL.Path, want, r.Header.Get("Content-Type"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
		next.ServeHTTP(w, r)
	})
}

// contentTypeOK reports whether a request that changes something names
// the media type its endpoint takes: JSON, or a story's bytes for an
// upload. Neither is one a page of another origin can send without a
// CORS preflight (text/plain, forms).
func contentTypeOK(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return false
	}
	if r.URL.Path == "/api/games" && r.Method == http.MethodPost {
		return mt == "application/octet-stream"
	}
	return mt == "application/json"
}

// hostOK reports whether r's Host header names this server: localhost,
// a loopback or unspecified address or the address the request came in
// on, or a name of Options.Hosts, with the port the request came in on;
// or the host of an allowed origin.
func (s *Server) hostOK(r *http.Request) bool {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, ""
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	for _, o := range s.opts.AllowedOrigins {
		if h := originHost(o); h != "" && strings.EqualFold(h, host) {
			return true
		}
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if local != nil {
		want := strconv.Itoa(local.Port)
		if port == "" {
			port = "80"
			if r.TLS != nil {
				port = "443"
			}
		}
		if port != want {
			return false
		}
	}
	// An address is no name a rebinding page can give itself: loopback's,
	// the unspecified one a server on all interfaces prints, and the
	// one the request came in on are this server's.
	ip := net.ParseIP(host)
	switch {
	case host == "localhost":
		return true
	case ip != nil && (ip.IsLoopback() || ip.IsUnspecified() || (local != nil && ip.Equal(local.IP))):
		return true
	}
	for _, h := range s.opts.Hosts {
		if strings.EqualFold(strings.Trim(h, "[]"), host) {
			return true
		}
	}
	return false
}

// originHost is the host (no port) of an origin, "" when it has none.
func originHost(origin string) string {
	_, rest, ok := strings.Cut(origin, "://")
	if !ok {
		return ""
	}
	rest, _, _ = strings.Cut(rest, "/")
	if h, _, err := net.SplitHostPort(rest); err == nil {
		return strings.Trim(h, "[]")
	}
	return rest
}

// originOK reports whether origin is the server's own, exactly: the
// request's scheme and its Host (checked by hostOK), port included; or
// one of Options.AllowedOrigins.
func (s *Server) originOK(r *http.Request, origin string) bool {
	origin = strings.ToLower(strings.TrimSuffix(origin, "/"))
	for _, o := range s.opts.AllowedOrigins {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	return origin == scheme+strings.ToLower(r.Host)
}

// tokenOK accepts an API request with the token: in the Authorization
// header (Bearer), in TokenHeader, or, for a GET or HEAD (an event
// stream, an image, which a page cannot give headers), as the query
// parameter token. Otherwise it answers 401 and returns false.
func (s *Server) tokenOK(w http.ResponseWriter, r *http.Request) bool {
	same := func(v string) bool {
		return v != "" && subtle.ConstantTimeCompare([]byte(v), []byte(s.opts.Token)) == 1
	}
	if mcp.TokenOK(r.Header.Get("Authorization"), s.opts.Token) || same(r.Header.Get(TokenHeader)) {
		return true
	}
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && same(r.URL.Query().Get("token")) {
		return true
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="grue"`)
	writeError(w, http.StatusUnauthorized, "Authorization", "send the server's token as Authorization: Bearer TOKEN or %s: TOKEN, or open the page as /?token=TOKEN", TokenHeader)
	return false
}
