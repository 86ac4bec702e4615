// Package memory holds the agent's memory strategies: what of the episode
// so far goes into the next prompt.
//
// A Strategy turns the turns played so far into the messages that stand for
// them in the prompt, between the system prompt and the current
// observation. The strategies here are None, Conversation (everything),
// Window (the last N turns), Summary (an LLM summarises older turns) and
// Hybrid (the last N turns verbatim and a running summary of the rest).
// Each keeps within a token budget. A script writes its own by
// implementing Strategy.
package memory

import (
	"context"

	"github.com/grue-lab/grue/agent/llm"
)

// Turn is one step of an episode as memory sees it: what the agent thought
// and did, and what came back. Messages are the chat messages the step
// added to the conversation (the assistant's reply and the tool result or
// observation that answered it), so that a strategy that keeps a turn
// verbatim keeps exactly what the model saw.
type Turn struct {
	Step        int            `json:"step"`
	Thought     string         `json:"thought,omitempty"`
	Tool        string         `json:"tool"`
	Args        map[string]any `json:"args,omitempty"`
	Observation string         `json:"observation"`
	Reward      int            `json:"reward,omitempty"`
	Score       int            `json:"score"`
	Location    string         `json:"location,omitempty"`
	Messages    []llm.Message  `json:"messages"`
}

// Strategy decides what of the past goes into the next prompt.
//
// Context is called once per step with every turn so far, oldest first, and
// returns the messages that stand for them. It must not change turns. A
// strategy may keep state (a running summary), but the same turns must give
// the same messages, and a strategy must be safe to share between an
// episode and its forks.
type Strategy interface {
	Name() string
	Context(ctx context.Context, turns []Turn) ([]llm.Message, error)
}
