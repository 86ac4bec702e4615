package agent

import "strings"

// StepRow is a step as a table shows it, one row of a trajectory: the
// call, the thought, what the game said and where it led, without the
// prompt, the reply and the timings that a Step also holds.
type StepRow struct {
	Step        int    `json:"step"`
	Tool        string `json:"tool"`
	Args        string `json:"args"` // the arguments as JSON, "" for none
	Thought     string `json:"thought"`
	Observation string `json:"observation"`
	Location    string `json:"location"`
	Score       int    `json:"score"`
	Reward      int    `json:"reward"`
	Error       string `json:"error,omitempty"`
}

// TableRow returns the step's StepRow: the REPL shows a trajectory
// (ep.Agent.History) as a table of these, while a step alone shows its
// String line. It implements [github.com/grue-lab/grue/repl.TableRower].
func (s Step) TableRow() any {
	args := ""
	if len(s.Args) > 0 {
		args = argsJSON(s.Args)
	}
	return StepRow{
		Step: s.Step, Tool: s.Tool, Args: args, Thought: s.Thought,
		Observation: strings.TrimSpace(s.Observation),
		Location:    s.Location, Score: s.Score, Reward: s.Reward, Error: s.Error,
	}
}
