package harness

// EpisodeSummary is an episode as a person comparing runs looks at it:
// who played what, and where it stands. An Episode holds more than a
// screen or a table can show (its agent, its server, its whole
// trajectory); the REPL shows this in its place, and the whole value is
// still there (ep.Agent, ep.Agent.History[3]).
type EpisodeSummary struct {
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

// Summary returns the episode's EpisodeSummary, as the REPL shows an
// episode alone, inside another value and as a row of a table. It
// implements [github.com/grue-lab/grue/repl.Summarizer].
func (e *Episode) Summary() any {
	sum := EpisodeSummary{Variant: e.Variant, Game: e.Game, Seed: e.Seed, Error: e.Err()}
	a := e.Agent
	if a == nil {
		return sum
	}
	sum.Player = "llm"
	switch {
	case a.Policy != nil:
		sum.Player = a.Policy.Name()
	case a.Model != "":
		sum.Player = "llm (" + a.Model + ")"
	}
	sum.Steps, sum.Score, sum.MaxScore, sum.Moves = len(a.History), a.Score, a.MaxScore, a.Moves
	sum.Rooms, sum.Location, sum.Done = len(a.Locations), a.Location, a.Done
	sum.Tokens, sum.Cost = a.Usage.TotalTokens, a.Cost
	return sum
}
