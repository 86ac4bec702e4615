package agent

import (
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/internal/jsonms/jsonmstest"
)

// Steps and run results write the same bytes as grue did before their
// durations moved to package jsonms (commit 92d3f53), so that the
// trajectories already on disk read and compare as before; and what they
// write reads back and writes the same again.
func TestJSONAsBefore(t *testing.T) {
	step := Step{Step: 2, Tool: "play_action", Args: map[string]any{"action": "north"}, Observation: "Meadow", Reward: 1, Score: 5, Moves: 3,
		Reply: &llm.Reply{Content: "c", Latency: 1234567, Retries: []llm.Attempt{{Error: "429", Wait: time.Second}}},
		Usage: llm.Usage{TotalTokens: 7}, Cost: 0.5,
		Wall: 3 * time.Millisecond, LLMTime: 1500 * time.Microsecond, ToolTime: 153 * time.Microsecond, MemoryTime: 499, Overhead: 1347 * time.Microsecond}
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"step, memory time under half a microsecond", step, `{"step":2,"reply":{"content":"c","usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"retries":[{"error":"429","wait_ms":1000}],"latency_ms":1.235},"tool":"play_action","args":{"action":"north"},"observation":"Meadow","reward":1,"score":5,"moves":3,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":7},"cost":0.5,"wall_ms":3,"llm_time_ms":1.5,"tool_time_ms":0.153,"overhead_ms":1.347}`},
		{"step with memory time", Step{Step: 1, Wall: -1500, MemoryTime: 500, Overhead: 1<<63 - 1}, `{"step":1,"tool":"","observation":"","reward":0,"score":0,"moves":0,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"wall_ms":-0.002,"llm_time_ms":0,"tool_time_ms":0,"memory_time_ms":0.001,"overhead_ms":9223372036854.775}`},
		{"empty step", Step{}, `{"step":0,"tool":"","observation":"","reward":0,"score":0,"moves":0,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"wall_ms":0,"llm_time_ms":0,"tool_time_ms":0,"overhead_ms":0}`},
		{"run result", RunResult{FinalScore: 5, MaxScore: 10, Moves: 3, LocationsVisited: 1, Locations: []string{"Meadow"}, Steps: 1,
			StoppedBy: "steps", Duration: 90*time.Second + 1234567, History: []Step{step}}, `{"final_score":5,"max_score":10,"moves":3,"locations_visited":1,"locations":["Meadow"],"game_completed":false,"victory":false,"error":"","steps":1,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"stopped_by":"steps","history":[{"step":2,"reply":{"content":"c","usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"retries":[{"error":"429","wait_ms":1000}],"latency_ms":1.235},"tool":"play_action","args":{"action":"north"},"observation":"Meadow","reward":1,"score":5,"moves":3,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":7},"cost":0.5,"wall_ms":3,"llm_time_ms":1.5,"tool_time_ms":0.153,"overhead_ms":1.347}],"duration_ms":90001.235}`},
		{"step, moves unknown (a tool argument named moves kept)", Step{Step: 1, Tool: "t", Args: map[string]any{"moves": 2.0}, MovesUnknown: true},
			`{"step":1,"tool":"t","args":{"moves":2},"observation":"","reward":0,"score":0,"moves":null,"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"wall_ms":0,"llm_time_ms":0,"tool_time_ms":0,"overhead_ms":0}`},
		{"run result, moves unknown", RunResult{MovesUnknown: true}, `{"final_score":0,"max_score":0,"moves":null,"locations_visited":0,"locations":null,"game_completed":false,"victory":false,"error":"","steps":0,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"stopped_by":"","duration_ms":0}`},
		{"empty run result", RunResult{}, `{"final_score":0,"max_score":0,"moves":0,"locations_visited":0,"locations":null,"game_completed":false,"victory":false,"error":"","steps":0,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"stopped_by":"","duration_ms":0}`},
	} {
		jsonmstest.AsBefore(t, c.name, c.v, c.want)
	}
}
