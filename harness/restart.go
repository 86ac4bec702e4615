package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/game/mcp"
)

// RestartBanner is put between the last text of a game that ended and the
// opening of the game started again (Episode.RunRestarting), as TALES's
// benchmark.py does, so that the agent sees that the game restarted.
const RestartBanner = "\n\n-= Restarting =-\n"

// RunRestarting plays up to n steps in all, as Run does, but when the
// game ends before them it starts the game again from its seed (the
// reset_game tool) and plays on with the steps left: TALES's rule. It
// stops early only when a game is won and the highest score reached is
// the game's maximum (benchmark.py: `if info["won"]: ... if highscore ==
// max_score: break`). The agent keeps its memory across restarts; its
// next observation is the last game's final text, RestartBanner and the
// new game's opening. The record (Record) then counts the restarts, the
// games won and lost, and the highest score reached at any step.
func (e *Episode) RunRestarting(ctx context.Context, n int) (*agent.RunResult, error) {
	if e.closed {
		return nil, errors.New("episode: closed")
	}
	e.restarting = true
	if n <= 0 {
		n = agent.DefaultMaxSteps
	}
	start := len(e.Agent.History)
	var total time.Duration
	for {
		left := n - (len(e.Agent.History) - start)
		r, err := e.Run(ctx, left)
		if r != nil {
			total += r.Duration
		}
		if err != nil || r == nil || r.StoppedBy != agent.StopDone {
			return e.withDuration(r, total), err
		}
		a := e.Agent
		high := e.highScore()
		if a.Victory {
			e.wins++
			if high == a.MaxScore {
				return e.withDuration(r, total), nil
			}
		} else {
			e.losses++
		}
		if len(a.History)-start >= n {
			return e.withDuration(r, total), nil
		}
		if err := e.restartGame(ctx); err != nil {
			e.err = err.Error()
			r.Error, r.StoppedBy = e.err, agent.StopError
			return e.withDuration(r, total), nil
		}
	}
}

// withDuration is r with the wall time of every Run of RunRestarting.
func (e *Episode) withDuration(r *agent.RunResult, d time.Duration) *agent.RunResult {
	if r != nil {
		r = e.Result()
		r.Duration = d
	}
	return r
}

// restartGame starts the episode's game again from its seed and tells the
// agent, whose state (score, moves, done) is the new game's from here.
func (e *Episode) restartGame(ctx context.Context) error {
	last := e.Agent.Observation
	res, err := e.Client.CallTool(ctx, mcp.ToolResetGame, nil)
	if err != nil {
		return fmt.Errorf("restart after game over: %w", err)
	}
	if res.IsError {
		return fmt.Errorf("restart after game over: reset_game failed: %s", res.Text)
	}
	a := e.Agent
	a.Done, a.Victory = false, false
	if err := a.Start(ctx); err != nil {
		return fmt.Errorf("restart after game over: %w", err)
	}
	a.Done, a.Victory = false, false
	a.Observation = last + RestartBanner + a.Observation
	e.restarts++
	return nil
}

// highScore is the highest score the episode's steps reached.
func (e *Episode) highScore() int {
	high := 0
	for _, s := range e.Agent.History {
		if s.Error == "" {
			high = max(high, s.Score)
		}
	}
	return high
}
