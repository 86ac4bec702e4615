package export

import (
	"encoding/json"
	"strings"
	"testing"
)

// The fields each part of an eval log must have, from the JSON Schema of
// inspect_ai's log viewer (src/inspect_ai/_view/www/log-schema.json: the
// "required" of EvalLog and of each $def), and the decoding structures:
// every field each part has there, so that one grue made up is refused.
var inspectRequired = map[string][]string{
	"log":       {"version", "status", "eval", "plan", "results", "stats", "error", "samples"},
	"eval":      {"run_id", "created", "task", "task_id", "task_version", "task_file", "task_attribs", "task_args", "solver", "solver_args", "tags", "dataset", "sandbox", "model", "model_base_url", "model_args", "config", "revision", "packages", "metadata"},
	"dataset":   {"name", "location", "samples", "sample_ids", "shuffled"},
	"config":    {"limit", "epochs", "epochs_reducer", "trace", "approval", "fail_on_error", "message_limit", "token_limit", "time_limit", "max_samples", "max_tasks", "max_subprocesses", "sandbox_cleanup", "log_samples", "log_images", "log_buffer"},
	"plan":      {"name", "steps", "finish", "config"},
	"generate":  {"max_retries", "timeout", "max_connections", "system_message", "max_tokens", "top_p", "temperature", "stop_seqs", "best_of", "frequency_penalty", "presence_penalty", "logit_bias", "seed", "suffix", "top_k", "num_choices", "logprobs", "top_logprobs", "parallel_tool_calls", "max_tool_output", "cache_prompt"},
	"results":   {"total_samples", "completed_samples", "scores", "metadata"},
	"score":     {"name", "scorer", "reducer", "params", "metrics", "metadata"},
	"metric":    {"name", "value", "options", "metadata"},
	"stats":     {"started_at", "completed_at", "model_usage"},
	"usage":     {"input_tokens", "output_tokens", "total_tokens", "input_tokens_cache_write", "input_tokens_cache_read"},
	"sample":    {"id", "epoch", "input", "choices", "target", "sandbox", "files", "setup", "messages", "output", "scores", "metadata", "store", "events", "model_usage", "error", "attachments", "limit"},
	"output":    {"model", "choices", "usage", "time", "metadata", "error"},
	"Score":     {"value", "answer", "explanation", "metadata"},
	"system":    {"content", "source", "role"},
	"user":      {"content", "source", "role"},
	"assistant": {"content", "source", "role", "tool_calls"},
	"tool":      {"content", "source", "role", "tool_call_id", "function", "error"},
	"toolcall":  {"id", "function", "arguments", "type", "parse_error", "view"},
	"error":     {"message", "traceback", "traceback_ansi"},
}

type inspectSpecLog struct {
	Version    int               `json:"version"`
	Status     string            `json:"status"`
	Eval       json.RawMessage   `json:"eval"`
	Plan       json.RawMessage   `json:"plan"`
	Results    json.RawMessage   `json:"results"`
	Stats      json.RawMessage   `json:"stats"`
	Error      json.RawMessage   `json:"error"`
	Samples    []json.RawMessage `json:"samples"`
	Reductions json.RawMessage   `json:"reductions"`
	Location   string            `json:"location"`
}

// checkInspect walks a log: each part decodes with no field the schema
// lacks and has every field it requires.
func checkInspect(t *testing.T, name string, b []byte) map[string]any {
	t.Helper()
	var log inspectSpecLog
	strict(t, name, b, &log)
	if log.Version != 2 || (log.Status != "success" && log.Status != "error" && log.Status != "started" && log.Status != "cancelled") {
		t.Errorf("%s: version %d, status %q", name, log.Version, log.Status)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	only := func(where string, v any, part string) map[string]any {
		need(t, name+": "+where, v, inspectRequired[part]...)
		m, _ := v.(map[string]any)
		for k := range m {
			if !contains(inspectRequired[part], k) {
				t.Errorf("%s: %s: field %q is not in the schema's %s", name, where, k, part)
			}
		}
		return m
	}
	only("log", doc, "log")
	ev := only("eval", doc["eval"], "eval")
	only("eval.dataset", ev["dataset"], "dataset")
	only("eval.config", ev["config"], "config")
	plan := only("plan", doc["plan"], "plan")
	only("plan.config", plan["config"], "generate")
	res := only("results", doc["results"], "results")
	for _, s := range res["scores"].([]any) {
		sc := only("results.scores[]", s, "score")
		for _, m := range sc["metrics"].(map[string]any) {
			only("metric", m, "metric")
		}
	}
	st := only("stats", doc["stats"], "stats")
	for _, u := range st["model_usage"].(map[string]any) {
		only("stats.model_usage", u, "usage")
	}
	for _, s := range doc["samples"].([]any) {
		sm := only("sample", s, "sample")
		only("sample.output", sm["output"], "output")
		for _, sc := range sm["scores"].(map[string]any) {
			only("sample.scores", sc, "Score")
		}
		if sm["error"] != nil {
			only("sample.error", sm["error"], "error")
		}
		for _, m := range sm["messages"].([]any) {
			role, _ := m.(map[string]any)["role"].(string)
			msg := only("message "+role, m, role)
			if calls, ok := msg["tool_calls"].([]any); ok {
				for _, c := range calls {
					only("tool call", c, "toolcall")
				}
			}
		}
	}
	return doc
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestExportInspect(t *testing.T) {
	dir := testRun(t)
	files := exportTo(t, dir, FormatInspect)
	if len(files) != 2 || !strings.Contains(files[0], "_grue-exp-model_") || !strings.HasSuffix(files[0], ".json") {
		t.Fatalf("files %v: want an eval log per variant, model's first", files)
	}
	doc := checkInspect(t, files[0], read(t, files[0]))
	checkInspect(t, files[1], read(t, files[1]))

	ev := doc["eval"].(map[string]any)
	if ev["task"] != "grue/exp" || ev["model"] != "openai/scripted" {
		t.Errorf("eval task %v, model %v", ev["task"], ev["model"])
	}
	samples := doc["samples"].([]any)
	if len(samples) != 2 || samples[0].(map[string]any)["id"] != "lantern/1" {
		t.Fatalf("samples: want lantern/1 and lantern/2")
	}
	msgs := samples[0].(map[string]any)["messages"].([]any)
	if len(msgs) != 10 {
		t.Errorf("%d messages, want system, user and an assistant and a tool message for each of 4 steps", len(msgs))
	}
	res := doc["results"].(map[string]any)
	if res["total_samples"] != 2.0 || res["completed_samples"] != 2.0 {
		t.Errorf("results %v", res)
	}
}

// The check catches a field the schema does not have.
func TestCheckInspectCatches(t *testing.T) {
	dir := testRun(t)
	files := exportTo(t, dir, FormatInspect)
	b := read(t, files[1])
	bad := strings.Replace(string(b), `"task_version":`, `"task_revision": 1, "task_version":`, 1)
	ft := &testing.T{}
	checkInspect(ft, "bad", []byte(bad))
	if !ft.Failed() {
		t.Error("a field the schema lacks passed the check")
	}
}
