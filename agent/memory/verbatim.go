package memory

import (
	"context"

	"github.com/grue-lab/grue/agent/llm"
)

// None remembers nothing: each prompt holds only the current observation.
// It is the floor the other strategies are compared with.
type None struct{}

// NewNone returns the strategy that remembers nothing.
func NewNone() *None { return &None{} }

// Name returns "none".
func (None) Name() string { return "none" }

// Context returns no messages.
func (None) Context(context.Context, []Turn) ([]llm.Message, error) { return nil, nil }

// Conversation keeps every turn's messages verbatim: the whole episode, as
// a chat model would see it, until Budget tokens (0: no limit) cut off the
// oldest turns.
type Conversation struct {
	Budget int `json:"budget,omitempty"`
}

// NewConversation returns the strategy that keeps everything.
func NewConversation() *Conversation { return &Conversation{} }

// Name returns "conversation".
func (Conversation) Name() string { return "conversation" }

// Context returns every turn's messages, oldest first, within the budget.
func (c Conversation) Context(_ context.Context, turns []Turn) ([]llm.Message, error) {
	return compose("", turns, c.Budget), nil
}

// Window keeps the last N turns verbatim, fewer when Budget tokens (0: no
// limit) do not hold them all. N <= 0 keeps nothing.
type Window struct {
	N      int `json:"n"`
	Budget int `json:"budget,omitempty"`
}

// NewWindow returns the strategy that keeps the last n turns.
func NewWindow(n int) *Window { return &Window{N: n} }

// Name returns "window".
func (Window) Name() string { return "window" }

// Context returns the messages of the last N turns, oldest first, within
// the budget.
func (w Window) Context(_ context.Context, turns []Turn) ([]llm.Message, error) {
	n := max(w.N, 0)
	return compose("", turns[max(len(turns)-n, 0):], w.Budget), nil
}
