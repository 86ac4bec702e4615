package tools

import (
	"encoding/json"
	"testing"
	"time"
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
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("%s: wrote\n%s, %v\nwant\n%s", c.name, b, err, c.want)
			continue
		}
		var back Call
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%s: reading %s: %v", c.name, b, err)
			continue
		}
		if again, err := json.Marshal(back); err != nil || string(again) != c.want {
			t.Errorf("%s: read back and written again\n%s, %v\nwant\n%s", c.name, again, err, c.want)
		}
	}
}
