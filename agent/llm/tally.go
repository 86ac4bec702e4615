package llm

import (
	"errors"
	"fmt"
	"time"
)

// Tally sums the calls of an episode (or of anything else): how many,
// the tokens and dollars they cost, the wall time they took, how many
// tries failed on the way and how many came from the cache. It is a plain
// value: keep one per episode and Add each reply; it is not safe for
// concurrent use.
type Tally struct {
	Calls int     `json:"calls"`
	Usage Usage   `json:"usage"`
	Cost  float64 `json:"cost"`
	// Latency is the calls' wall time: latency_ms in JSON, in
	// milliseconds, as every duration grue writes.
	Latency   time.Duration `json:"-"`
	Retries   int           `json:"retries"`
	CacheHits int           `json:"cache_hits"`
	// Failures counts calls that gave no reply (AddFailure).
	Failures int `json:"failures,omitempty"`
}

// Add counts one reply. A nil reply is ignored.
func (t *Tally) Add(r *Reply) {
	if r == nil {
		return
	}
	t.Calls++
	t.Usage = t.Usage.Add(r.Usage)
	t.Cost += r.Cost
	t.Latency += r.Latency
	t.Retries += len(r.Retries)
	if r.Cached {
		t.CacheHits++
	}
}

// AddFailure counts a call that gave no reply; the failed tries a
// CallError lists count as retries.
func (t *Tally) AddFailure(err error) {
	if err == nil {
		return
	}
	t.Failures++
	var ce *CallError
	if errors.As(err, &ce) && len(ce.Attempts) > 1 {
		t.Retries += len(ce.Attempts) - 1
	}
}

// Merge adds the counts of o to t.
func (t *Tally) Merge(o Tally) {
	t.Calls += o.Calls
	t.Usage = t.Usage.Add(o.Usage)
	t.Cost += o.Cost
	t.Latency += o.Latency
	t.Retries += o.Retries
	t.CacheHits += o.CacheHits
	t.Failures += o.Failures
}

// String summarises t in one line: "12 calls (3 cached), 4567 tokens
// (4000 in, 567 out), $0.0123, 2 retries, 8.1s".
func (t Tally) String() string {
	s := fmt.Sprintf("%d calls", t.Calls)
	if t.CacheHits > 0 {
		s += fmt.Sprintf(" (%d cached)", t.CacheHits)
	}
	s += fmt.Sprintf(", %d tokens (%d in, %d out), $%.4f", t.Usage.TotalTokens, t.Usage.PromptTokens, t.Usage.CompletionTokens, t.Cost)
	if t.Retries > 0 {
		s += fmt.Sprintf(", %d retries", t.Retries)
	}
	if t.Failures > 0 {
		s += fmt.Sprintf(", %d failed", t.Failures)
	}
	return s + ", " + t.Latency.Round(100*time.Millisecond).String()
}
