package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/harness"
)

// The Inspect format is inspect_ai's JSON eval log (log format version
// 2), as the JSON Schema that inspect_ai ships for its log viewer
// defines it (github.com/UKGovernmentBEIS/inspect_ai,
// src/inspect_ai/_view/www/log-schema.json, EvalLog and its $defs; also
// inspect.aisi.org.uk/eval-logs.html). The copy in
// testdata/inspect-log-schema.json (its README names the commit) is the
// one the tests validate every export against. A root {version, status,
// eval, plan, results, stats, error, samples}; eval an EvalSpec; results
// {total_samples, completed_samples, scores: [EvalScore {name, scorer,
// reducer, scored_samples, unscored_samples, params, metrics: {NAME:
// {name, value, params, metadata}}, metadata}], metadata}; stats
// {started_at, completed_at, model_usage}; each sample an EvalSample
// {id, epoch, input, target, messages (ChatMessageSystem, User,
// Assistant with tool_calls, Tool), output (ModelOutput), scores {NAME:
// Score {history, value, answer, explanation, metadata}}, metadata,
// store, events, model_usage, ...}. grue writes every field that schema
// lists, null where it has nothing to say (inspect_ai itself leaves the
// defaulted ones out; both load). A variant is an eval (its task
// grue/<experiment>, its model the variant's, or none/<policy> for a
// baseline) and an episode a sample (id game/seed), scored by its final
// score, with the percent of the maximum and the win in its metadata.

type inspectLog struct {
	Version int             `json:"version"`
	Status  string          `json:"status"`
	Eval    inspectSpec     `json:"eval"`
	Plan    inspectPlan     `json:"plan"`
	Results inspectResults  `json:"results"`
	Stats   inspectStats    `json:"stats"`
	Error   *inspectError   `json:"error"`
	Samples []inspectSample `json:"samples"`
}

type inspectSpec struct {
	EvalSetID           *string             `json:"eval_set_id"`
	EvalID              string              `json:"eval_id"`
	RunID               string              `json:"run_id"`
	Created             string              `json:"created"`
	Task                string              `json:"task"`
	TaskID              string              `json:"task_id"`
	TaskVersion         int                 `json:"task_version"`
	TaskFile            *string             `json:"task_file"`
	TaskDisplayName     *string             `json:"task_display_name"`
	TaskRegistryName    *string             `json:"task_registry_name"`
	TaskAttribs         map[string]any      `json:"task_attribs"`
	TaskArgs            map[string]any      `json:"task_args"`
	TaskArgsPassed      map[string]any      `json:"task_args_passed"`
	Solver              *string             `json:"solver"`
	SolverArgs          map[string]any      `json:"solver_args"`
	Tags                []string            `json:"tags"`
	Dataset             inspectDataset      `json:"dataset"`
	Sandbox             any                 `json:"sandbox"`
	Model               string              `json:"model"`
	ModelGenerateConfig inspectGenerateConf `json:"model_generate_config"`
	ModelBaseURL        *string             `json:"model_base_url"`
	ModelArgs           map[string]any      `json:"model_args"`
	ModelRoles          any                 `json:"model_roles"`
	Config              inspectConfig       `json:"config"`
	Revision            any                 `json:"revision"`
	Packages            map[string]string   `json:"packages"`
	Metadata            map[string]any      `json:"metadata"`
	Scorers             any                 `json:"scorers"`
	Metrics             any                 `json:"metrics"`
}

type inspectDataset struct {
	Name      *string  `json:"name"`
	Location  *string  `json:"location"`
	Samples   *int     `json:"samples"`
	SampleIDs []string `json:"sample_ids"`
	Shuffled  *bool    `json:"shuffled"`
}

// inspectConfig is an EvalConfig: every field null (grue's limits are in
// the eval's metadata).
type inspectConfig struct {
	Limit           any `json:"limit"`
	SampleID        any `json:"sample_id"`
	SampleShuffle   any `json:"sample_shuffle"`
	Epochs          any `json:"epochs"`
	EpochsReducer   any `json:"epochs_reducer"`
	Approval        any `json:"approval"`
	FailOnError     any `json:"fail_on_error"`
	ContinueOnFail  any `json:"continue_on_fail"`
	RetryOnError    any `json:"retry_on_error"`
	MessageLimit    any `json:"message_limit"`
	TokenLimit      any `json:"token_limit"`
	TimeLimit       any `json:"time_limit"`
	WorkingLimit    any `json:"working_limit"`
	MaxSamples      any `json:"max_samples"`
	MaxTasks        any `json:"max_tasks"`
	MaxSubprocesses any `json:"max_subprocesses"`
	MaxSandboxes    any `json:"max_sandboxes"`
	SandboxCleanup  any `json:"sandbox_cleanup"`
	LogSamples      any `json:"log_samples"`
	LogRealtime     any `json:"log_realtime"`
	LogImages       any `json:"log_images"`
	LogBuffer       any `json:"log_buffer"`
	LogShared       any `json:"log_shared"`
	ScoreDisplay    any `json:"score_display"`
}

type inspectPlan struct {
	Name   string              `json:"name"`
	Steps  []inspectPlanStep   `json:"steps"`
	Finish *inspectPlanStep    `json:"finish"`
	Config inspectGenerateConf `json:"config"`
}

type inspectPlanStep struct {
	Solver string         `json:"solver"`
	Params map[string]any `json:"params"`
}

// inspectGenerateConf is a GenerateConfig: what grue sends the model,
// null for the rest.
type inspectGenerateConf struct {
	MaxRetries        any      `json:"max_retries"`
	Timeout           any      `json:"timeout"`
	MaxConnections    any      `json:"max_connections"`
	SystemMessage     *string  `json:"system_message"`
	MaxTokens         *int     `json:"max_tokens"`
	TopP              any      `json:"top_p"`
	Temperature       *float64 `json:"temperature"`
	StopSeqs          any      `json:"stop_seqs"`
	BestOf            any      `json:"best_of"`
	FrequencyPenalty  any      `json:"frequency_penalty"`
	PresencePenalty   any      `json:"presence_penalty"`
	LogitBias         any      `json:"logit_bias"`
	Seed              any      `json:"seed"`
	TopK              any      `json:"top_k"`
	NumChoices        any      `json:"num_choices"`
	Logprobs          any      `json:"logprobs"`
	TopLogprobs       any      `json:"top_logprobs"`
	ParallelToolCalls any      `json:"parallel_tool_calls"`
	InternalTools     any      `json:"internal_tools"`
	MaxToolOutput     any      `json:"max_tool_output"`
	CachePrompt       any      `json:"cache_prompt"`
	ReasoningEffort   any      `json:"reasoning_effort"`
	ReasoningTokens   any      `json:"reasoning_tokens"`
	ReasoningSummary  any      `json:"reasoning_summary"`
	ReasoningHistory  any      `json:"reasoning_history"`
	ResponseSchema    any      `json:"response_schema"`
	ExtraBody         any      `json:"extra_body"`
	Batch             any      `json:"batch"`
}

type inspectResults struct {
	TotalSamples     int                `json:"total_samples"`
	CompletedSamples int                `json:"completed_samples"`
	Scores           []inspectEvalScore `json:"scores"`
	Metadata         map[string]any     `json:"metadata"`
}

type inspectEvalScore struct {
	Name            string                   `json:"name"`
	Scorer          string                   `json:"scorer"`
	Reducer         *string                  `json:"reducer"`
	ScoredSamples   *int                     `json:"scored_samples"`
	UnscoredSamples *int                     `json:"unscored_samples"`
	Params          map[string]any           `json:"params"`
	Metrics         map[string]inspectMetric `json:"metrics"`
	Metadata        map[string]any           `json:"metadata"`
}

type inspectMetric struct {
	Name     string         `json:"name"`
	Value    float64        `json:"value"`
	Params   map[string]any `json:"params"`
	Metadata map[string]any `json:"metadata"`
}

type inspectStats struct {
	StartedAt   string                  `json:"started_at"`
	CompletedAt string                  `json:"completed_at"`
	ModelUsage  map[string]inspectUsage `json:"model_usage"`
}

type inspectUsage struct {
	InputTokens           int  `json:"input_tokens"`
	OutputTokens          int  `json:"output_tokens"`
	TotalTokens           int  `json:"total_tokens"`
	InputTokensCacheWrite *int `json:"input_tokens_cache_write"`
	InputTokensCacheRead  *int `json:"input_tokens_cache_read"`
	ReasoningTokens       *int `json:"reasoning_tokens"`
}

// inspectUsageOf is u as Inspect counts tokens; reasoning tokens null
// when the server did not say.
func inspectUsageOf(u llm.Usage) inspectUsage {
	out := inspectUsage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if u.ReasoningTokens > 0 {
		r := u.ReasoningTokens
		out.ReasoningTokens = &r
	}
	return out
}

type inspectError struct {
	Message       string `json:"message"`
	Traceback     string `json:"traceback"`
	TracebackAnsi string `json:"traceback_ansi"`
}

type inspectSample struct {
	ID           string                  `json:"id"`
	Epoch        int                     `json:"epoch"`
	Input        string                  `json:"input"`
	Choices      []string                `json:"choices"`
	Target       string                  `json:"target"`
	Sandbox      any                     `json:"sandbox"`
	Files        []string                `json:"files"`
	Setup        *string                 `json:"setup"`
	Messages     []inspectMessage        `json:"messages"`
	Output       inspectOutput           `json:"output"`
	Scores       map[string]inspectScore `json:"scores"`
	Metadata     map[string]any          `json:"metadata"`
	Store        map[string]any          `json:"store"`
	Events       []any                   `json:"events"`
	ModelUsage   map[string]inspectUsage `json:"model_usage"`
	TotalTime    *float64                `json:"total_time"`
	WorkingTime  *float64                `json:"working_time"`
	UUID         *string                 `json:"uuid"`
	Error        *inspectError           `json:"error"`
	ErrorRetries any                     `json:"error_retries"`
	Attachments  map[string]string       `json:"attachments"`
	Limit        any                     `json:"limit"`
}

// inspectMessage is any of the four chat messages, with the fields of
// its role and no other (every role: id, content, source, metadata,
// role; ChatMessageUser adds tool_call_id; ChatMessageAssistant adds
// tool_calls and model; ChatMessageTool adds tool_call_id, function and
// error).
type inspectMessage map[string]any

type inspectToolCall struct {
	ID         string         `json:"id"`
	Function   string         `json:"function"`
	Arguments  map[string]any `json:"arguments"`
	Type       string         `json:"type"`
	ParseError *string        `json:"parse_error"`
	View       any            `json:"view"`
}

type inspectOutput struct {
	Model      string        `json:"model"`
	Choices    []any         `json:"choices"`
	Completion string        `json:"completion"`
	Usage      *inspectUsage `json:"usage"`
	Time       *float64      `json:"time"`
	Metadata   any           `json:"metadata"`
	Error      *string       `json:"error"`
}

type inspectScore struct {
	History     []any          `json:"history"`
	Value       float64        `json:"value"`
	Answer      *string        `json:"answer"`
	Explanation *string        `json:"explanation"`
	Metadata    map[string]any `json:"metadata"`
}

// writeInspect writes one eval log per variant.
func writeInspect(r *Run, out string) ([]string, error) {
	var order []string
	byVariant := map[string][]Episode{}
	for _, ep := range r.Episodes {
		v := ep.Record.Variant
		if _, ok := byVariant[v]; !ok {
			order = append(order, v)
		}
		byVariant[v] = append(byVariant[v], ep)
	}
	var files []string
	for _, v := range order {
		log, start := inspectLogOf(r, v, byVariant[v])
		// Inspect names a log TIME_TASK_ID, the time with dashes for colons.
		created := start.UTC().Format("2006-01-02T15-04-05+00-00")
		path := filepath.Join(out, fmt.Sprintf("%s_%s_%s.json", created, fileName("grue-"+r.Name()+"-"+v), log.Eval.TaskID))
		if err := writeJSON(path, log); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// inspectTime is t as Inspect writes times (ISO 8601 with the offset).
func inspectTime(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000-07:00")
}

// inspectLogOf is one variant's episodes as an eval log, and when the
// first of them started.
func inspectLogOf(r *Run, variant string, eps []Episode) (inspectLog, time.Time) {
	first := eps[0].Record
	start, end := first.Started, first.Finished
	model := first.Model
	var usage llm.Usage
	var ids []string
	var samples []inspectSample
	for _, ep := range eps {
		rec := ep.Record
		if rec.Started.Before(start) {
			start = rec.Started
		}
		if rec.Finished.After(end) {
			end = rec.Finished
		}
		usage = usage.Add(rec.Tokens)
		s := inspectSampleOf(ep)
		ids = append(ids, s.ID)
		samples = append(samples, s)
	}
	metrics, completed := inspectMetrics(eps)
	unscored := len(eps) - completed
	modelName := "none/" + variant
	if model != "" {
		modelName = "openai/" + model
	}
	solver := "grue/react"
	v, known := r.variant(variant)
	if known && v.Policy != "" && v.Policy != harness.PolicyLLM {
		solver = "grue/" + v.Policy
	}
	sum256 := sha256.Sum256([]byte(r.Name() + "\x00" + variant + "\x00" + inspectTime(start)))
	id := hex.EncodeToString(sum256[:])[:22]
	evalSum := sha256.Sum256([]byte("eval\x00" + id))
	evalID := hex.EncodeToString(evalSum[:])[:22]
	name, loc, count, shuffled := r.Name(), r.Dir, len(ids), false
	log := inspectLog{
		Version: 2, Status: "success",
		Eval: inspectSpec{
			EvalID: evalID, RunID: id, Created: inspectTime(start), Task: "grue/" + r.Name(), TaskID: id,
			TaskAttribs: map[string]any{}, TaskArgs: map[string]any{"variant": variant},
			TaskArgsPassed: map[string]any{"variant": variant},
			Solver:         &solver, SolverArgs: inspectSolverArgs(v, known),
			Dataset: inspectDataset{Name: &name, Location: &loc, Samples: &count, SampleIDs: ids, Shuffled: &shuffled},
			Model:   modelName, ModelArgs: map[string]any{},
			Packages: map[string]string{"grue": first.GrueVersion},
			Metadata: map[string]any{"config_hash": first.ConfigHash, "variant": variant},
		},
		Plan: inspectPlan{Name: "plan", Steps: []inspectPlanStep{{Solver: solver, Params: map[string]any{}}}},
		Results: inspectResults{TotalSamples: len(eps), CompletedSamples: completed,
			Scores: []inspectEvalScore{{Name: "score", Scorer: "grue/final_score", ScoredSamples: &completed,
				UnscoredSamples: &unscored, Params: map[string]any{}, Metrics: metrics}}},
		Stats: inspectStats{StartedAt: inspectTime(start), CompletedAt: inspectTime(end),
			ModelUsage: map[string]inspectUsage{}},
		Samples: samples,
	}
	if known {
		log.Plan.Config.Temperature = v.Temperature
		if v.MaxTokens > 0 {
			log.Plan.Config.MaxTokens = &v.MaxTokens
		}
		if v.SystemPrompt != "" {
			log.Plan.Config.SystemMessage = &v.SystemPrompt
		}
		log.Eval.ModelGenerateConfig = log.Plan.Config
	}
	if model != "" {
		log.Stats.ModelUsage[modelName] = inspectUsageOf(usage)
	}
	if completed == 0 {
		log.Status = "error"
		log.Error = &inspectError{Message: "every episode failed: " + first.Error}
	}
	return log, start
}

// inspectMetrics are the episodes' mean score, mean percent of the
// maximum (over the games that have one) and share of wins; completed
// counts the episodes that did not fail.
func inspectMetrics(eps []Episode) (map[string]inspectMetric, int) {
	var sum, pct, won float64
	scored, completed := 0, 0
	for _, ep := range eps {
		rec := ep.Record
		if !rec.Failed() {
			completed++
		}
		sum += float64(rec.FinalScore)
		if p, ok := rec.PercentOfMax(); ok {
			pct += p
			scored++
		}
		if rec.Victory {
			won++
		}
	}
	n := float64(len(eps))
	metrics := map[string]inspectMetric{
		"mean": {Name: "mean", Value: sum / n, Params: map[string]any{}},
		"won":  {Name: "won", Value: won / n, Params: map[string]any{}},
	}
	if scored > 0 {
		metrics["percent_of_max"] = inspectMetric{Name: "percent_of_max", Value: pct / float64(scored), Params: map[string]any{}}
	}
	return metrics, completed
}

// inspectSolverArgs are the variant's settings, as far as the manifest
// has them.
func inspectSolverArgs(v harness.Variant, known bool) map[string]any {
	if !known {
		return map[string]any{}
	}
	args := map[string]any{"policy": v.Policy, "protocol": v.Protocol, "memory": v.Memory}
	if len(v.Tools) > 0 {
		args["tools"] = v.Tools
	}
	return args
}

// inspectSampleOf is one episode as a sample.
func inspectSampleOf(ep Episode) inspectSample {
	rec := ep.Record
	explain := fmt.Sprintf("score %d of %d in %d steps (%d moves)", rec.FinalScore, rec.MaxScore, rec.Steps, rec.Moves)
	meta := map[string]any{"max_score": rec.MaxScore, "victory": rec.Victory, "game_completed": rec.GameCompleted,
		"moves": rec.Moves, "steps": rec.Steps, "locations_visited": rec.LocationsVisited}
	if p, ok := rec.PercentOfMax(); ok {
		meta["percent_of_max"] = p
	}
	secs := rec.Duration().Seconds()
	s := inspectSample{
		ID: fmt.Sprintf("%s/%d", rec.Game, rec.Seed), Epoch: 1, Input: ep.opening(), Target: "",
		Messages: inspectMessages(ep),
		Output:   inspectOutput{Model: rec.Model, Choices: []any{}, Completion: lastReply(ep), Time: &secs},
		Scores: map[string]inspectScore{"score": {History: []any{}, Value: float64(rec.FinalScore),
			Explanation: &explain, Metadata: meta}},
		TotalTime: &secs,
		Metadata:  map[string]any{"variant": rec.Variant, "game": rec.Game, "seed": rec.Seed, "llm_seed": rec.LLMSeed},
		Store:     map[string]any{}, Events: []any{}, ModelUsage: map[string]inspectUsage{}, Attachments: map[string]string{},
	}
	if s.Input == "" {
		s.Input = rec.Game
	}
	if rec.Model != "" {
		u := inspectUsageOf(rec.Tokens)
		s.Output.Usage = &u
		s.ModelUsage["openai/"+rec.Model] = u
	}
	if rec.Error != "" {
		s.Error = &inspectError{Message: rec.Error}
		s.Output.Error = &rec.Error
	}
	return s
}

// inspectMessages is the episode as a chat: the system prompt, the
// game's opening, then each step's reply with its tool call and the
// tool's answer.
func inspectMessages(ep Episode) []inspectMessage {
	msgs := []inspectMessage{}
	if sys := ep.system(); sys != "" {
		msgs = append(msgs, inspectMessage{"id": nil, "content": sys, "source": nil, "metadata": nil, "role": "system"})
	}
	if o := ep.opening(); o != "" {
		msgs = append(msgs, inspectMessage{"id": nil, "content": o, "source": "input", "metadata": nil, "role": "user", "tool_call_id": nil})
	}
	model := ep.Record.Model
	for _, s := range ep.steps() {
		msgs = append(msgs, inspectStepMessages(s, model)...)
	}
	return msgs
}

// inspectStepMessages are one step's assistant message and tool answer.
// model is the model that answered, "" for a baseline.
func inspectStepMessages(s agent.Step, model string) []inspectMessage {
	var modelOrNil any
	if model != "" {
		modelOrNil = model
	}
	content := s.Thought
	if s.Reply != nil {
		content = s.Reply.Content
	}
	if s.Error != "" {
		return []inspectMessage{{"id": nil, "content": content, "source": "generate", "metadata": nil, "role": "assistant",
			"tool_calls": nil, "model": modelOrNil}}
	}
	args := s.Args
	if args == nil {
		args = map[string]any{}
	}
	id := callID(s)
	call := inspectToolCall{ID: id, Function: s.Tool, Arguments: args, Type: "function"}
	var toolErr any
	if s.ToolError {
		toolErr = map[string]any{"type": "unknown", "message": s.Observation}
	}
	return []inspectMessage{
		{"id": nil, "content": content, "source": "generate", "metadata": nil, "role": "assistant",
			"tool_calls": []inspectToolCall{call}, "model": modelOrNil},
		{"id": nil, "content": s.Observation, "source": nil, "metadata": nil, "role": "tool",
			"tool_call_id": id, "function": s.Tool, "error": toolErr},
	}
}

// lastReply is the content of the episode's last model reply (Inspect's
// completion), "" for a baseline.
func lastReply(ep Episode) string {
	steps := ep.steps()
	for i := len(steps) - 1; i >= 0; i-- {
		if r := steps[i].Reply; r != nil {
			return r.Content
		}
	}
	return ""
}
