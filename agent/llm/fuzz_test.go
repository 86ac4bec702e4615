package llm

import (
	"reflect"
	"testing"
	"time"
)

// FuzzDecodeEntry: whatever bytes a cache file holds, decodeEntry either
// rejects them or returns exactly the reply that was recorded under the
// key; a corrupt entry is never returned as something else.
func FuzzDecodeEntry(f *testing.F) {
	const key = "3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1a2f"
	want := &Reply{Content: "You see a <lamp> & a sword.", ToolCalls: []ToolCall{{ID: "c", Name: "play_action", Arguments: `{"action":"take lamp"}`}},
		FinishReason: "tool_calls", Model: "m", Usage: Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}, Latency: time.Second}
	good, err := encodeEntry(key, Request{Messages: []Message{{Role: User, Content: "look"}}, Label: "step 1"}, "http://x/v1", want)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"grue-llm-cache/1","key":"` + key + `","checksum":"","reply":{}}`))
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeEntry(b, key)
		if err != nil {
			return
		}
		if !reflect.DeepEqual(r, want) {
			// Only whitespace or the informational fields may differ
			// from the recorded entry for it to be accepted.
			t.Fatalf("accepted an entry with another reply: %+v", r)
		}
	})
}
