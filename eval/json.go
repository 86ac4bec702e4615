package eval

import (
	"time"

	"github.com/grue-lab/grue/internal/jsonms"
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
	return jsonms.Marshal(p, r.durations()...)
}

// UnmarshalJSON reads a result, its durations from the *_ms fields or, as
// written before, from duration and verify_duration in nanoseconds.
func (r *TaskResult) UnmarshalJSON(b []byte) error {
	type plain TaskResult
	return jsonms.Unmarshal(b, (*plain)(r), r.durations()...)
}

// durations are the result's durations as its JSON holds them, in order.
func (r *TaskResult) durations() []jsonms.Field {
	return []jsonms.Field{{Name: "duration", D: &r.Duration}, {Name: "verify_duration", D: &r.VerifyDuration}}
}

// MarshalJSON writes the summary with its duration in milliseconds
// (duration_ms).
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	return jsonms.Marshal(plain(s), jsonms.Field{Name: "duration", D: &s.Duration})
}

// UnmarshalJSON reads a summary, its duration from duration_ms or, as
// written before, from duration in nanoseconds.
func (s *Summary) UnmarshalJSON(b []byte) error {
	type plain Summary
	return jsonms.Unmarshal(b, (*plain)(s), jsonms.Field{Name: "duration", D: &s.Duration})
}
