package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/grue-lab/grue/internal/jsonms"
)

// MarshalJSON writes the step with its durations in milliseconds
// (wall_ms, llm_time_ms, tool_time_ms, memory_time_ms, overhead_ms).
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step
	b, err := jsonms.Marshal(plain(s), s.durations()...)
	if err != nil || !s.MovesUnknown {
		return b, err
	}
	return nullMoves(b)
}

// UnmarshalJSON reads a step: its durations from the *_ms fields, or, in
// a step written before they were, from wall, llm_time, tool_time,
// memory_time and overhead in nanoseconds.
func (s *Step) UnmarshalJSON(b []byte) error {
	type plain Step
	if err := jsonms.Unmarshal(b, (*plain)(s), s.durations()...); err != nil {
		return err
	}
	s.MovesUnknown = movesNull(b)
	return nil
}

// durations are the step's durations as its JSON holds them, in order;
// memory_time_ms only when the memory strategy took any time.
func (s *Step) durations() []jsonms.Field {
	return []jsonms.Field{
		{Name: "wall", D: &s.Wall}, {Name: "llm_time", D: &s.LLMTime}, {Name: "tool_time", D: &s.ToolTime},
		{Name: "memory_time", D: &s.MemoryTime, OmitZero: true}, {Name: "overhead", D: &s.Overhead},
	}
}

// MarshalJSON writes the result with its duration in milliseconds
// (duration_ms).
func (r RunResult) MarshalJSON() ([]byte, error) {
	type plain RunResult
	b, err := jsonms.Marshal(plain(r), jsonms.Field{Name: "duration", D: &r.Duration})
	if err != nil || !r.MovesUnknown {
		return b, err
	}
	return nullMoves(b)
}

// nullMoves returns the JSON object b with its top-level "moves" null:
// a move count grue cannot know is written unknown, not 0. Only the
// top-level key changes (a tool's args may hold a "moves" of their own).
func nullMoves(b []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("agent: moves: not a JSON object")
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("agent: moves: %w", err)
		}
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("agent: moves: %w", err)
		}
		if k == "moves" {
			end := dec.InputOffset()
			out := append(slices.Clip(b[:start]), ":null"...)
			return append(out, b[end:]...), nil
		}
	}
	return b, nil
}

// movesNull reports that the JSON object b's top-level "moves" is null.
func movesNull(b []byte) bool {
	var v struct {
		Moves json.RawMessage `json:"moves"`
	}
	return json.Unmarshal(b, &v) == nil && string(v.Moves) == "null"
}

// JSONWith returns r's JSON object with the fields of head, a struct,
// first: what a type that embeds *RunResult marshals to. Such a type must
// say so in a MarshalJSON of its own (harness.Trajectory does), for the
// MarshalJSON of RunResult it would otherwise inherit writes r alone.
func (r *RunResult) JSONWith(head any) ([]byte, error) {
	h, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return h, nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if len(h) < 2 || h[0] != '{' || b[0] != '{' {
		return nil, fmt.Errorf("agent: JSONWith: %T is not a JSON object", head)
	}
	if string(h) == "{}" {
		return b, nil
	}
	out := append(h[:len(h)-1:len(h)-1], ',')
	return append(out, b[1:]...), nil
}

// UnmarshalJSON reads a result as written now or before: locations_visited
// a count (with the list in locations) or, before, the list itself; the
// duration from duration_ms or, before, duration in nanoseconds.
func (r *RunResult) UnmarshalJSON(b []byte) error {
	type plain RunResult
	var v struct {
		plain
		LocationsVisited json.RawMessage `json:"locations_visited"`
	}
	if err := jsonms.Unmarshal(b, &v, jsonms.Field{Name: "duration", D: &v.Duration}); err != nil {
		return err
	}
	*r = RunResult(v.plain)
	r.MovesUnknown = movesNull(b)
	if len(v.LocationsVisited) > 0 && v.LocationsVisited[0] == '[' {
		var names []string
		if err := json.Unmarshal(v.LocationsVisited, &names); err != nil {
			return fmt.Errorf("locations_visited: %w", err)
		}
		if r.Locations == nil {
			r.Locations = names
		}
		r.LocationsVisited = len(names)
	} else if len(v.LocationsVisited) > 0 && string(v.LocationsVisited) != "null" {
		if err := json.Unmarshal(v.LocationsVisited, &r.LocationsVisited); err != nil {
			return fmt.Errorf("locations_visited: %w", err)
		}
	}
	return nil
}
