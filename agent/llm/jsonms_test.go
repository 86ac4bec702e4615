package llm_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// A tally writes its latency as latency_ms and reads the old nanoseconds.
func TestTallyJSONMillis(t *testing.T) {
	var old llm.Tally
	if err := json.Unmarshal([]byte(`{"calls":2,"latency":2500000}`), &old); err != nil || old.Latency != 2500*time.Microsecond {
		t.Fatalf("old tally: %v, latency %v", err, old.Latency)
	}
	b, _ := json.Marshal(old)
	if !strings.Contains(string(b), `"latency_ms":2.5`) || strings.Contains(string(b), `"latency":`) {
		t.Errorf("tally JSON %s: want latency_ms 2.5 only", b)
	}
}
