package harness

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// What a variant's client learns an endpoint refuses (a reasoning model
// under a name no list knows refuses temperature and max_tokens) is in the
// run's manifest, with the configured drop_params, and stays there when
// the run is resumed.
func TestManifestRecordsDroppedParams(t *testing.T) {
	srv := llmtest.NewServer().LikeOpenAIReasoning()
	defer srv.Close()
	srv.Fallback(playerReply)
	cfg := &Config{
		Name:     "thinker",
		Variants: []Variant{{Name: "model", Model: "corp/thinker-2", BaseURL: srv.URL(), DropParams: []string{"seed"}}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1},
		MaxSteps: 2,
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		m, err := ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Endpoints) != 1 {
			t.Fatalf("%s: endpoints %+v", when, m.Endpoints)
		}
		got := map[string]string{}
		for _, d := range m.Endpoints[0].Dropped {
			if d.Model != "corp/thinker-2" {
				t.Errorf("%s: dropped for model %q", when, d.Model)
			}
			got[d.Param] = d.Why
		}
		if got["seed"] != "drop_params" || !strings.HasPrefix(got["temperature"], "refused: status 400") || !strings.HasPrefix(got["max_tokens"], "refused: status 400") {
			t.Errorf("%s: dropped %v: want seed (drop_params), and temperature and max_tokens refused", when, got)
		}
	}
	check("after the run")

	cfg.Seeds = []int64{1}
	if _, err := Run(context.Background(), cfg, RunOptions{Out: out, Resume: true}); err != nil {
		t.Fatal(err)
	}
	check("after a resume that played nothing")
}
