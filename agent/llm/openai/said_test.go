package openai

import (
	"strings"
	"testing"
)

// TestSaid: an HTML error page is said by its title, or its heading, or
// its text, in one short line; other bodies as they are, shortened.
func TestSaid(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>", "HTML page: 502 Bad Gateway"},
		{"<html><body><h1>Not &amp; Found</h1><p>gone</p></body></html>", "HTML page: Not & Found"},
		{"<html><head><style>p{}</style></head><body><p>down for\n maintenance</p></body></html>", "HTML page: down for maintenance"},
		{`{"error": "model not found"}`, `{"error": "model not found"}`},
		{"plain\ntext", "plain text"},
		{"", "(no message)"},
		{strings.Repeat("x", 500), strings.Repeat("x", maxSaid) + "..."},
	} {
		if got := said(tc.body); got != tc.want {
			t.Errorf("said(%.40q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
