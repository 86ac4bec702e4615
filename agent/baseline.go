package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/mcp"
)

// The baseline policies play without a language model: RandomPolicy
// (a random valid action), WalkthroughPolicy (a known solution, replayed)
// and ExplorerPolicy (walks the map to unexplored exits). They are the
// floor every LLM variant is compared with, and they make every command
// work without an API key. This file holds what they share: asking the
// game for its valid actions and its map through the agent's tools.

// playAction is the Action that plays cmd in the game.
func playAction(thought, cmd string) Action {
	return Action{Thought: thought, Tool: mcp.ToolPlayAction, Args: map[string]any{"action": cmd}}
}

// policyRand is a policy's own random source, the same for the same seed,
// which a clone of the policy copies: the copy draws the same numbers from
// there on, and neither's draws move the other's.
type policyRand struct {
	src *rand.PCG
	*rand.Rand
}

// newRand returns the random source for seed.
func newRand(seed int64) policyRand {
	src := rand.NewPCG(uint64(seed), 0x67727565) // "grue"
	return policyRand{src, rand.New(src)}
}

// clone returns a copy of r in the same state. A rand.Rand keeps no state
// of its own beyond its source's, so copying the PCG copies it all.
func (r policyRand) clone() policyRand {
	src := *r.src
	return policyRand{&src, rand.New(&src)}
}

// askValidActions asks the valid_actions tool for the commands that change
// the world from here: its structured "actions" when the server gives
// them, else its text ("Valid actions: a, b, c"). known is false when
// the registry has no valid_actions tool or the tool failed: the policies
// then do without (the random policy plays a random direction, the
// explorer tries the map's untried directions). The error is for a call
// that never reached the game (a dead server, a cancelled context).
func askValidActions(ctx context.Context, reg *tools.Registry) (acts []string, known bool, err error) {
	if reg == nil {
		return nil, false, nil
	}
	if _, ok := reg.Get(mcp.ToolValidActions); !ok {
		return nil, false, nil
	}
	r, err := reg.Call(ctx, mcp.ToolValidActions, nil)
	if err != nil {
		return nil, false, fmt.Errorf("valid_actions: %w", err)
	}
	if r.IsError {
		return nil, false, nil
	}
	if list, ok := r.Structured["actions"].([]any); ok {
		out := make([]string, 0, len(list))
		for _, a := range list {
			// " " (SPACE) and "" (Return) are what a game waiting for a
			// key offers.
			if s, ok := a.(string); ok && (strings.TrimSpace(s) != "" || s == " " || s == "") {
				out = append(out, s)
			}
		}
		return out, true, nil
	}
	acts, known = parseValidActions(r.Text)
	return acts, known, nil
}

// parseValidActions reads the valid_actions text: "Valid actions: a, b",
// or "Valid actions: (none)". ok is false when the text is not that.
func parseValidActions(text string) (acts []string, ok bool) {
	_, rest, ok := strings.Cut(text, "Valid actions:")
	if !ok {
		return nil, false
	}
	rest = strings.TrimSpace(rest)
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if rest == "" || rest == "(none)" {
		return nil, true
	}
	for _, a := range strings.Split(rest, ",") {
		if a = strings.TrimSpace(a); a != "" {
			acts = append(acts, a)
		}
	}
	return acts, true
}

// mapRoom is one room of get_map's structured content.
type mapRoom struct {
	ID      int            `json:"id"`
	Name    string         `json:"name"`
	Exits   map[string]int `json:"exits"`
	Untried []string       `json:"untried"`
}

// mapView is get_map's structured content as the explorer reads it.
type mapView struct {
	Rooms    []mapRoom `json:"rooms"`
	Current  int       `json:"current"`
	Location string    `json:"location"`
}

// room returns the room id of the map.
func (m *mapView) room(id int) (mapRoom, bool) {
	for _, r := range m.Rooms {
		if r.ID == id {
			return r, true
		}
	}
	return mapRoom{}, false
}

// askMap asks the get_map tool for the explored rooms. A server whose
// get_map has no structured rooms (or no get_map at all) gives a map of
// one room, the current location as the memory tool names it, with a
// made-up id and every direction untried: the explorer then explores
// where it stands and does not walk.
func askMap(ctx context.Context, reg *tools.Registry) (mapView, error) {
	var m mapView
	if reg == nil {
		return m, nil
	}
	for _, name := range []string{mcp.ToolGetMap, mcp.ToolMemory} {
		if _, ok := reg.Get(name); !ok {
			continue
		}
		r, err := reg.Call(ctx, name, nil)
		if err != nil {
			return m, fmt.Errorf("%s: %w", name, err)
		}
		if r.IsError {
			continue
		}
		if _, ok := r.Structured["rooms"]; ok {
			// Through JSON: the same whether the content crossed a
			// transport (float64 numbers) or not.
			b, err := json.Marshal(r.Structured)
			if err == nil && json.Unmarshal(b, &m) == nil && m.Current != 0 {
				return m, nil
			}
		}
		if loc, _ := r.Structured["location"].(string); loc != "" {
			h := fnv.New32a()
			h.Write([]byte(loc))
			id := int(h.Sum32()>>1) + 1
			return mapView{Current: id, Location: loc,
				Rooms: []mapRoom{{ID: id, Name: loc, Untried: append([]string(nil), game.Directions...)}}}, nil
		}
	}
	return m, nil
}

// randomDirection is the command of last resort: a compass direction.
func randomDirection(rng policyRand) string {
	return game.Directions[rng.IntN(len(game.Directions))]
}

// The baselines' names, as the command line, experiment configs and the
// REPL spell them.
const (
	BaselineRandom      = "random"
	BaselineWalkthrough = "walkthrough"
	BaselineExplorer    = "explorer"
)

// BaselineNames returns the baselines' names in the order help and
// errors list them: a new slice each call, so that no caller can change
// another's list.
func BaselineNames() []string {
	return []string{BaselineRandom, BaselineWalkthrough, BaselineExplorer, BaselineCommands}
}

// NewBaseline returns the baseline policy named name: random and explorer
// seeded with seed, walkthrough replaying the solution of the game named
// gameName (see Walkthrough). An unknown name is an error.
func NewBaseline(name string, seed int64, gameName string) (Policy, error) {
	switch strings.ToLower(name) {
	case BaselineRandom:
		return NewRandom(seed), nil
	case BaselineExplorer:
		return NewExplorer(seed), nil
	case BaselineWalkthrough:
		return NewWalkthroughFor(gameName)
	case BaselineCommands:
		return nil, errors.New("the commands policy replays a file: give it one (--commands FILE, a variant's commands_file, or NewCommands)")
	}
	return nil, fmt.Errorf("no baseline policy %q (baselines: %s)", name, strings.Join(BaselineNames(), ", "))
}
