package eval

import (
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/internal/jsonms/jsonmstest"
)

// Task results, verdicts and summaries write the same bytes as grue did
// before their durations moved to package jsonms (commit 92d3f53), so
// that the eval reports already on disk read and compare as before; and
// what they write reads back and writes the same again.
func TestJSONAsBefore(t *testing.T) {
	started := time.Date(2026, 11, 20, 9, 15, 2, 123456789, time.UTC)
	verdict := Verdict{Check: "all", Pass: true, Reason: "ok", Duration: 2500 * time.Microsecond,
		Checks: []Verdict{{Check: "file", Pass: true, Reason: "there", Duration: 499}, {Check: "cmd", Reason: "no", Output: "x", Duration: 1234567}}}
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"task result", TaskResult{Task: "hello_world", Variant: "reference", Seed: 1, Pass: true, Verdict: verdict, Steps: 2,
			ToolCalls: []tools.Call{{Tool: "write_file", Text: "ok", Start: started, Duration: 1500}}, Finished: true, StoppedBy: "policy",
			Cost: 0.5, Duration: 1200*time.Millisecond + 1234, VerifyDuration: 300 * time.Millisecond, Started: started}, `{"task":"hello_world","variant":"reference","seed":1,"pass":true,"verdict":{"check":"all","pass":true,"reason":"ok","checks":[{"check":"file","pass":true,"reason":"there","duration_ms":0},{"check":"cmd","pass":false,"reason":"no","output":"x","duration_ms":1.235}],"duration_ms":2.5},"steps":2,"tool_calls":[{"tool":"write_file","text":"ok","start":"2026-11-20T09:15:02.123Z","duration_ms":0.002}],"finished":true,"stopped_by":"policy","tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0.5,"started":"2026-11-20T09:15:02.123Z","duration_ms":1200.001,"verify_duration_ms":300}`},
		{"empty task result", TaskResult{}, `{"task":"","variant":"","seed":0,"pass":false,"verdict":{"check":"","pass":false,"reason":"","duration_ms":0},"steps":0,"tool_calls":null,"finished":false,"stopped_by":"","tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"started":"0001-01-01T00:00:00Z","duration_ms":0,"verify_duration_ms":0}`},
		{"verdict", verdict, `{"check":"all","pass":true,"reason":"ok","checks":[{"check":"file","pass":true,"reason":"there","duration_ms":0},{"check":"cmd","pass":false,"reason":"no","output":"x","duration_ms":1.235}],"duration_ms":2.5}`},
		{"summary", Summary{Variants: []string{"reference"}, Tasks: 2, Trials: 2, Passed: 1, Duration: 2*time.Minute + 1500}, `{"variants":["reference"],"tasks":2,"trials":2,"passed":1,"errors":0,"steps":0,"tool_calls":0,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"duration_ms":120000.002}`},
	} {
		jsonmstest.AsBefore(t, c.name, c.v, c.want)
	}
}
