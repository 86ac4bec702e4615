package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
)

// testRun plays a small experiment, a walkthrough and a model (a scripted
// server answering in the text protocol, with reasoning), and returns its
// run directory.
func testRun(t *testing.T) string {
	t.Helper()
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	cmds := []string{"north", "take lantern", "south", "look"}
	n := 0
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		n++
		cmd := cmds[n%len(cmds)]
		r := llmtest.Text(fmt.Sprintf("THOUGHT: I will try %s.\nTOOL: play_action\nARGS: {\"action\": %q}", cmd, cmd)).WithUsage(100, 20)
		r.Reasoning, r.ReasoningTokens = "The lantern must be somewhere.", 5
		return r
	})
	cfg := &harness.Config{
		Name: "exp",
		Variants: []harness.Variant{
			{Name: "walk", Policy: harness.PolicyWalkthrough},
			{Name: "model", Model: "scripted", BaseURL: srv.URL()},
		},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2},
		MaxSteps: 4,
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	return out
}

// strict decodes b into v, refusing any field v does not have: a field
// grue writes that the format does not define fails the test.
func strict(t *testing.T, name string, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s does not decode as the format: %v", name, err)
	}
}

// need checks that obj has every key the format requires.
func need(t *testing.T, where string, obj any, keys ...string) {
	t.Helper()
	m, ok := obj.(map[string]any)
	if !ok {
		t.Errorf("%s: not an object: %v", where, obj)
		return
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: required field %q missing", where, k)
		}
	}
}

func exportTo(t *testing.T, dir, format string) []string {
	t.Helper()
	files, err := Export(dir, format, filepath.Join(t.TempDir(), format))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no files written", format)
	}
	return files
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExportUnknownFormat(t *testing.T) {
	_, err := Export(t.TempDir(), "csv", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), `unknown format "csv" (valid: tales, atif, inspect)`) {
		t.Errorf("error %v: want one naming the valid formats", err)
	}
}

// Formats is the one list of formats: each has a name of its own and a
// help text, and Export writes every one of them.
func TestFormats(t *testing.T) {
	dir := testRun(t)
	seen := map[string]bool{}
	for _, f := range Formats() {
		if f.Name == "" || seen[f.Name] || f.Doc == "" || f.write == nil {
			t.Errorf("format %+v: no name, listed twice, no Doc or no writer", f)
		}
		seen[f.Name] = true
		exportTo(t, dir, f.Name)
	}
	if names := FormatNames(); len(names) != len(seen) || names[0] != FormatTALES {
		t.Errorf("FormatNames() %v, Formats %v", names, seen)
	}
}

func TestExportNoRecords(t *testing.T) {
	_, err := Export(t.TempDir(), FormatATIF, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "results.jsonl") {
		t.Errorf("error %v: want one naming the missing results file", err)
	}
}

// A sharded run, its shards not yet merged, exports as one: every
// episode of every shard, each with its trajectory.
func TestExportShardedRun(t *testing.T) {
	cfg := &harness.Config{
		Name:     "sharded",
		Variants: []harness.Variant{{Name: "walk", Policy: harness.PolicyWalkthrough}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2, 3},
		MaxSteps: 3,
	}
	out := filepath.Join(t.TempDir(), "run")
	for i := range 2 {
		if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: out, Shard: &harness.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
	}
	files := exportTo(t, out, FormatATIF)
	if len(files) != 3 {
		t.Fatalf("files %v: want the 3 episodes of both shards", files)
	}
	for _, f := range files {
		var tr atifSpec
		strict(t, f, read(t, f), &tr)
		checkATIF(t, f, tr)
		if len(tr.Steps) != 4 {
			t.Errorf("%s: %d steps, want the opening and 3 agent steps (its trajectory read from its shard)", f, len(tr.Steps))
		}
	}
}
