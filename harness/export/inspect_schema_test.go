package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
)

// inspectSchemaFile is inspect_ai's own log schema (testdata/README.md
// names the commit it was copied from).
const inspectSchemaFile = "testdata/inspect-log-schema.json"

// inspectSchema compiles the schema. The schema lists every property as
// required, but inspect_ai reads a log with pydantic, where a field with
// a default may be left out (and inspect_ai itself writes its logs with
// exclude_none). With defaulted true, a property that has a "default" is
// dropped from "required", as inspect_ai treats it.
func inspectSchema(t *testing.T, defaulted bool) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(inspectSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", inspectSchemaFile, err)
	}
	if defaulted {
		optionalDefaults(doc)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("inspect-log-schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("inspect-log-schema.json")
	if err != nil {
		t.Fatalf("compiling %s: %v", inspectSchemaFile, err)
	}
	return s
}

// optionalDefaults removes from each "required" the properties that have
// a default.
func optionalDefaults(v any) {
	switch x := v.(type) {
	case map[string]any:
		props, _ := x["properties"].(map[string]any)
		if req, ok := x["required"].([]any); ok && props != nil {
			kept := []any{}
			for _, r := range req {
				name, _ := r.(string)
				if p, ok := props[name].(map[string]any); ok {
					if _, has := p["default"]; has {
						continue
					}
				}
				kept = append(kept, r)
			}
			x["required"] = kept
		}
		for _, sub := range x {
			optionalDefaults(sub)
		}
	case []any:
		for _, sub := range x {
			optionalDefaults(sub)
		}
	}
}

// schemaErrors validates the log at path and lists each error (its
// place in the log and what is wrong), one a line.
func schemaErrors(t *testing.T, s *jsonschema.Schema, path string) []string {
	t.Helper()
	return schemaErrorsOf(t, s, path, read(t, path))
}

// schemaErrorsOf validates the log b, named name.
func schemaErrorsOf(t *testing.T, s *jsonschema.Schema, path string, b []byte) []string {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	err = s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, "/"+strings.Join(e.InstanceLocation, "/")+": "+e.Error())
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// Every exported log, of a model's variant and of a baseline's, is valid
// against inspect_ai's log schema: with the defaulted fields optional, as
// inspect_ai reads a log, and also with every field the schema lists
// present (grue writes null where it has nothing to say), as the log
// viewer's generated types expect.
func TestInspectLogSchema(t *testing.T) {
	dir := testRun(t)
	files := exportTo(t, dir, FormatInspect)
	if len(files) != 2 {
		t.Fatalf("files %v: want an eval log per variant", files)
	}
	for _, mode := range []struct {
		name      string
		defaulted bool
	}{{"defaulted fields optional", true}, {"every field present", false}} {
		s := inspectSchema(t, mode.defaulted)
		for _, f := range files {
			if errs := schemaErrors(t, s, f); len(errs) > 0 {
				t.Errorf("%s (%s): %d errors against inspect_ai's schema:\n%s", f, mode.name, len(errs), strings.Join(errs, "\n"))
			}
		}
	}
}

// The schema check is not vacuous: a metric with inspect_ai's old
// "options" instead of "params", or a field inspect_ai does not have,
// fails it.
func TestInspectLogSchemaCatches(t *testing.T) {
	dir := testRun(t)
	files := exportTo(t, dir, FormatInspect)
	s := inspectSchema(t, true)
	var doc map[string]any
	if err := json.Unmarshal(read(t, files[0]), &doc); err != nil {
		t.Fatal(err)
	}
	doc["eval"].(map[string]any)["task_revision"] = 1
	bad := t.TempDir() + "/bad.json"
	b, _ := json.Marshal(doc)
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	errs := schemaErrors(t, s, bad)
	if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), "task_revision") {
		t.Errorf("a field inspect_ai lacks passed the schema: %v", errs)
	}
}

// A run whose every episode failed (the model's server refuses each
// request) exports as an eval log with status error, and that log is
// valid too.
func TestInspectLogSchemaFailedRun(t *testing.T) {
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	srv.Fallback(func(llmtest.Request) llmtest.Response { return llmtest.Error(400, "", "no such thing") })
	cfg := &harness.Config{
		Name:     "broken",
		Variants: []harness.Variant{{Name: "model", Model: "scripted", BaseURL: srv.URL()}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1},
		MaxSteps: 2,
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: out}); err != nil {
		t.Logf("run: %v", err)
	}
	files := exportTo(t, out, FormatInspect)
	if len(files) != 1 {
		t.Fatalf("files %v: want one eval log", files)
	}
	var doc map[string]any
	if err := json.Unmarshal(read(t, files[0]), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["status"] != "error" || doc["error"] == nil {
		t.Errorf("a run whose episodes all failed: status %v, error %v", doc["status"], doc["error"])
	}
	for _, defaulted := range []bool{true, false} {
		if errs := schemaErrors(t, inspectSchema(t, defaulted), files[0]); len(errs) > 0 {
			t.Errorf("%d errors against inspect_ai's schema:\n%s", len(errs), strings.Join(errs, "\n"))
		}
	}
}
