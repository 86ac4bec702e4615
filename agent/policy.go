package agent

import (
	"context"

	"github.com/grue-lab/grue/agent/tools"
)

// Policy chooses the agent's next action without a language model: the
// baselines (random valid action, walkthrough replay, frontier explorer)
// and whatever a script writes. An Agent with a Policy asks it instead of
// its LLM; every other part of a step (the tool call, the record, the
// limits) is the same.
//
// A policy that keeps state (a place in a list, a map, a random source)
// may also have a Clone() Policy method, returning a copy that goes on
// from the same state without sharing it: Agent.Clone calls it, so that
// a fork and its original each play as the original would have. The
// baselines have one.
type Policy interface {
	Name() string
	Next(ctx context.Context, v View) (Action, error)
}

// View is what a policy sees before it decides: the game's last
// observation, the step about to be played, the score so far, and the
// agent's tools, through which it may ask the game what it needs
// (valid_actions, get_map) before it acts.
type View struct {
	Step        int
	Observation string
	Score       int
	Tools       *tools.Registry

	// MaxScore, Moves and Location are the game's, as last reported
	// (MaxScore 0 and Location "" when the server does not say).
	MaxScore int
	Moves    int
	Location string
}

// Action is a decision: a tool to call with its arguments, and the
// thought that led to it (shown with -v and kept in the trajectory).
type Action struct {
	Thought string         `json:"thought,omitempty"`
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args,omitempty"`
}
