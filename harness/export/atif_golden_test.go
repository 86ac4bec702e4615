package export

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent"
)

// An ATIF agent step writes the same bytes as grue did before its wall
// time went through package jsonms (commit 92d3f53): wall_ms to the
// microsecond, rounded, as in grue's own trajectory.
func TestATIFStepJSONAsBefore(t *testing.T) {
	for _, c := range []struct {
		name string
		wall int64
		want string
	}{
		{"fractional", 1234567, `{"step_id":0,"source":"agent","message":"north","tool_calls":[{"tool_call_id":"call_2","function_name":"play_action","arguments":{}}],"observation":{"results":[{"source_call_id":"call_2","content":"Meadow"}]},"extra":{"grue_step":2,"moves":3,"reward":0,"score":5,"wall_ms":1.235}}`},
		{"under half a microsecond", 499, `{"step_id":0,"source":"agent","message":"north","tool_calls":[{"tool_call_id":"call_2","function_name":"play_action","arguments":{}}],"observation":{"results":[{"source_call_id":"call_2","content":"Meadow"}]},"extra":{"grue_step":2,"moves":3,"reward":0,"score":5,"wall_ms":0}}`},
		{"negative", -1500, `{"step_id":0,"source":"agent","message":"north","tool_calls":[{"tool_call_id":"call_2","function_name":"play_action","arguments":{}}],"observation":{"results":[{"source_call_id":"call_2","content":"Meadow"}]},"extra":{"grue_step":2,"moves":3,"reward":0,"score":5,"wall_ms":-0.002}}`},
	} {
		st := agent.Step{Step: 2, Thought: "north", Tool: "play_action", Observation: "Meadow", Score: 5, Moves: 3, Wall: time.Duration(c.wall)}
		b, err := json.Marshal(atifAgentStep(st, "m"))
		if err != nil || string(b) != c.want {
			t.Errorf("%s: wrote\n%s, %v\nwant\n%s", c.name, b, err, c.want)
		}
	}
}
