package repl

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/harness"
)

// Some of grue's types hold more than a table or a screen can show: an
// episode holds its agent, its server and its whole trajectory, and a
// step has some thirty fields. Such a value is shown through a summary,
// a plain record of what a person comparing runs looks at: an episode as
// an episodeSummary (when shown alone or in a table), a step as a
// stepSummary (in a table; alone, a *agent.Step prints its own line).
// The whole value is still there: ep.Agent, ep.Agent.History[3].

// episodeSummary is how a *harness.Episode is shown.
type episodeSummary struct {
	Variant  string  `json:"variant,omitempty"`
	Game     string  `json:"game"`
	Seed     int64   `json:"seed"`
	Player   string  `json:"player"` // the policy's name, or "llm (MODEL)"
	Steps    int     `json:"steps"`
	Score    int     `json:"score"`
	MaxScore int     `json:"max_score"`
	Moves    int     `json:"moves"`
	Rooms    int     `json:"rooms"`
	Location string  `json:"location"`
	Done     bool    `json:"done"`
	Tokens   int     `json:"tokens"`
	Cost     float64 `json:"cost"`
	Error    string  `json:"error,omitempty"`
}

// stepSummary is how an agent.Step is shown in a table.
type stepSummary struct {
	Step        int    `json:"step"`
	Tool        string `json:"tool"`
	Args        string `json:"args"`
	Thought     string `json:"thought"`
	Observation string `json:"observation"`
	Location    string `json:"location"`
	Score       int    `json:"score"`
	Reward      int    `json:"reward"`
	Error       string `json:"error,omitempty"`
}

// summarizeEpisode returns the summary of e.
func summarizeEpisode(e *harness.Episode) episodeSummary {
	a := e.Agent
	sum := episodeSummary{Variant: e.Variant, Game: e.Game, Seed: e.Seed, Error: e.Err()}
	if a == nil {
		return sum
	}
	sum.Player = playerName(a)
	sum.Steps, sum.Score, sum.MaxScore, sum.Moves = len(a.History), a.Score, a.MaxScore, a.Moves
	sum.Rooms, sum.Location, sum.Done = len(a.Locations), a.Location, a.Done
	sum.Tokens, sum.Cost = a.Usage.TotalTokens, a.Cost
	return sum
}

// summarizeStep returns the summary of s.
func summarizeStep(s agent.Step) stepSummary {
	args := ""
	if len(s.Args) > 0 {
		if b, err := json.Marshal(s.Args); err == nil {
			args = string(b)
		}
	}
	return stepSummary{
		Step: s.Step, Tool: s.Tool, Args: args, Thought: s.Thought,
		Observation: strings.TrimSpace(s.Observation),
		Location:    s.Location, Score: s.Score, Reward: s.Reward, Error: s.Error,
	}
}

// playerName says who decides in a: the policy, or the model.
func playerName(a *agent.Agent) string {
	if a.Policy != nil {
		return a.Policy.Name()
	}
	if a.Model != "" {
		return "llm (" + a.Model + ")"
	}
	return "llm"
}

var (
	episodeType = reflect.TypeOf(harness.Episode{})
	stepType    = reflect.TypeOf(agent.Step{})
)

// summary returns the summary that stands for v (a struct, or a pointer
// to one) and the name of v's type, when v's type has one; inTable says
// whether v is a row of a table.
func summary(v reflect.Value, inTable bool) (reflect.Value, string, bool) {
	v = deref(v)
	if !v.IsValid() {
		return v, "", false
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			return v, "", false
		}
		t = t.Elem()
	}
	switch t {
	case episodeType:
		if v.Kind() != reflect.Pointer {
			if !v.CanAddr() {
				return v, "", false
			}
			v = v.Addr()
		}
		e, ok := v.Interface().(*harness.Episode)
		if !ok {
			return v, "", false
		}
		return reflect.ValueOf(summarizeEpisode(e)), "harness.Episode", true
	case stepType:
		if !inTable {
			return v, "", false
		}
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		s, ok := v.Interface().(agent.Step)
		if !ok {
			return v, "", false
		}
		return reflect.ValueOf(summarizeStep(s)), "agent.Step", true
	}
	return v, "", false
}

// summaryType returns the type of the summary of values of type t, when
// they have one in tables.
func summaryType(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case episodeType:
		return reflect.TypeOf(episodeSummary{}), true
	case stepType:
		return reflect.TypeOf(stepSummary{}), true
	}
	return nil, false
}
