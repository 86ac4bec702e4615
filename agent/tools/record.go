package tools

import (
	"sync"
	"time"

	"github.com/grue-lab/grue/internal/jsonms"
)

// DefaultRecordMaxText caps a recorded call's text when Recorder.MaxText
// is 0.
const DefaultRecordMaxText = 4096

// Call is one tool call as a trajectory records it: the tool, its
// arguments, what it gave back (the text capped by the Recorder), whether
// the tool reported an error, the Go error if the call failed, when it
// started and how long it took.
type Call struct {
	Tool       string         `json:"tool"`
	Args       map[string]any `json:"args,omitempty"`
	Text       string         `json:"text"`
	Structured map[string]any `json:"structured,omitempty"`
	IsError    bool           `json:"is_error,omitempty"`
	Error      string         `json:"error,omitempty"`
	// Start is when the call began: in JSON in UTC to the millisecond.
	// Duration is how long it took: duration_ms in JSON, in milliseconds
	// (nanoseconds under duration in files written before, which still
	// read).
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"-"`
}

// MarshalJSON writes the call with its start in UTC to the millisecond
// and its duration in milliseconds.
func (c Call) MarshalJSON() ([]byte, error) {
	type plain Call
	p := plain(c)
	if !p.Start.IsZero() {
		p.Start = p.Start.UTC().Truncate(time.Millisecond)
	}
	return jsonms.Marshal(p, jsonms.Field{Name: "duration", D: &c.Duration})
}

// UnmarshalJSON reads a call, its duration from duration_ms or, as
// written before, from duration in nanoseconds.
func (c *Call) UnmarshalJSON(b []byte) error {
	type plain Call
	return jsonms.Unmarshal(b, (*plain)(c), jsonms.Field{Name: "duration", D: &c.Duration})
}

// Recorder keeps the calls made through a Registry, in the order they
// returned: the trajectory an eval harness stores. It is safe for
// concurrent use.
type Recorder struct {
	// MaxText caps each call's recorded text (DefaultRecordMaxText when
	// 0, no cap when negative); the note "[truncated: N bytes]" marks a
	// cut.
	MaxText int

	mu    sync.Mutex
	calls []Call
}

// Record returns a Recorder that sees every call through r from now on.
func Record(r *Registry) *Recorder {
	rec := &Recorder{}
	r.Observe(rec.Add)
	return rec
}

// Add records c, capping its text.
func (rec *Recorder) Add(c Call) {
	max := rec.MaxText
	if max == 0 {
		max = DefaultRecordMaxText
	}
	c.Text, _ = Truncate(c.Text, max)
	rec.mu.Lock()
	rec.calls = append(rec.calls, c)
	rec.mu.Unlock()
}

// Calls returns a copy of the calls recorded so far.
func (rec *Recorder) Calls() []Call {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]Call(nil), rec.calls...)
}

// Len returns how many calls have been recorded.
func (rec *Recorder) Len() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.calls)
}

// Take returns the calls recorded so far and forgets them: what one step
// of an agent did.
func (rec *Recorder) Take() []Call {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	calls := rec.calls
	rec.calls = nil
	return calls
}
