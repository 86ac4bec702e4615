package openai

import (
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkMergeBody is the cost of writing a request's parameters into
// go-openai's body: a 12 KB prompt of 21 messages and four parameters.
func BenchmarkMergeBody(b *testing.B) {
	msgs := []map[string]string{{"role": "system", "content": strings.Repeat("x", 3000)}}
	for range 20 {
		msgs = append(msgs, map[string]string{"role": "user", "content": strings.Repeat("y", 400)})
	}
	body, _ := json.Marshal(map[string]any{"model": "m", "messages": msgs, "stream": false})
	p := wireParams{"temperature": 0.0, "seed": 1, "max_tokens": 400, "options": map[string]any{"num_ctx": 32768}}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := mergeBody(body, p); err != nil {
			b.Fatal(err)
		}
	}
}
