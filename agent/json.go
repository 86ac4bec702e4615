package agent

import (
	"encoding/json"
	"fmt"

	"github.com/grue-lab/grue/agent/llm"
)

// stepTimes are a step's durations as its JSON holds them, in
// milliseconds.
type stepTimes struct {
	WallMS       float64 `json:"wall_ms"`
	LLMTimeMS    float64 `json:"llm_time_ms"`
	ToolTimeMS   float64 `json:"tool_time_ms"`
	MemoryTimeMS float64 `json:"memory_time_ms,omitempty"`
	OverheadMS   float64 `json:"overhead_ms"`
}

// MarshalJSON writes the step with its durations in milliseconds
// (wall_ms, llm_time_ms, tool_time_ms, memory_time_ms, overhead_ms).
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step
	return json.Marshal(struct {
		plain
		stepTimes
	}{plain(s), stepTimes{
		WallMS: llm.Millis(s.Wall), LLMTimeMS: llm.Millis(s.LLMTime), ToolTimeMS: llm.Millis(s.ToolTime),
		MemoryTimeMS: llm.Millis(s.MemoryTime), OverheadMS: llm.Millis(s.Overhead),
	}})
}

// UnmarshalJSON reads a step: its durations from the *_ms fields, or, in
// a step written before they were, from wall, llm_time, tool_time,
// memory_time and overhead in nanoseconds.
func (s *Step) UnmarshalJSON(b []byte) error {
	type plain Step
	var v struct {
		plain
		WallMS       *float64 `json:"wall_ms"`
		LLMTimeMS    *float64 `json:"llm_time_ms"`
		ToolTimeMS   *float64 `json:"tool_time_ms"`
		MemoryTimeMS *float64 `json:"memory_time_ms"`
		OverheadMS   *float64 `json:"overhead_ms"`
		Wall         *int64   `json:"wall"`
		LLMTime      *int64   `json:"llm_time"`
		ToolTime     *int64   `json:"tool_time"`
		MemoryTime   *int64   `json:"memory_time"`
		Overhead     *int64   `json:"overhead"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Step(v.plain)
	s.Wall = llm.MillisOrNanos(v.WallMS, v.Wall)
	s.LLMTime = llm.MillisOrNanos(v.LLMTimeMS, v.LLMTime)
	s.ToolTime = llm.MillisOrNanos(v.ToolTimeMS, v.ToolTime)
	s.MemoryTime = llm.MillisOrNanos(v.MemoryTimeMS, v.MemoryTime)
	s.Overhead = llm.MillisOrNanos(v.OverheadMS, v.Overhead)
	return nil
}

// MarshalJSON writes the result with its duration in milliseconds
// (duration_ms).
func (r RunResult) MarshalJSON() ([]byte, error) {
	type plain RunResult
	return json.Marshal(struct {
		plain
		DurationMS float64 `json:"duration_ms"`
	}{plain(r), llm.Millis(r.Duration)})
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
		DurationMS       *float64        `json:"duration_ms"`
		Duration         *int64          `json:"duration"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = RunResult(v.plain)
	r.Duration = llm.MillisOrNanos(v.DurationMS, v.Duration)
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
