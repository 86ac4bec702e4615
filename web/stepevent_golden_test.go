package web

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
)

// A step event writes its wall_ms as the step's own JSON does (the
// trajectory the page also reads): rounded to the microsecond.
func TestStepEventJSON(t *testing.T) {
	ended := time.UnixMicro(1795502255077123).Add(456)
	for _, c := range []struct {
		name string
		wall time.Duration
		want string
	}{
		{"fractional", 1234567, `{"step":2,"tool":"play_action","observation":"Meadow","reward":0,"score":5,"max_score":0,"moves":3,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":7},"cost":0,"total_tokens":9,"total_cost":0.5,"wall_ms":1.235,"ended_ms":1795502255077.123}`},
		{"under a microsecond", 999, `{"step":2,"tool":"play_action","observation":"Meadow","reward":0,"score":5,"max_score":0,"moves":3,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":7},"cost":0,"total_tokens":9,"total_cost":0.5,"wall_ms":0.001,"ended_ms":1795502255077.123}`},
		{"negative", -1999, `{"step":2,"tool":"play_action","observation":"Meadow","reward":0,"score":5,"max_score":0,"moves":3,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":7},"cost":0,"total_tokens":9,"total_cost":0.5,"wall_ms":-0.002,"ended_ms":1795502255077.123}`},
		{"largest", 1<<63 - 1, `{"step":2,"tool":"play_action","observation":"Meadow","reward":0,"score":5,"max_score":0,"moves":3,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":7},"cost":0,"total_tokens":9,"total_cost":0.5,"wall_ms":9223372036854.775,"ended_ms":1795502255077.123}`},
	} {
		st := agent.Step{Step: 2, Tool: "play_action", Observation: "Meadow", Score: 5, Moves: 3, Usage: llm.Usage{TotalTokens: 7}, Wall: c.wall}
		b, err := json.Marshal(newStepEvent(&st, llm.Usage{TotalTokens: 9}, 0.5, ended))
		if err != nil || string(b) != c.want {
			t.Errorf("%s: wrote\n%s, %v\nwant\n%s", c.name, b, err, c.want)
		}
		var ev, own struct {
			WallMS float64 `json:"wall_ms"`
		}
		sb, err := json.Marshal(&st)
		if err != nil || json.Unmarshal(b, &ev) != nil || json.Unmarshal(sb, &own) != nil || ev.WallMS != own.WallMS {
			t.Errorf("%s: the event's wall_ms %v, the step's %s (%v)", c.name, ev.WallMS, sb, err)
		}
	}
}

// A replayed step's event has no end time (the steps file does not keep
// it): it leaves ended_ms out rather than writing the zero time as a
// date in year 1 (-62135596800000).
func TestStepEventReplayedHasNoEndTime(t *testing.T) {
	st := agent.Step{Step: 1, Tool: "play_action", Observation: "Meadow"}
	b, err := json.Marshal(newStepEvent(&st, llm.Usage{}, 0, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "ended_ms") {
		t.Errorf("replayed step event %s: want no ended_ms", b)
	}
}
