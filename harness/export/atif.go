package export

import (
	"fmt"
	"path/filepath"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/jsonms"
)

// ATIF is Harbor's Agent Trajectory Interchange Format, as its RFC
// specifies it (github.com/harbor-framework/harbor,
// rfcs/0001-trajectory-format.md, v1.6 and v1.7; also
// harborframework.com/docs/trajectory-format): a root object with
// schema_version, session_id, agent {name, version, model_name, extra},
// steps and final_metrics {total_prompt_tokens, total_completion_tokens,
// total_cached_tokens, total_cost_usd, total_steps, extra}; each step a
// step_id (from 1, in order), timestamp (ISO 8601), source (system, user
// or agent), message, and on agent steps only model_name,
// reasoning_content, tool_calls [{tool_call_id, function_name,
// arguments}], observation {results: [{source_call_id, content}]} and
// metrics {prompt_tokens, completion_tokens, cached_tokens, cost_usd,
// extra}; extra on every level for what the format has no field for.
// grue writes ATIF-v1.6 (no field of v1.7 is needed): the system prompt
// as a system step, the game's opening text as a user step, and each of
// grue's steps as an agent step whose observation is the tool's answer.
// grue records no clock time per step: a step's timestamp is the
// episode's start plus the wall time of the steps before it.

// atifVersion is the schema_version grue writes.
const atifVersion = "ATIF-v1.6"

type atifTrajectory struct {
	SchemaVersion string           `json:"schema_version"`
	SessionID     string           `json:"session_id"`
	Agent         atifAgent        `json:"agent"`
	Steps         []atifStep       `json:"steps"`
	Notes         string           `json:"notes,omitempty"`
	FinalMetrics  atifFinalMetrics `json:"final_metrics"`
	Extra         map[string]any   `json:"extra,omitempty"`
}

type atifAgent struct {
	Name      string         `json:"name"`
	Version   string         `json:"version"`
	ModelName string         `json:"model_name,omitempty"`
	Extra     map[string]any `json:"extra,omitempty"`
}

type atifStep struct {
	StepID           int              `json:"step_id"`
	Timestamp        string           `json:"timestamp,omitempty"`
	Source           string           `json:"source"`
	ModelName        string           `json:"model_name,omitempty"`
	Message          string           `json:"message"`
	ReasoningContent string           `json:"reasoning_content,omitempty"`
	ToolCalls        []atifToolCall   `json:"tool_calls,omitempty"`
	Observation      *atifObservation `json:"observation,omitempty"`
	Metrics          *atifMetrics     `json:"metrics,omitempty"`
	Extra            map[string]any   `json:"extra,omitempty"`
}

type atifToolCall struct {
	ToolCallID   string         `json:"tool_call_id"`
	FunctionName string         `json:"function_name"`
	Arguments    map[string]any `json:"arguments"`
}

type atifObservation struct {
	Results []atifResult `json:"results"`
}

type atifResult struct {
	SourceCallID string `json:"source_call_id,omitempty"`
	Content      string `json:"content"`
}

type atifMetrics struct {
	PromptTokens     int            `json:"prompt_tokens"`
	CompletionTokens int            `json:"completion_tokens"`
	CostUSD          float64        `json:"cost_usd"`
	Extra            map[string]any `json:"extra,omitempty"`
}

type atifFinalMetrics struct {
	TotalPromptTokens     int            `json:"total_prompt_tokens"`
	TotalCompletionTokens int            `json:"total_completion_tokens"`
	TotalCostUSD          float64        `json:"total_cost_usd"`
	TotalSteps            int            `json:"total_steps"`
	Extra                 map[string]any `json:"extra,omitempty"`
}

// writeATIF writes one ATIF trajectory per episode, at
// <variant>/<game>_<seed>.json.
func writeATIF(r *Run, out string) ([]string, error) {
	var files []string
	for _, ep := range r.Episodes {
		rec := ep.Record
		path := filepath.Join(out, fileName(rec.Variant), fmt.Sprintf("%s_%d.json", gameName(rec.Game), rec.Seed))
		if err := writeJSON(path, atifOf(r, ep)); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// atifOf is the episode as an ATIF trajectory.
func atifOf(r *Run, ep Episode) atifTrajectory {
	rec := ep.Record
	t := atifTrajectory{
		SchemaVersion: atifVersion,
		SessionID:     fmt.Sprintf("%s/%s/%s", r.Name(), rec.Key(), rec.Started.UTC().Format("20060102T150405.000Z")),
		Agent: atifAgent{Name: "grue", Version: rec.GrueVersion, ModelName: rec.Model,
			Extra: map[string]any{"variant": rec.Variant}},
		Steps: []atifStep{},
		Extra: map[string]any{"game": rec.Game, "seed": rec.Seed, "llm_seed": rec.LLMSeed, "config_hash": rec.ConfigHash},
		FinalMetrics: atifFinalMetrics{
			TotalPromptTokens: rec.Tokens.PromptTokens, TotalCompletionTokens: rec.Tokens.CompletionTokens,
			TotalCostUSD: rec.Cost, TotalSteps: rec.Steps,
			Extra: map[string]any{"final_score": rec.FinalScore, "max_score": rec.MaxScore, "moves": rec.Moves,
				"game_completed": rec.GameCompleted, "victory": rec.Victory, "locations_visited": rec.LocationsVisited},
		},
	}
	if t.Agent.Version == "" {
		t.Agent.Version = harness.DefaultVersion
	}
	t.Agent.Extra["policy"] = ep.policy(r)
	if rec.Error != "" {
		t.Notes = "the episode failed: " + rec.Error
	}
	at := rec.Started
	stamp := func() string {
		if at.IsZero() {
			return ""
		}
		return at.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	add := func(s atifStep) {
		s.StepID = len(t.Steps) + 1
		s.Timestamp = stamp()
		t.Steps = append(t.Steps, s)
	}
	if sys := ep.system(); sys != "" {
		add(atifStep{Source: "system", Message: sys})
	}
	if o := ep.opening(); o != "" {
		add(atifStep{Source: "user", Message: o})
	}
	for _, s := range ep.steps() {
		add(atifAgentStep(s, rec.Model))
		at = at.Add(s.Wall)
	}
	return t
}

// atifAgentStep is one of grue's steps as an ATIF agent step.
func atifAgentStep(s agent.Step, model string) atifStep {
	a := atifStep{Source: "agent", Message: s.Thought,
		Extra: map[string]any{"grue_step": s.Step, "score": s.Score, "reward": s.Reward, "moves": s.Moves,
			"wall_ms": jsonms.Millis(s.Wall)}}
	if s.Location != "" {
		a.Extra["location"] = s.Location
	}
	if s.Policy != "" {
		a.Extra["policy"] = s.Policy
	}
	if len(s.Repairs) > 0 {
		a.Extra["repairs"] = s.Repairs
	}
	if s.Done {
		a.Extra["done"], a.Extra["victory"] = true, s.Victory
	}
	if s.Reply != nil {
		a.Message, a.ReasoningContent, a.ModelName = s.Reply.Content, s.Reply.Reasoning, s.Reply.Model
		if a.ModelName == "" {
			a.ModelName = model
		}
		a.Metrics = &atifMetrics{PromptTokens: s.Usage.PromptTokens, CompletionTokens: s.Usage.CompletionTokens, CostUSD: s.Cost}
		if s.EstimatedTokens > 0 || s.Usage.ReasoningTokens > 0 {
			a.Metrics.Extra = map[string]any{"estimated_tokens": s.EstimatedTokens, "reasoning_tokens": s.Usage.ReasoningTokens}
		}
	}
	if s.Error != "" {
		a.Extra["error"] = s.Error
		return a
	}
	args := s.Args
	if args == nil {
		args = map[string]any{}
	}
	id := callID(s)
	a.ToolCalls = []atifToolCall{{ToolCallID: id, FunctionName: s.Tool, Arguments: args}}
	a.Observation = &atifObservation{Results: []atifResult{{SourceCallID: id, Content: s.Observation}}}
	return a
}
