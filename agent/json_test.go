package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// A trajectory written by the previous grue (locations_visited the list,
// durations in nanoseconds) still reads, and reads as the new one.
func TestRunResultReadsOldForm(t *testing.T) {
	old := `{"final_score":5,"max_score":60,"moves":3,"locations_visited":["Meadow","Shed"],
	"game_completed":false,"victory":false,"error":"","steps":1,"tokens":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},
	"cost":0,"stopped_by":"steps","duration":1500000,
	"history":[{"step":1,"tool":"play_action","observation":"ok","reward":5,"score":5,"moves":1,
	  "reply":{"content":"x","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"cost":0,"latency":2000000,
	    "retries":[{"error":"429","status":429,"wait":250000000}]},
	  "usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"cost":0,
	  "wall":3000000,"llm_time":2000000,"tool_time":500000,"memory_time":100000,"overhead":400000}]}`
	var r RunResult
	if err := json.Unmarshal([]byte(old), &r); err != nil {
		t.Fatal(err)
	}
	if r.LocationsVisited != 2 || !reflect.DeepEqual(r.Locations, []string{"Meadow", "Shed"}) {
		t.Errorf("locations %d %v, want 2 [Meadow Shed]", r.LocationsVisited, r.Locations)
	}
	if r.Duration != 1500*time.Microsecond {
		t.Errorf("duration %v, want 1.5ms", r.Duration)
	}
	s := r.History[0]
	if s.Wall != 3*time.Millisecond || s.LLMTime != 2*time.Millisecond || s.ToolTime != 500*time.Microsecond ||
		s.MemoryTime != 100*time.Microsecond || s.Overhead != 400*time.Microsecond {
		t.Errorf("step times %v %v %v %v %v", s.Wall, s.LLMTime, s.ToolTime, s.MemoryTime, s.Overhead)
	}
	if s.Reply.Latency != 2*time.Millisecond || s.Reply.Retries[0].Wait != 250*time.Millisecond {
		t.Errorf("reply latency %v, wait %v", s.Reply.Latency, s.Reply.Retries[0].Wait)
	}

	// Written again, it has the new form only, and reads back the same.
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{`"locations_visited":2`, `"locations":["Meadow","Shed"]`, `"duration_ms":1.5`,
		`"wall_ms":3`, `"llm_time_ms":2`, `"tool_time_ms":0.5`, `"memory_time_ms":0.1`, `"overhead_ms":0.4`,
		`"latency_ms":2`, `"wait_ms":250`} {
		if !strings.Contains(text, want) {
			t.Errorf("new JSON lacks %s:\n%s", want, text)
		}
	}
	for _, gone := range []string{`"duration":`, `"wall":`, `"llm_time":`, `"latency":`, `"wait":`} {
		if strings.Contains(text, gone) {
			t.Errorf("new JSON still has %s (nanoseconds):\n%s", gone, text)
		}
	}
	var back RunResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("round trip changed the result:\n got %+v\nwant %+v", back, r)
	}
}

// A duration keeps its microseconds in JSON: a fast baseline step is not 0.
func TestMillisKeepsMicroseconds(t *testing.T) {
	s := Step{Step: 1, Tool: "play_action", Wall: 153 * time.Microsecond, Reply: &llm.Reply{Latency: 42 * time.Microsecond}}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"wall_ms":0.153`) || !strings.Contains(string(b), `"latency_ms":0.042`) {
		t.Errorf("JSON %s: want wall_ms 0.153 and latency_ms 0.042", b)
	}
}
