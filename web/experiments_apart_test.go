package web

import (
	"net/http"
	"slices"
	"testing"

	"github.com/grue-lab/grue/harness"
)

// Comparing runs that share variant names, as grue exp compare does: rows
// labelled by run, no record of one run replacing another's, pairs within
// each run unless pair_across.
func TestExperimentCompareKeepsRunsApart(t *testing.T) {
	s := newTestServer(t, Options{})
	var a, b struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("za", 2, 5, "zeta=walkthrough", "alpha=random")}, http.StatusCreated, &a)
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("za", 2, 8, "zeta=walkthrough", "alpha=random")}, http.StatusCreated, &b)
	s.waitStatus(a.ID, ExpComplete)
	s.waitStatus(b.ID, ExpComplete)

	var c struct {
		harness.Comparison
		Problems []harness.LoadProblem `json:"problems"`
	}
	s.json("GET", "/api/experiments/compare?ids="+a.ID+","+b.ID, nil, http.StatusOK, &c)
	if len(c.Problems) > 0 {
		t.Errorf("problems %v: records of two runs replaced each other", c.Problems)
	}
	want := []string{a.ID + "/zeta", a.ID + "/alpha", b.ID + "/zeta", b.ID + "/alpha"}
	if !c.RunsApart || !c.PairedWithinRuns || !slices.Equal(c.Variants, want) {
		t.Errorf("runs apart %v, within %v, variants %v, want %v", c.RunsApart, c.PairedWithinRuns, c.Variants, want)
	}
	for _, p := range c.Paired {
		if p.Baseline != p.Variant[:len(p.Variant)-len("alpha")]+"zeta" {
			t.Errorf("%s paired with %s, not its own run's zeta", p.Variant, p.Baseline)
		}
	}
	var across harness.Comparison
	s.json("GET", "/api/experiments/compare?pair_across=1&ids="+a.ID+","+b.ID, nil, http.StatusOK, &across)
	if across.PairedWithinRuns || across.Baseline != a.ID+"/zeta" || len(across.Paired) != 6 {
		t.Errorf("pair_across: within %v, baseline %q, %d paired rows (want 3 variants x 2)", across.PairedWithinRuns, across.Baseline, len(across.Paired))
	}
}
