package harness

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
)

// Each record and the manifest say what ran: the policy, the model and
// its endpoint (credentials masked), grue's revision, the seeds and where
// the price came from; a model with no known price costs "unknown", not
// $0.0000.
func TestRecordsSayWhatRan(t *testing.T) {
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "HF_TOKEN", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	srv := playerServer(t, 0)
	cfg := &Config{Name: "says", Games: []string{"lantern"}, Seeds: []int64{3}, MaxSteps: 3,
		Variants: []Variant{
			{Name: "walk", Policy: PolicyWalkthrough},
			{Name: "model", Model: "scripted-no-price", BaseURL: srv.URL() + "?api_key=sk-inurlsecret"},
		}}
	out := filepath.Join(t.TempDir(), "run")
	rs, err := Run(context.Background(), cfg, RunOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	walk, _ := rs.Lookup(EpisodeKey{"walk", "lantern", 3})
	model, _ := rs.Lookup(EpisodeKey{"model", "lantern", 3})
	if walk.Policy != PolicyWalkthrough || walk.Model != "" || walk.PriceSource != PriceNone || walk.Seed != 3 {
		t.Errorf("walkthrough record: policy %q model %q price %q seed %d", walk.Policy, walk.Model, walk.PriceSource, walk.Seed)
	}
	if model.Policy != PolicyLLM || model.Model != "scripted-no-price" || model.PriceSource != PriceUnknown || model.CostKnown() {
		t.Errorf("model record: policy %q model %q price %q", model.Policy, model.Model, model.PriceSource)
	}
	if !strings.HasPrefix(model.BaseURL, srv.URL()) || strings.Contains(model.BaseURL, "sk-inurlsecret") {
		t.Errorf("model record's endpoint %q: want %s, its key masked", model.BaseURL, srv.URL())
	}
	for _, r := range []EpisodeRecord{walk, model} {
		if r.GrueRevision == "" {
			t.Errorf("%s: no grue revision (want %q when the build does not say)", r.Key(), UnknownRevision)
		}
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.GrueRevision == "" || len(m.Endpoints) != 1 || m.Endpoints[0].PriceSource != PriceUnknown || m.Endpoints[0].Model != "scripted-no-price" {
		t.Errorf("manifest: revision %q, endpoints %+v", m.GrueRevision, m.Endpoints)
	}

	c, err := Compare(rs, "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	table := c.String()
	if !strings.Contains(table, "unknown") || !strings.Contains(table, "Cost unknown: the model has no known price") {
		t.Errorf("table does not say the model's cost is unknown:\n%s", table)
	}
	var js strings.Builder
	if err := c.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(js.String()), &back); err != nil {
		t.Fatal(err)
	}
	for _, r := range back.Rows {
		switch r["variant"] {
		case "model":
			if r["mean_cost"] != nil || r["cost_note"] == nil {
				t.Errorf("model row: mean_cost %v, note %v; want null and a note", r["mean_cost"], r["cost_note"])
			}
		case "walk":
			if r["mean_cost"] != 0.0 {
				t.Errorf("walkthrough row: mean_cost %v, want 0", r["mean_cost"])
			}
		}
	}
}

func TestRevisionOfNeverInvents(t *testing.T) {
	for _, tc := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Path: grueModule}}, UnknownRevision},
		{debug.BuildInfo{Main: debug.Module{Path: grueModule}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}}}, "abc123"},
		{debug.BuildInfo{Main: debug.Module{Path: grueModule}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}, "abc123+modified"},
		{debug.BuildInfo{Main: debug.Module{Path: "example.com/lab"}, Deps: []*debug.Module{{Path: grueModule, Version: "v0.3.0"}}}, "v0.3.0"},
		{debug.BuildInfo{Main: debug.Module{Path: "example.com/lab"}}, UnknownRevision},
	} {
		if got := revisionOf(&tc.bi); got != tc.want {
			t.Errorf("revisionOf(%+v) = %q, want %q", tc.bi, got, tc.want)
		}
	}
}

// An episode made by hand, as the REPL makes its ep, records its model's
// endpoint (its key masked) and where its price came from: a model with no
// known price has cost unknown, one in the price table a price table cost,
// and a cache replay a replayed one.
func TestEpisodeRecordSaysEndpointAndPrice(t *testing.T) {
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "HF_TOKEN", "GRUE_MODEL", "GRUE_PRICES"} {
		t.Setenv(k, "")
	}
	srv := playerServer(t, 0)
	record := func(c llm.Client, model string) EpisodeRecord {
		t.Helper()
		a := agent.New(agent.Defaults())
		a.LLM, a.Model = c, model
		ep, err := NewEpisode(a, "lantern", 2)
		if err != nil {
			t.Fatal(err)
		}
		defer ep.Close()
		if _, err := ep.Run(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		return ep.Record()
	}
	for _, tc := range []struct{ model, price string }{{"scripted-no-price", PriceUnknown}, {"gpt-4o-mini", PriceTable}} {
		oc, err := openai.New(llm.Config{BaseURL: srv.URL() + "?api_key=sk-inurlsecret", Model: tc.model, APIKey: "sk-header-secret"})
		if err != nil {
			t.Fatal(err)
		}
		r := record(oc, tc.model)
		if r.Policy != PolicyLLM || r.Model != tc.model || r.PriceSource != tc.price || r.CostKnown() != (tc.price != PriceUnknown) {
			t.Errorf("%s: policy %q model %q price source %q (cost known %v), want %q", tc.model, r.Policy, r.Model, r.PriceSource, r.CostKnown(), tc.price)
		}
		if !strings.HasPrefix(r.BaseURL, srv.URL()) || strings.Contains(r.BaseURL, "sk-inurlsecret") {
			t.Errorf("%s: endpoint %q, want %s with its key masked", tc.model, r.BaseURL, srv.URL())
		}
		if r.GrueRevision == "" || r.Seed != 2 {
			t.Errorf("%s: revision %q seed %d", tc.model, r.GrueRevision, r.Seed)
		}
	}
	cache, err := llm.NewCache(t.TempDir(), llm.CacheReplayOnly)
	if err != nil {
		t.Fatal(err)
	}
	if got := PriceSourceOf(llm.ReplayFrom(cache, "m", ""), "m"); got != PriceReplay {
		t.Errorf("a replay's price source %q, want %q", got, PriceReplay)
	}
	if got := PriceSourceOf(nil, ""); got != PriceNone {
		t.Errorf("no client's price source %q, want %q", got, PriceNone)
	}
}
