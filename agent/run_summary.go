package agent

import (
	"fmt"
	"time"
)

// RunSummary is what the REPL shows of a [RunResult] in its place: how
// far the run got and why it stopped, not its whole History (which stays
// in the result, for code: r.History).
type RunSummary struct {
	Steps int
	// Score is "12 of 350", or the score alone when the game has no
	// maximum.
	Score string
	Moves int
	Rooms int
	// Outcome is how the game stands: "won", "game over" or "playing".
	Outcome string
	// StoppedBy says why the run ended, in words: "the step limit
	// (Run's n, or Limits.MaxSteps)", "the game ended", "a step failed:
	// ...".
	StoppedBy string
	Tokens    int
	Cost      float64
	Duration  time.Duration
}

// Summary returns the result's RunSummary. It implements
// [github.com/grue-lab/grue/repl.Summarizer].
func (r *RunResult) Summary() any {
	sum := RunSummary{
		Steps: r.Steps, Score: fmt.Sprint(r.FinalScore), Moves: r.Moves, Rooms: r.LocationsVisited,
		Outcome: "playing", StoppedBy: stopWords(r), Tokens: r.Tokens.TotalTokens, Cost: r.Cost, Duration: r.Duration,
	}
	if r.MaxScore > 0 {
		sum.Score += fmt.Sprintf(" of %d", r.MaxScore)
	}
	switch {
	case r.Victory:
		sum.Outcome = "won"
	case r.GameCompleted:
		sum.Outcome = "game over"
	}
	return sum
}

// stopWords says why a run stopped, from its StoppedBy.
func stopWords(r *RunResult) string {
	switch r.StoppedBy {
	case StopDone:
		return "the game ended"
	case StopSteps:
		return "the step limit (Run's n, or Limits.MaxSteps)"
	case StopTokens:
		return "the token limit (Limits.MaxTokens)"
	case StopCost:
		return "the cost limit (Limits.MaxCost)"
	case StopWall:
		return "the wall-time limit (Limits.MaxWall)"
	case StopPolicy:
		return "the policy had no more actions"
	case StopError:
		return "a step failed: " + r.Error
	case StopCancelled:
		return "cancelled (Ctrl-C, or the context ended)"
	case "":
		return "not a run's result (no run ended)"
	}
	return r.StoppedBy
}
