package llm

import (
	"encoding/json"
	"math"
	"time"
)

// Durations are written to JSON in milliseconds, in fields named *_ms, as
// every duration in grue's results and trajectories is: a float to the
// microsecond, so that a step of 150µs is 0.15 and not 0. Files written
// before, with durations in nanoseconds under the old names (latency,
// wait), are still read.

// Millis returns d in milliseconds, rounded to the microsecond: what a
// *_ms field of grue's JSON holds.
func Millis(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond).Microseconds()) / 1000
}

// FromMillis is the inverse of [Millis]: ms milliseconds as a duration,
// rounded to the microsecond. A value beyond what a Duration holds is
// clamped.
func FromMillis(ms float64) time.Duration {
	us := math.Round(ms * 1000)
	switch {
	case math.IsNaN(us):
		return 0
	case us >= math.MaxInt64/1000:
		return math.MaxInt64
	case us <= math.MinInt64/1000:
		return math.MinInt64
	}
	return time.Duration(us) * time.Microsecond
}

// MillisOrNanos is a duration read from JSON: ms milliseconds when the
// *_ms field was there, else ns nanoseconds (the field as grue wrote it
// before durations were in milliseconds), else 0. Every reader of a
// duration in grue's files uses it, so that old run directories still
// load.
func MillisOrNanos(ms *float64, ns *int64) time.Duration {
	switch {
	case ms != nil:
		return FromMillis(*ms)
	case ns != nil:
		return time.Duration(*ns)
	}
	return 0
}

// MarshalJSON writes the attempt with its wait in milliseconds (wait_ms).
func (a Attempt) MarshalJSON() ([]byte, error) {
	type plain Attempt
	return json.Marshal(struct {
		plain
		WaitMS float64 `json:"wait_ms"`
	}{plain(a), Millis(a.Wait)})
}

// UnmarshalJSON reads an attempt, its wait from wait_ms or, as written
// before, from wait in nanoseconds.
func (a *Attempt) UnmarshalJSON(b []byte) error {
	type plain Attempt
	var v struct {
		plain
		WaitMS *float64 `json:"wait_ms"`
		WaitNS *int64   `json:"wait"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*a = Attempt(v.plain)
	a.Wait = MillisOrNanos(v.WaitMS, v.WaitNS)
	return nil
}

// MarshalJSON writes the reply with its latency in milliseconds
// (latency_ms).
func (r Reply) MarshalJSON() ([]byte, error) {
	type plain Reply
	return json.Marshal(struct {
		plain
		LatencyMS float64 `json:"latency_ms"`
	}{plain(r), Millis(r.Latency)})
}

// UnmarshalJSON reads a reply, its latency from latency_ms or, as written
// before, from latency in nanoseconds.
func (r *Reply) UnmarshalJSON(b []byte) error {
	type plain Reply
	var v struct {
		plain
		LatencyMS *float64 `json:"latency_ms"`
		LatencyNS *int64   `json:"latency"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Reply(v.plain)
	r.Latency = MillisOrNanos(v.LatencyMS, v.LatencyNS)
	return nil
}

// MarshalJSON writes the tally with its latency in milliseconds
// (latency_ms).
func (t Tally) MarshalJSON() ([]byte, error) {
	type plain Tally
	return json.Marshal(struct {
		plain
		LatencyMS float64 `json:"latency_ms"`
	}{plain(t), Millis(t.Latency)})
}

// UnmarshalJSON reads a tally, its latency from latency_ms or, as written
// before, from latency in nanoseconds.
func (t *Tally) UnmarshalJSON(b []byte) error {
	type plain Tally
	var v struct {
		plain
		LatencyMS *float64 `json:"latency_ms"`
		LatencyNS *int64   `json:"latency"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = Tally(v.plain)
	t.Latency = MillisOrNanos(v.LatencyMS, v.LatencyNS)
	return nil
}
