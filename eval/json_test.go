package eval

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A task result and a verdict write their durations as *_ms, and read
// those the previous version wrote in nanoseconds.
func TestTaskResultJSONMillis(t *testing.T) {
	old := `{"task":"hello_world","variant":"reference","seed":1,"pass":true,
	"verdict":{"check":"c","pass":true,"reason":"ok","duration":2500000},
	"steps":2,"tool_calls":[{"tool":"write_file","text":"ok","start":"2026-11-20T09:15:02.123456789Z","duration":1500}],
	"finished":true,"stopped_by":"policy","tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,
	"duration":1200000000,"verify_duration":300000000,"started":"2026-11-20T09:15:02.123456789Z"}`
	var r TaskResult
	if err := json.Unmarshal([]byte(old), &r); err != nil {
		t.Fatal(err)
	}
	if r.Duration != 1200*time.Millisecond || r.VerifyDuration != 300*time.Millisecond ||
		r.Verdict.Duration != 2500*time.Microsecond || r.ToolCalls[0].Duration != 1500*time.Nanosecond {
		t.Errorf("old durations read as %v %v %v %v", r.Duration, r.VerifyDuration, r.Verdict.Duration, r.ToolCalls[0].Duration)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"duration_ms":1200`, `"verify_duration_ms":300`, `"duration_ms":2.5`,
		`"started":"2026-11-20T09:15:02.123Z"`, `"start":"2026-11-20T09:15:02.123Z"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), `"duration":`) || strings.Contains(string(b), `"verify_duration":`) {
		t.Errorf("JSON still has nanoseconds:\n%s", b)
	}
	s, _ := json.Marshal(Summary{Duration: 1500 * time.Millisecond})
	if !strings.Contains(string(s), `"duration_ms":1500`) {
		t.Errorf("summary JSON %s: want duration_ms 1500", s)
	}
}
