package harness

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A variant's reasoning_effort, extra_body and drop_params reach the
// wire; a server's one model is the variant's model; a misspelt model
// fails before any episode; the manifest says when seeds are not sent.
func TestRunVariantModelFields(t *testing.T) {
	srv := playerServer(t, 0).Models("only-model")
	cfg := &Config{
		Name: "fields",
		Variants: []Variant{{
			Name: "m", BaseURL: srv.URL(), ReasoningEffort: "low",
			ExtraBody:  map[string]any{"options": map[string]any{"num_ctx": 8192}},
			DropParams: []string{"seed"},
		}},
		Games: []string{"lantern"}, Seeds: []int64{1}, MaxSteps: 2,
	}
	t.Setenv("GRUE_MODEL", "")
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for _, r := range reqs {
		if r.Model != "only-model" || r.ReasoningEffort != "low" || r.Field("options") != `{"num_ctx":8192}` || r.Has("seed") {
			t.Errorf("request: model %q, %s", r.Model, r.Raw)
		}
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Endpoints) != 1 || m.Endpoints[0].Model != "only-model" || !strings.Contains(m.Endpoints[0].SeedIgnored, "drop_params") {
		t.Errorf("manifest endpoints %+v", m.Endpoints)
	}

	cfg.Variants[0].Model = "only-modle"
	_, err = Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")})
	if err == nil || !strings.Contains(err.Error(), `variant m: llm: `) || !strings.Contains(err.Error(), "it serves only-model") {
		t.Errorf("misspelt model: %v", err)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("episodes were played with a misspelt model")
	}
}

// The fields read from a YAML config as a user writes them.
func TestConfigModelFieldsYAML(t *testing.T) {
	cfg, err := ParseConfig([]byte(`name: y
variants:
  - name: qwen
    model: qwen3
    base_url: http://localhost:11434/v1
    reasoning_effort: high
    extra_body:
      options: {num_ctx: 32768}
      think: false
    drop_params: [tool_choice, seed]
games: [lantern]
`), "y.yaml")
	if err != nil {
		t.Fatal(err)
	}
	v := cfg.Variants[0]
	ac := v.AgentConfig()
	if ac.ReasoningEffort != "high" || ac.ExtraBody["think"] != false || len(v.DropParams) != 2 {
		t.Errorf("variant %+v, agent config effort %q extra %v", v, ac.ReasoningEffort, ac.ExtraBody)
	}
	if opts, _ := ac.ExtraBody["options"].(map[string]any); opts == nil || opts["num_ctx"] == nil {
		t.Errorf("extra_body options %v", ac.ExtraBody["options"])
	}
}
