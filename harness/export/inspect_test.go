package export

import (
	"encoding/json"
	"strings"
	"testing"
)

// checkInspect validates a log against inspect_ai's log schema, with
// every field the schema lists required, and returns it decoded.
func checkInspect(t *testing.T, name string, b []byte) map[string]any {
	t.Helper()
	if errs := schemaErrorsOf(t, inspectSchema(t, false), name, b); len(errs) > 0 {
		t.Errorf("%s: %d errors against inspect_ai's log schema:\n%s", name, len(errs), strings.Join(errs, "\n"))
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
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
