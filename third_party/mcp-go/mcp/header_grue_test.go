package mcp

import (
	"net/http"
	"testing"
)

// TestCanonicalHeaderKeyMatchesNetHTTP: Header reads what net/http stored,
// so its key canonicalisation must be net/http's.
func TestCanonicalHeaderKeyMatchesNetHTTP(t *testing.T) {
	for _, k := range []string{
		"", "a", "A", "mcp-session-id", "MCP-SESSION-ID", "Mcp-Session-Id", "mcp-protocol-version",
		"x-mcp-header", "content-type", "-x", "x-", "a--b", "foo bar", "foo\x00", "ümlaut", "x_y", "1-abc",
		"Mcp-Param-Name", "mcp-param-NAME", "accept",
	} {
		if got, want := CanonicalHeaderKey(k), http.CanonicalHeaderKey(k); got != want {
			t.Errorf("CanonicalHeaderKey(%q) = %q, net/http gives %q", k, got, want)
		}
	}
}

func TestHeaderReadsAnHTTPHeader(t *testing.T) {
	h := http.Header{}
	h.Add("mcp-session-id", "abc")
	h.Add("X-Two", "1")
	h.Add("x-two", "2")
	var m Header = Header(h)
	if m.Get("MCP-SESSION-ID") != "abc" || m.Get("missing") != "" {
		t.Errorf("Get: %q %q", m.Get("MCP-SESSION-ID"), m.Get("missing"))
	}
	if v := m.Values("X-TWO"); len(v) != 2 || v[0] != "1" || v[1] != "2" {
		t.Errorf("Values = %q", v)
	}
	var req CallToolRequest
	req.Header = h // assigns without a conversion, as upstream's http.Header field did
	if Header(req.Header).Get("x-two") != "1" {
		t.Errorf("request header lost")
	}
}
