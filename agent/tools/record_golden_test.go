package tools

import (
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/jsonms/jsonmstest"
)

// A call writes the same bytes as grue did before its duration moved to
// package jsonms (commit 92d3f53), so that the tool records already on
// disk read and compare as before; and what it writes reads back and
// writes the same again.
func TestCallJSONAsBefore(t *testing.T) {
	start := time.Date(2026, 11, 20, 9, 15, 2, 123456789, time.FixedZone("CET", 3600))
	for _, c := range []struct {
		name string
		v    Call
		want string
	}{
		{"call", Call{Tool: "notes", Args: map[string]any{"action": "add"}, Text: "ok", IsError: true, Error: "e", Start: start, Duration: 1234567}, `{"tool":"notes","args":{"action":"add"},"text":"ok","is_error":true,"error":"e","start":"2026-11-20T08:15:02.123Z","duration_ms":1.235}`},
		{"empty call", Call{}, `{"tool":"","text":"","start":"0001-01-01T00:00:00Z","duration_ms":0}`},
		{"call under half a microsecond", Call{Tool: "t", Duration: 499}, `{"tool":"t","text":"","start":"0001-01-01T00:00:00Z","duration_ms":0}`},
	} {
		jsonmstest.AsBefore(t, c.name, c.v, c.want)
	}
}
