package agent

import (
	"context"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// BenchmarkStep measures a whole step with a scripted model (no latency)
// and the default story in process: prompt, memory (window 10), parse,
// repairs, the MCP tool call, the game's move and the record. ns/op is
// everything but a real model's latency; agent-ns/step is the agent's own
// part, without the game's tool call.
func BenchmarkStep(b *testing.B) {
	for _, proto := range []string{ProtocolText, ProtocolNative} {
		b.Run(proto, func(b *testing.B) {
			s := llm.NewScripted()
			replies := map[string][]*llm.Reply{
				ProtocolText: {
					{Content: "THOUGHT: The shed may hold tools.\nTOOL: play_action\nARGS: {\"action\": \"west\"}", Usage: llm.Usage{TotalTokens: 500}},
					{Content: "**THOUGHT:** back to the meadow\n**TOOL:** play_action\n**ARGS:** {'action': 'go east'}", Usage: llm.Usage{TotalTokens: 500}},
				},
				ProtocolNative: {
					{Content: "The shed.", ToolCalls: []llm.ToolCall{{ID: "a", Name: "play_action", Arguments: `{"action":"west"}`}}},
					{ToolCalls: []llm.ToolCall{{ID: "b", Name: "play_action", Arguments: `{"action":"east"}`}}},
				},
			}[proto]
			n := 0
			s.Fallback = func(llm.Request) (*llm.Reply, error) {
				n++
				r := *replies[n%2]
				return &r, nil
			}
			cfg := Defaults()
			cfg.Protocol = proto
			a := lanternAgent(b, cfg, s)
			ctx := context.Background()
			var agent time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				st, err := a.Step(ctx)
				if err != nil {
					b.Fatal(err)
				}
				agent += st.Wall - st.ToolTime
				if len(a.History) > 1000 {
					// Keep the episode's size steady: a long run's memory
					// is the window, not the whole history.
					a.History = a.History[:0]
					a.turns = a.turns[len(a.turns)-10:]
				}
			}
			b.ReportMetric(float64(agent.Nanoseconds())/float64(b.N), "agent-ns/step")
		})
	}
}
