// Package memory holds the agent's memory strategies: what of the episode
// so far goes into the next prompt.
//
// A [Strategy] turns the turns played so far into the messages that stand
// for them in the prompt, between the system prompt and the current
// observation. The strategies here are [None], [Conversation] (everything),
// [Window] (the last N turns), [Summary] (an LLM summarises older turns) and
// [Hybrid] (the last N turns verbatim and a running summary of the rest).
// [New] builds one from its name, as experiment configs give it. A script
// writes its own by implementing Strategy.
//
// Each strategy keeps within a token budget (its Budget field, estimated
// with [llm.EstimateMessages]; 0 means no limit): it drops the oldest
// verbatim turns first, then shortens the summary. Turns are kept or
// dropped whole, and a tool result is never kept without the assistant
// message whose tool call it answers, which native tool-calling APIs would
// reject.
//
// A summary is one user message that starts with "Summary of earlier
// steps:". It is a user message, not a system one, because several
// OpenAI-compatible servers and open models' chat templates accept a
// system message only at the start of a chat.
//
// The summary strategies call a model. What those calls spend is kept in
// the strategy (Summary.Spent) and, call by call, in the [Ledger] that the
// caller puts in the context ([WithLedger]), so that an agent adds it to the
// step and the episode that caused it.
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

// Strategy decides what of the past goes into the next prompt. [New] builds
// the strategies of this package from their names.
//
// Context is called once per step with every turn so far, oldest first, and
// returns the messages that stand for them. It must not change turns. A
// strategy may keep state (a running summary), but the same turns must give
// the same messages, and a strategy must be safe to share between an
// episode and its forks.
//
// The messages returned here are a new slice, but they share their
// ToolCalls with turns: treat them as read-only.
type Strategy interface {
	Name() string
	Context(ctx context.Context, turns []Turn) ([]llm.Message, error)
}
