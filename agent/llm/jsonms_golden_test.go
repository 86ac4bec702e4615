package llm_test

import (
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/internal/jsonms/jsonmstest"
)

// Replies, attempts and tallies write the same bytes as grue did before
// their durations moved to package jsonms (commit 92d3f53), so that the
// model-reply caches and trajectories already on disk read and compare
// as before; and what they write reads back and writes the same again.
func TestJSONAsBefore(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"reply", llm.Reply{Content: "go north", FinishReason: "stop", Usage: llm.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5},
			Cost: 0.25, Latency: 1234567, Cached: true, Retries: []llm.Attempt{{Error: "429", Wait: 1500 * time.Microsecond}, {Error: "500", Wait: 499}}},
			`{"content":"go north","finish_reason":"stop","usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5},"cost":0.25,"cached":true,"retries":[{"error":"429","wait_ms":1.5},{"error":"500","wait_ms":0}],"latency_ms":1.235}`},
		{"reply without latency", llm.Reply{}, `{"content":"","usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"latency_ms":0}`},
		{"attempt, negative", llm.Attempt{Error: "e", Wait: -2500 * time.Microsecond, Learned: "x"}, `{"error":"e","learned":"x","wait_ms":-2.5}`},
		{"tally, largest", llm.Tally{Calls: 2, Cost: 1, Latency: 1<<63 - 1, Retries: 1, CacheHits: 1}, `{"calls":2,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":1,"retries":1,"cache_hits":1,"latency_ms":9223372036854.775}`},
	} {
		jsonmstest.AsBefore(t, c.name, c.v, c.want)
	}
}
