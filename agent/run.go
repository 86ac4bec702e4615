package agent

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// RunResult is an episode's outcome in the earlier Python agent's format
// (its field names), with the trajectory.
//
// It has its own MarshalJSON and UnmarshalJSON (durations in
// milliseconds; the previous version's files read): a struct that embeds
// a *RunResult inherits them, and must define its own, with
// [RunResult.JSONWith], to keep its other fields (harness.Trajectory
// does).
type RunResult struct {
	FinalScore int `json:"final_score"`
	MaxScore   int `json:"max_score"`
	Moves      int `json:"moves"`
	// MovesUnknown is true when the game's move count is unknown (see
	// Agent.MovesUnknown): "moves" is then null in JSON, and Moves 0.
	MovesUnknown bool `json:"-"`
	// LocationsVisited is how many rooms the episode saw, and Locations
	// which, in the order first seen: the names and meaning of
	// harness.EpisodeRecord's fields. A result written before, whose
	// locations_visited was the list, still reads.
	LocationsVisited int      `json:"locations_visited"`
	Locations        []string `json:"locations"`
	// Opening is the game's text before the first step, as the agent
	// first read it (empty when the server has no memory tool): what an
	// exported trajectory starts from.
	Opening string `json:"opening,omitempty"`
	// GameCompleted is true when the game ended (won or lost); Victory
	// when it was won.
	GameCompleted bool `json:"game_completed"`
	Victory       bool `json:"victory"`
	// Error is why the episode ended early (a step failed); empty
	// otherwise.
	Error string `json:"error"`
	// Steps is the number of steps in History.
	Steps  int       `json:"steps"`
	Tokens llm.Usage `json:"tokens"`
	// EstimatedTokens is how many of Tokens are the agent's estimates,
	// for replies that came without usage (Step.EstimatedTokens); 0 when
	// the server counted them all.
	EstimatedTokens int     `json:"estimated_tokens,omitempty"`
	Cost            float64 `json:"cost"`
	// StoppedBy is why the Run ended: one of the Stop* constants.
	StoppedBy string `json:"stopped_by"`
	// Duration is the Run's wall time: duration_ms in JSON, in
	// milliseconds (nanoseconds under duration in results written
	// before, which still read).
	Duration time.Duration `json:"-"`
	History  []Step        `json:"history,omitempty"`
}

// Result returns the episode so far as a RunResult (StoppedBy and Duration
// empty: no Run is ending).
func (a *Agent) Result() *RunResult {
	r := &RunResult{
		FinalScore:       a.Score,
		MaxScore:         a.MaxScore,
		Moves:            a.Moves,
		MovesUnknown:     a.MovesUnknown,
		LocationsVisited: len(a.Locations),
		Locations:        slices.Clone(a.Locations),
		Opening:          a.opening,
		GameCompleted:    a.Done,
		Victory:          a.Victory,
		Steps:            len(a.History),
		Tokens:           a.Usage,
		EstimatedTokens:  a.EstimatedTokens,
		Cost:             a.Cost,
		History:          slices.Clone(a.History),
	}
	if r.Locations == nil {
		r.Locations = []string{}
	}
	if r.History == nil {
		r.History = []Step{}
	}
	return r
}

// Run plays steps until the game ends or a limit stops it: maxSteps steps
// in this Run (when positive; else Limits.MaxSteps, or DefaultMaxSteps),
// and the agent's Limits. It always returns a result, with StoppedBy set.
// A step that fails ends the episode with the result's Error set and a nil
// error: a model that cannot be reached is an outcome, not a crash. The
// error is non-nil only when the episode cannot start (no tools, a bad
// config) or ctx ends; Run then returns at once with what was played.
func (a *Agent) Run(ctx context.Context, maxSteps int) (*RunResult, error) {
	start := time.Now()
	finish := func(stop string, err error) (*RunResult, error) {
		r := a.Result()
		r.StoppedBy = stop
		r.Duration = time.Since(start)
		if err != nil {
			r.Error = err.Error()
		}
		return r, err
	}
	runCtx := ctx
	if a.Limits.MaxWall > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, a.Limits.MaxWall)
		defer cancel()
	}
	if err := a.ensureStarted(runCtx); err != nil {
		if ctx.Err() != nil {
			return finish(StopCancelled, ctx.Err())
		}
		return finish(StopError, err)
	}
	limit := maxSteps
	if limit <= 0 {
		limit = a.Limits.MaxSteps
	}
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	for played := 0; ; played++ {
		switch {
		case a.Done:
			return finish(StopDone, nil)
		case ctx.Err() != nil:
			return finish(StopCancelled, ctx.Err())
		case played >= limit, a.Limits.MaxSteps > 0 && len(a.History) >= a.Limits.MaxSteps:
			return finish(StopSteps, nil)
		case a.Limits.MaxTokens > 0 && totalTokens(a.Usage) >= a.Limits.MaxTokens:
			return finish(StopTokens, nil)
		case a.Limits.MaxCost > 0 && a.Cost >= a.Limits.MaxCost:
			return finish(StopCost, nil)
		case runCtx.Err() != nil:
			return finish(StopWall, nil)
		}
		n := len(a.History)
		_, err := a.Step(runCtx)
		if a.OnStep != nil && len(a.History) > n {
			a.OnStep(&a.History[len(a.History)-1])
		}
		if err != nil {
			switch {
			case errors.Is(err, ErrDone):
				return finish(StopPolicy, nil)
			case errors.Is(err, ErrGameOver):
				return finish(StopDone, nil)
			case ctx.Err() != nil:
				return finish(StopCancelled, ctx.Err())
			case runCtx.Err() != nil:
				return finish(StopWall, nil)
			}
			r, _ := finish(StopError, err)
			return r, nil
		}
	}
}

// totalTokens is u's total, or its parts' sum when the server sent none.
func totalTokens(u llm.Usage) int {
	return max(u.TotalTokens, u.PromptTokens+u.CompletionTokens)
}
