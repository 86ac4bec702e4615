package mcp

// grue: Header, CanonicalHeaderKey and the request types' Header fields
// (map[string][]string, http.Header's underlying type, where upstream has
// http.Header) let the packages that handle a message read the headers of
// the HTTP request that carried it without importing net/http, whose
// initialisation (with crypto/tls's) every process that links it pays at
// start-up. An http.Header assigns to those fields, and they to an
// http.Header, without a conversion.

// Header holds the headers of the HTTP request that carried a message, as
// net/http keeps them: keyed by their canonical names
// ([CanonicalHeaderKey]). It is nil for a message that came over stdio or
// in process. Get and Values behave as http.Header's do.
type Header map[string][]string

// Get returns the first value of the header key (in any case), or "" when
// the request had no such header.
func (h Header) Get(key string) string {
	if v := h[CanonicalHeaderKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values returns every value of the header key (in any case).
func (h Header) Values(key string) []string {
	return h[CanonicalHeaderKey(key)]
}

// Set replaces the values of the header key (in any case) with value.
func (h Header) Set(key, value string) {
	h[CanonicalHeaderKey(key)] = []string{value}
}

// Clone returns a copy of h, or nil when h is nil.
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	c := make(Header, len(h))
	for k, v := range h {
		c[k] = append([]string(nil), v...)
	}
	return c
}

// CanonicalHeaderKey returns s as net/http's http.CanonicalHeaderKey does:
// the first letter and every letter after a hyphen upper case, the rest
// lower case ("mcp-session-id" becomes "Mcp-Session-Id"). A key holding a
// space or any byte that is not a valid header-name character is returned
// unchanged.
func CanonicalHeaderKey(s string) string {
	for i := 0; i < len(s); i++ {
		if !validHeaderNameByte(s[i]) {
			return s
		}
	}
	upper := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			return canonicalize(s)
		}
		upper = c == '-'
	}
	return s
}

func canonicalize(s string) string {
	b := []byte(s)
	upper := true
	for i, c := range b {
		if upper && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
		upper = c == '-'
	}
	return string(b)
}

// validHeaderNameByte reports whether c may appear in a header name (an
// RFC 7230 token character).
func validHeaderNameByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
