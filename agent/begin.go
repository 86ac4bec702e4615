package agent

import "errors"

// Begin starts an episode that is not a game's, such as a coding task:
// the agent's first observation is the text given (the task, what the
// workspace holds), and its tools are whatever Tools holds, which need not
// include play_action or memory. No tool is called, unlike Start, which
// reads a game's state through its memory tool; Step and Run then play as
// usual, and a tool result whose structured content says "done": true
// ends the episode as a game's end does.
func (a *Agent) Begin(observation string) error {
	if a.err != nil {
		return a.err
	}
	if a.Tools == nil {
		return errors.New("agent: no tools (set Tools before Begin)")
	}
	a.started = true
	a.Observation = observation
	return nil
}
