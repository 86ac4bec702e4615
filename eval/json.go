package eval

import (
	"encoding/json"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// MarshalJSON writes the result with its durations in milliseconds
// (duration_ms, verify_duration_ms) and its start in UTC to the
// millisecond.
func (r TaskResult) MarshalJSON() ([]byte, error) {
	type plain TaskResult
	p := plain(r)
	if !p.Started.IsZero() {
		p.Started = p.Started.UTC().Truncate(time.Millisecond)
	}
	return json.Marshal(struct {
		plain
		DurationMS       float64 `json:"duration_ms"`
		VerifyDurationMS float64 `json:"verify_duration_ms"`
	}{p, llm.Millis(r.Duration), llm.Millis(r.VerifyDuration)})
}

// UnmarshalJSON reads a result, its durations from the *_ms fields or, as
// written before, from duration and verify_duration in nanoseconds.
func (r *TaskResult) UnmarshalJSON(b []byte) error {
	type plain TaskResult
	var v struct {
		plain
		DurationMS       *float64 `json:"duration_ms"`
		VerifyDurationMS *float64 `json:"verify_duration_ms"`
		Duration         *int64   `json:"duration"`
		VerifyDuration   *int64   `json:"verify_duration"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = TaskResult(v.plain)
	r.Duration = llm.MillisOrNanos(v.DurationMS, v.Duration)
	r.VerifyDuration = llm.MillisOrNanos(v.VerifyDurationMS, v.VerifyDuration)
	return nil
}

// MarshalJSON writes the summary with its duration in milliseconds
// (duration_ms).
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	return json.Marshal(struct {
		plain
		DurationMS float64 `json:"duration_ms"`
	}{plain(s), llm.Millis(s.Duration)})
}

// UnmarshalJSON reads a summary, its duration from duration_ms or, as
// written before, from duration in nanoseconds.
func (s *Summary) UnmarshalJSON(b []byte) error {
	type plain Summary
	var v struct {
		plain
		DurationMS *float64 `json:"duration_ms"`
		Duration   *int64   `json:"duration"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Summary(v.plain)
	s.Duration = llm.MillisOrNanos(v.DurationMS, v.Duration)
	return nil
}
