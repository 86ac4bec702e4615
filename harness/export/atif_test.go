package export

import (
	"regexp"
	"strings"
	"testing"
)

// The ATIF structures, as Harbor's RFC (rfcs/0001-trajectory-format.md,
// v1.6/v1.7) defines them: every field the format has, so that decoding
// with unknown fields refused catches one grue made up.
type atifSpec struct {
	SchemaVersion          string         `json:"schema_version"`
	SessionID              string         `json:"session_id"`
	TrajectoryID           string         `json:"trajectory_id"`
	Agent                  atifSpecAgent  `json:"agent"`
	Steps                  []atifSpecStep `json:"steps"`
	Notes                  string         `json:"notes"`
	FinalMetrics           *atifSpecFinal `json:"final_metrics"`
	ContinuedTrajectoryRef string         `json:"continued_trajectory_ref"`
	Extra                  map[string]any `json:"extra"`
	SubagentTrajectories   []atifSpec     `json:"subagent_trajectories"`
}

type atifSpecAgent struct {
	Name            string           `json:"name"`
	Version         string           `json:"version"`
	ModelName       string           `json:"model_name"`
	ToolDefinitions []map[string]any `json:"tool_definitions"`
	Extra           map[string]any   `json:"extra"`
}

type atifSpecStep struct {
	StepID           int                `json:"step_id"`
	Timestamp        string             `json:"timestamp"`
	Source           string             `json:"source"`
	ModelName        *string            `json:"model_name"`
	ReasoningEffort  any                `json:"reasoning_effort"`
	Message          any                `json:"message"`
	ReasoningContent *string            `json:"reasoning_content"`
	ToolCalls        []atifSpecToolCall `json:"tool_calls"`
	Observation      *struct {
		Results []struct {
			SourceCallID          *string          `json:"source_call_id"`
			Content               any              `json:"content"`
			SubagentTrajectoryRef []map[string]any `json:"subagent_trajectory_ref"`
			Extra                 map[string]any   `json:"extra"`
		} `json:"results"`
	} `json:"observation"`
	Metrics *struct {
		PromptTokens       *int           `json:"prompt_tokens"`
		CompletionTokens   *int           `json:"completion_tokens"`
		CachedTokens       *int           `json:"cached_tokens"`
		CostUSD            *float64       `json:"cost_usd"`
		PromptTokenIDs     []int          `json:"prompt_token_ids"`
		CompletionTokenIDs []int          `json:"completion_token_ids"`
		Logprobs           []float64      `json:"logprobs"`
		Extra              map[string]any `json:"extra"`
	} `json:"metrics"`
	Extra           map[string]any `json:"extra"`
	LLMCallCount    *int           `json:"llm_call_count"`
	IsCopiedContext *bool          `json:"is_copied_context"`
}

type atifSpecToolCall struct {
	ToolCallID   string         `json:"tool_call_id"`
	FunctionName string         `json:"function_name"`
	Arguments    map[string]any `json:"arguments"`
	Extra        map[string]any `json:"extra"`
}

type atifSpecFinal struct {
	TotalPromptTokens     *int           `json:"total_prompt_tokens"`
	TotalCompletionTokens *int           `json:"total_completion_tokens"`
	TotalCachedTokens     *int           `json:"total_cached_tokens"`
	TotalCostUSD          *float64       `json:"total_cost_usd"`
	TotalSteps            *int           `json:"total_steps"`
	Extra                 map[string]any `json:"extra"`
}

var (
	atifVersions = regexp.MustCompile(`^ATIF-v1\.[0-7]$`)
	isoTime      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)
)

// checkATIF applies the RFC's rules that a decoder cannot: the required
// fields, step IDs from 1 in order, the sources, the fields only an agent
// step may have, and observations that answer the step's own calls.
func checkATIF(t *testing.T, name string, tr atifSpec) {
	t.Helper()
	if !atifVersions.MatchString(tr.SchemaVersion) || tr.SessionID == "" || tr.Agent.Name == "" || tr.Agent.Version == "" {
		t.Errorf("%s: schema_version %q, session_id %q, agent %q %q: all required", name, tr.SchemaVersion, tr.SessionID, tr.Agent.Name, tr.Agent.Version)
	}
	for i, s := range tr.Steps {
		if s.StepID != i+1 {
			t.Errorf("%s: step %d has step_id %d", name, i, s.StepID)
		}
		if s.Timestamp != "" && !isoTime.MatchString(s.Timestamp) {
			t.Errorf("%s: step %d: timestamp %q is not ISO 8601", name, s.StepID, s.Timestamp)
		}
		switch s.Source {
		case "agent":
		case "system", "user":
			if s.ModelName != nil || s.ReasoningContent != nil || s.ToolCalls != nil || s.Metrics != nil || s.ReasoningEffort != nil {
				t.Errorf("%s: step %d (%s) has a field only agent steps have", name, s.StepID, s.Source)
			}
		default:
			t.Errorf("%s: step %d: source %q", name, s.StepID, s.Source)
		}
		if s.Message == nil {
			t.Errorf("%s: step %d has no message", name, s.StepID)
		}
		ids := map[string]bool{}
		for _, c := range s.ToolCalls {
			if c.ToolCallID == "" || c.FunctionName == "" || c.Arguments == nil {
				t.Errorf("%s: step %d: tool call %+v lacks a required field", name, s.StepID, c)
			}
			ids[c.ToolCallID] = true
		}
		if s.Observation != nil {
			for _, r := range s.Observation.Results {
				if r.SourceCallID != nil && !ids[*r.SourceCallID] {
					t.Errorf("%s: step %d: observation answers %q, not a call of the step", name, s.StepID, *r.SourceCallID)
				}
			}
		}
	}
}

func TestExportATIF(t *testing.T) {
	dir := testRun(t)
	files := exportTo(t, dir, FormatATIF)
	if len(files) != 4 || !strings.HasSuffix(files[0], "model/lantern_1.json") {
		t.Fatalf("files %v: want one per episode, model/lantern_1.json first", files)
	}
	for _, f := range files {
		var tr atifSpec
		strict(t, f, read(t, f), &tr)
		checkATIF(t, f, tr)
	}
	var tr atifSpec
	strict(t, files[0], read(t, files[0]), &tr)
	if len(tr.Steps) != 6 || tr.Steps[0].Source != "system" || tr.Steps[1].Source != "user" {
		t.Fatalf("model's trajectory: %d steps, want the system prompt, the opening and 4 agent steps", len(tr.Steps))
	}
	a := tr.Steps[2]
	if a.ModelName == nil || *a.ModelName != "scripted" || a.ReasoningContent == nil || a.Metrics == nil || *a.Metrics.PromptTokens != 100 ||
		len(a.ToolCalls) != 1 || a.ToolCalls[0].FunctionName != "play_action" || a.Observation == nil {
		t.Errorf("agent step: %+v", a)
	}
	if tr.FinalMetrics == nil || *tr.FinalMetrics.TotalSteps != 4 || tr.Agent.ModelName != "scripted" {
		t.Errorf("final metrics %+v, agent %+v", tr.FinalMetrics, tr.Agent)
	}
	if !strings.Contains(tr.Steps[1].Message.(string), "Meadow") {
		t.Errorf("the user step is the game's opening: %q", tr.Steps[1].Message)
	}
}

// A check that cannot fail proves nothing: a trajectory that breaks the
// RFC's rules is caught.
func TestCheckATIFCatches(t *testing.T) {
	bad := []byte(`{"schema_version":"ATIF-v1.6","session_id":"s","agent":{"name":"grue","version":"1"},
	"steps":[{"step_id":2,"source":"user","message":"hi","model_name":"m"}]}`)
	var tr atifSpec
	strict(t, "bad", bad, &tr)
	ft := &testing.T{}
	checkATIF(ft, "bad", tr)
	if !ft.Failed() {
		t.Error("a step_id out of order and a model_name on a user step passed the check")
	}
}

// agent.extra.policy names what chose the actions: llm for the model's
// variant (whose config names no policy), walkthrough for the baseline.
func TestExportATIFPolicy(t *testing.T) {
	dir := testRun(t)
	want := map[string]string{"model": "llm", "walk": "walkthrough"}
	for _, f := range exportTo(t, dir, FormatATIF) {
		var tr atifSpec
		strict(t, f, read(t, f), &tr)
		variant, _ := tr.Agent.Extra["variant"].(string)
		if got := tr.Agent.Extra["policy"]; got != want[variant] {
			t.Errorf("%s: agent.extra.policy %q, want %q", f, got, want[variant])
		}
	}
}
