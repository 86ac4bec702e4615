package llm

import (
	"time"

	"github.com/grue-lab/grue/internal/jsonms"
)

// Durations are written to JSON in milliseconds, in fields named *_ms, as
// every duration in grue's results and trajectories is: a float to the
// microsecond, so that a step of 150µs is 0.15 and not 0. Files written
// before, with durations in nanoseconds under the old names (latency,
// wait), are still read. The codec is grue's one for durations
// (internal/jsonms); Millis, FromMillis and MillisOrNanos give its
// conversions to code outside grue's module.

// Millis returns d in milliseconds, rounded to the microsecond: what a
// *_ms field of grue's JSON holds.
func Millis(d time.Duration) float64 { return jsonms.Millis(d) }

// FromMillis is the inverse of [Millis]: ms milliseconds as a duration,
// rounded to the microsecond. A value beyond what a Duration holds is
// clamped.
func FromMillis(ms float64) time.Duration { return jsonms.FromMillis(ms) }

// MillisOrNanos is a duration read from JSON: ms milliseconds when the
// *_ms field was there, else ns nanoseconds (the field as grue wrote it
// before durations were in milliseconds), else 0. Every reader of a
// duration in grue's files reads it so, through grue's one codec, and old
// run directories still load.
func MillisOrNanos(ms *float64, ns *int64) time.Duration { return jsonms.MillisOrNanos(ms, ns) }

// MarshalJSON writes the attempt with its wait in milliseconds (wait_ms).
func (a Attempt) MarshalJSON() ([]byte, error) {
	type plain Attempt
	return jsonms.Marshal(plain(a), jsonms.Field{Name: "wait", D: &a.Wait})
}

// UnmarshalJSON reads an attempt, its wait from wait_ms or, as written
// before, from wait in nanoseconds.
func (a *Attempt) UnmarshalJSON(b []byte) error {
	type plain Attempt
	return jsonms.Unmarshal(b, (*plain)(a), jsonms.Field{Name: "wait", D: &a.Wait})
}

// MarshalJSON writes the reply with its latency in milliseconds
// (latency_ms).
func (r Reply) MarshalJSON() ([]byte, error) {
	type plain Reply
	return jsonms.Marshal(plain(r), jsonms.Field{Name: "latency", D: &r.Latency})
}

// UnmarshalJSON reads a reply, its latency from latency_ms or, as written
// before, from latency in nanoseconds.
func (r *Reply) UnmarshalJSON(b []byte) error {
	type plain Reply
	return jsonms.Unmarshal(b, (*plain)(r), jsonms.Field{Name: "latency", D: &r.Latency})
}

// MarshalJSON writes the tally with its latency in milliseconds
// (latency_ms).
func (t Tally) MarshalJSON() ([]byte, error) {
	type plain Tally
	return jsonms.Marshal(plain(t), jsonms.Field{Name: "latency", D: &t.Latency})
}

// UnmarshalJSON reads a tally, its latency from latency_ms or, as written
// before, from latency in nanoseconds.
func (t *Tally) UnmarshalJSON(b []byte) error {
	type plain Tally
	return jsonms.Unmarshal(b, (*plain)(t), jsonms.Field{Name: "latency", D: &t.Latency})
}
