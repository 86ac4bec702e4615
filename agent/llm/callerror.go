package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// CallError is the error of a call that gave no reply: the failure of its
// last try, how many tries were made, and each failed try. Its text never
// holds the API key. Clients that retry (the OpenAI-compatible client of
// package [github.com/grue-lab/grue/agent/llm/openai]) return one, so
// that a caller classifies a failure (Retryable, Status) and counts its
// tries ([Tally.AddFailure]) without knowing the client.
type CallError struct {
	Label  string `json:"label,omitempty"`
	Model  string `json:"model"`
	Status int    `json:"status,omitempty"` // the last try's HTTP status, 0 when none came back
	Tries  int    `json:"tries"`
	// Retryable reports whether the last failure was of a kind that is
	// retried: true when the client gave up after its retries or was
	// cancelled, false when the server refused the request outright.
	Retryable bool      `json:"retryable"`
	Attempts  []Attempt `json:"attempts"`
	// Err is the last failure: the context's error when the call was
	// cancelled, so errors.Is(err, context.Canceled) holds.
	Err error `json:"-"`
}

func (e *CallError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "llm call %s (model %s): ", labelOf(Request{Label: e.Label}), e.Model)
	switch {
	case errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded):
		fmt.Fprintf(&sb, "%v after %d tries", e.Err, e.Tries)
		if n := len(e.Attempts); n > 0 && e.Attempts[n-1].Error != e.Err.Error() {
			fmt.Fprintf(&sb, " (last failure: %s)", e.Attempts[n-1].Error)
		}
	case e.Retryable:
		fmt.Fprintf(&sb, "gave up after %d tries; last: %v", e.Tries, e.Err)
	default:
		fmt.Fprintf(&sb, "%v", e.Err)
	}
	return sb.String()
}

func (e *CallError) Unwrap() error { return e.Err }
