package harness

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// EpisodeRecord is what one finished episode leaves in a run directory's
// results.jsonl: one JSON object a line, written when the episode ends.
// It holds enough to reproduce the episode (seeds, model, config hash, grue
// version), to compare it with others (score, moves, rooms, tokens, cost)
// and to plot it (the score after every step).
//
// Steps are counted from 1: ScoreByStep[0] is the score after step 1.
type EpisodeRecord struct {
	Variant string `json:"variant"`  // the variant's name in the experiment config
	Game    string `json:"game"`     // the game's name or story path
	Seed    int64  `json:"seed"`     // the game seed (the VM's random numbers)
	LLMSeed int64  `json:"llm_seed"` // the seed sent to the model
	// Policy is what played: "llm" for a model, else the baseline
	// ("random", "walkthrough", "explorer"). Older records have none.
	Policy string `json:"policy,omitempty"`
	// Model is the model actually asked (the config's, the environment's
	// or the one the endpoint serves); BaseURL its endpoint, credentials
	// masked (llm.RedactURL). Both "" for a baseline.
	Model   string `json:"model,omitempty"`
	BaseURL string `json:"base_url,omitempty"`

	FinalScore int `json:"final_score"`
	MaxScore   int `json:"max_score"` // 0 when the game does not say
	Moves      int `json:"moves"`     // the game's move counter
	Steps      int `json:"steps"`     // agent steps taken
	// GameCompleted is true when the game ended, won or not (the player
	// died, or reached an ending); Victory when it ended in a win. An
	// episode stopped by a limit has neither. Records written before
	// victory was recorded load with Victory false.
	GameCompleted bool `json:"game_completed"`
	Victory       bool `json:"victory"`
	// Restarts, Wins and Losses are for an episode that started its game
	// again when it ended (Config.OnGameOver GameOverRestart): how many
	// times it restarted, and how many of the games it played were won
	// and how many ended otherwise (GameCompleted and Victory are then
	// the last game's). HighScore is the highest score reached at any
	// step, whatever came after: what TALES counts. All 0 and absent in
	// an episode that stops at game over.
	Restarts  int `json:"restarts,omitempty"`
	Wins      int `json:"wins,omitempty"`
	Losses    int `json:"losses,omitempty"`
	HighScore int `json:"high_score,omitempty"`

	LocationsVisited int      `json:"locations_visited"`
	Locations        []string `json:"locations,omitempty"`

	// FirstPointStep is the step whose action first raised the score, -1
	// when the score never rose.
	FirstPointStep int `json:"first_point_step"`
	// InvalidActions counts steps whose tool result was an error or whose
	// command the game did not understand.
	InvalidActions int `json:"invalid_actions"`

	Tokens llm.Usage `json:"tokens"`
	// EstimatedTokens is how many of Tokens.TotalTokens the agent
	// estimated, for model replies that came without usage
	// (agent.RunResult.EstimatedTokens); 0 when every figure is the
	// server's.
	EstimatedTokens int     `json:"estimated_tokens,omitempty"`
	Cost            float64 `json:"cost"` // US dollars
	// PriceSource says where Cost comes from: PriceTable (grue's price
	// table, or the variant's prices), PriceUnknown (a model the table
	// has no price for: Cost is 0 but not known to be), PriceReplay (a
	// reply replayed from the cache, not paid for) or PriceNone (a
	// baseline: no model). Older records have none.
	PriceSource string `json:"price_source,omitempty"`
	DurationMS  int64  `json:"duration_ms"`

	// Error is why the episode failed after its last attempt; "" when it
	// ran to its end.
	Error    string `json:"error,omitempty"`
	Attempts int    `json:"attempts"`
	// Started and Finished are written in UTC to the millisecond
	// (RFC 3339: 2026-11-24T06:30:13.123Z), whatever their precision.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`

	// Trajectory is the episode's trajectory file, relative to the run
	// directory.
	Trajectory  string `json:"trajectory,omitempty"`
	ScoreByStep []int  `json:"score_by_step,omitempty"`

	ConfigHash  string `json:"config_hash,omitempty"`
	GrueVersion string `json:"grue_version,omitempty"`
	// GrueRevision is the VCS revision grue was built from (BuildRevision),
	// "unknown" when the build does not say.
	GrueRevision string `json:"grue_revision,omitempty"`
}

// Price sources of an EpisodeRecord (EpisodeRecord.PriceSource).
const (
	PriceTable   = "price table"
	PriceUnknown = "unknown"
	PriceReplay  = "cache replay"
	PriceNone    = "none"
)

// PriceSourceOf says where the costs of client c's replies for model come
// from, as EpisodeRecord.PriceSource does: PriceNone for no client (a
// baseline), PriceReplay for a cache with no client behind it
// (llm.ReplayFrom), PriceTable when c knows a price for model
// (llm.PriceKnower), else PriceUnknown: grue cannot say, so the cost is
// unknown, not free.
func PriceSourceOf(c llm.Client, model string) string {
	if c == nil {
		return PriceNone
	}
	if r, ok := c.(*llm.Cached); ok && r.ReplayOnly() {
		return PriceReplay
	}
	if p, ok := c.(llm.PriceKnower); ok && p.PriceKnown(model) {
		return PriceTable
	}
	return PriceUnknown
}

// EndpointOf is the base URL client c sends its requests to, credentials
// masked (llm.RedactURL), as EpisodeRecord.BaseURL holds it; "" when c
// does not say (it is no llm.Endpoint) or is nil.
func EndpointOf(c llm.Client) string {
	e, ok := c.(llm.Endpoint)
	if !ok {
		return ""
	}
	return llm.RedactURL(strings.TrimRight(e.BaseURL(), "/"))
}

// CostKnown reports whether the record's Cost is known: false for a model
// with no known price (PriceUnknown).
func (r EpisodeRecord) CostKnown() bool { return r.PriceSource != PriceUnknown }

// MarshalJSON writes the record with its times in UTC to the
// millisecond (see [EpisodeRecord.Started]).
func (r EpisodeRecord) MarshalJSON() ([]byte, error) {
	type plain EpisodeRecord
	p := plain(r)
	p.Started, p.Finished = stamp(p.Started), stamp(p.Finished)
	return json.Marshal(p)
}

// stamp is t as grue's JSON records times: in UTC, to the millisecond.
// The zero time stays zero.
func stamp(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC().Truncate(time.Millisecond)
}

// EpisodeKey names one episode of an experiment: a run directory holds at
// most one record for each key.
type EpisodeKey struct {
	Variant string `json:"variant"`
	Game    string `json:"game"`
	Seed    int64  `json:"seed"`
}

// String returns "variant/game/seed".
func (k EpisodeKey) String() string {
	return fmt.Sprintf("%s/%s/%d", k.Variant, k.Game, k.Seed)
}

// Key returns the record's (variant, game, seed).
func (r EpisodeRecord) Key() EpisodeKey {
	return EpisodeKey{Variant: r.Variant, Game: r.Game, Seed: r.Seed}
}

// Failed reports whether the episode ended in an error rather than at the
// end of the game or a limit.
func (r EpisodeRecord) Failed() bool { return r.Error != "" }

// Duration returns how long the episode ran.
func (r EpisodeRecord) Duration() time.Duration {
	return time.Duration(r.DurationMS) * time.Millisecond
}

// PercentOfMax returns the final score as a percentage of the maximum, and
// false when the game has no known maximum.
func (r EpisodeRecord) PercentOfMax() (float64, bool) {
	if r.MaxScore <= 0 {
		return 0, false
	}
	return 100 * float64(r.FinalScore) / float64(r.MaxScore), true
}

// HighestScore returns the highest score the episode reached at any
// step: its HighScore, its ScoreByStep's highest, or its final score,
// whichever is highest (an episode that stops at game over records no
// HighScore).
func (r EpisodeRecord) HighestScore() int {
	h := max(r.FinalScore, r.HighScore)
	for _, s := range r.ScoreByStep {
		h = max(h, s)
	}
	return h
}

// ScoreAt returns the score after step (counted from 1). Past the last
// recorded step it is the final score: an episode that ended keeps its
// score. Before step 1 it is 0.
func (r EpisodeRecord) ScoreAt(step int) int {
	switch {
	case step < 1:
		return 0
	case len(r.ScoreByStep) == 0:
		return r.FinalScore
	case step > len(r.ScoreByStep):
		return r.ScoreByStep[len(r.ScoreByStep)-1]
	}
	return r.ScoreByStep[step-1]
}

// validate reports what makes a decoded record unusable.
func (r EpisodeRecord) validate() error {
	switch {
	case r.Variant == "":
		return fmt.Errorf("record has no variant")
	case r.Game == "":
		return fmt.Errorf("record has no game")
	}
	return nil
}
