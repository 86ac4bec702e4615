package agent

import (
	"strconv"
	"strings"

	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// What a tool result says about the game. grue's server (and any server
// that follows docs/design.md) sends structured content: observation, score,
// max_score, moves, reward, done, victory, location. A foreign server that
// sends only text is read through the text formats of the tool contract:
// "[Score: S | Moves: M]", "+R points! (Total: S)", "GAME OVER", and the
// memory tool's "Current State:" block.

// gameState is what one result told us; the has* flags say which fields
// it gave.
type gameState struct {
	observation            string
	score, maxScore, moves int
	reward                 int
	location               string
	locationID             int // the room's object number; 0 when not said
	done, victory          bool
	hasObservation         bool
	hasScore, hasMaxScore  bool
	hasMoves, hasReward    bool
	movesUnknown           bool // the server said null: no text fallback
	hasLocation            bool
	hasDone, hasVictory    bool
}

var (
	scoreLine   = lazyregexp.New(`\[Score:\s*(-?\d+)\s*\|\s*Moves:\s*(-?\d+)\s*\]`)
	pointsLine  = lazyregexp.New(`\+(-?\d+) points?!\s*\(Total:\s*(-?\d+)\)`)
	stateScore  = lazyregexp.New(`(?m)^\s*-\s*Score:\s*(-?\d+)`)
	stateMoves  = lazyregexp.New(`(?m)^\s*-\s*Moves:\s*(-?\d+)`)
	stateWhere  = lazyregexp.New(`(?m)^\s*-\s*Location:\s*(.+?)\s*$`)
	currentObs  = "Current Observation:"
	gameOverTag = "GAME OVER"
)

// readState reads r: structured content first, text for what it lacks.
func readState(r tools.Result) gameState {
	var st gameState
	if s := r.Structured; s != nil {
		if v, ok := s["observation"].(string); ok {
			st.observation, st.hasObservation = v, true
		}
		st.score, st.hasScore = number(s["score"])
		st.maxScore, st.hasMaxScore = number(s["max_score"])
		st.moves, st.hasMoves = number(s["moves"])
		if v, ok := s["moves"]; ok && v == nil {
			st.movesUnknown = true
		}
		st.reward, st.hasReward = number(s["reward"])
		if v, ok := s["location"].(string); ok {
			st.location, st.hasLocation = v, true
		}
		st.locationID, _ = number(s["location_id"])
		if v, ok := s["done"].(bool); ok {
			st.done, st.hasDone = v, true
		}
		if v, ok := s["victory"].(bool); ok {
			st.victory, st.hasVictory = v, true
		}
	}
	if r.IsError {
		return st
	}
	text := r.Text
	if !st.hasScore || !st.hasMoves {
		if m := scoreLine.FindStringSubmatch(text); m != nil {
			st.score, st.hasScore = atoi(m[1]), true
			if !st.movesUnknown {
				st.moves, st.hasMoves = atoi(m[2]), true
			}
		} else if m := pointsLine.FindStringSubmatch(text); m != nil {
			st.reward, st.hasReward = atoi(m[1]), true
			st.score, st.hasScore = atoi(m[2]), true
		}
		if !st.hasScore {
			if m := stateScore.FindStringSubmatch(text); m != nil {
				st.score, st.hasScore = atoi(m[1]), true
			}
		}
		if !st.hasMoves && !st.movesUnknown {
			if m := stateMoves.FindStringSubmatch(text); m != nil {
				st.moves, st.hasMoves = atoi(m[1]), true
			}
		}
	}
	if !st.hasLocation {
		if m := stateWhere.FindStringSubmatch(text); m != nil {
			st.location, st.hasLocation = m[1], true
		}
	}
	if !st.hasDone && strings.Contains(text, gameOverTag) {
		st.done, st.hasDone = true, true
	}
	if !st.hasObservation {
		if i := strings.Index(text, currentObs); i >= 0 {
			st.observation, st.hasObservation = strings.TrimSpace(text[i+len(currentObs):]), true
		}
	}
	return st
}

// number reads a JSON number (float64, or an int from a Go tool).
func number(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), true
	case int:
		return n, true
	case int64:
		return int(n), true
	}
	return 0, false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
