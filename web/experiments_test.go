package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/harness"
)

// quickYAML is a small experiment on Lantern: variants (each a policy,
// or NAME=POLICY), trials seeds, steps steps.
func quickYAML(name string, trials, steps int, variants ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nvariants:\n", name)
	for _, v := range variants {
		n, p, ok := strings.Cut(v, "=")
		if !ok {
			p = n
		}
		fmt.Fprintf(&b, "  - {name: %s, policy: %s}\n", n, p)
	}
	fmt.Fprintf(&b, "games: [lantern]\ntrials: %d\nmax_steps: %d\nparallel: 1\n", trials, steps)
	return b.String()
}

// waitStatus polls GET /api/experiments/{id} until its status is want.
func (s *testServer) waitStatus(id, want string) ExperimentInfo {
	s.t.Helper()
	var info ExperimentInfo
	waitFor(s.t, 3*time.Minute, id+" to be "+want, func() bool {
		s.json("GET", "/api/experiments/"+id, nil, http.StatusOK, &info)
		return info.Status == want
	})
	return info
}

// An experiment launched from pasted YAML runs into a harness run
// directory, lists with its variants' mean scores, gives each episode's
// trajectory, and compares with another run as grue exp compare does.
func TestExperimentLaunchListCompare(t *testing.T) {
	s := newTestServer(t, Options{})
	var a, b struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("walk", 2, 60, "walkthrough")}, http.StatusCreated, &a)
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("short", 2, 10, "short=walkthrough")}, http.StatusCreated, &b)
	info := s.waitStatus(a.ID, ExpComplete)
	if info.Recorded != 2 || info.Episodes != 2 || len(info.Variants) != 1 || info.Variants[0].MeanScore != 60 || info.Variants[0].Won != 2 {
		t.Errorf("walk: %+v", info)
	}
	s.waitStatus(b.ID, ExpComplete)

	// The CLI reads the same directory.
	if _, err := harness.ReadStatus(filepath.Join(s.srv.opts.Runs, a.ID), time.Now()); err != nil {
		t.Errorf("harness cannot read the run: %v", err)
	}
	var list []ExperimentInfo
	s.json("GET", "/api/experiments", nil, http.StatusOK, &list)
	if len(list) != 2 {
		t.Fatalf("list: %+v", list)
	}
	for _, x := range list {
		if x.Status != ExpComplete || x.ConfigHash == "" || x.Name == "" {
			t.Errorf("listed: %+v", x)
		}
	}

	var d experimentDetail
	s.json("GET", "/api/experiments/"+a.ID, nil, http.StatusOK, &d)
	if len(d.Records) != 2 {
		t.Fatalf("records: %+v", d.Records)
	}
	var traj trajectoryView
	s.json("GET", fmt.Sprintf("/api/experiments/%s/trajectory?variant=walkthrough&game=lantern&seed=%d", a.ID, d.Records[0].Seed), nil, http.StatusOK, &traj)
	if len(traj.History) != 38 || !traj.Victory {
		t.Errorf("trajectory: %d steps, victory %v", len(traj.History), traj.Victory)
	}

	var c harness.Comparison
	s.json("GET", "/api/experiments/compare?ids="+a.ID+","+b.ID+"&baseline=walkthrough", nil, http.StatusOK, &c)
	rs, err := harness.LoadRun(filepath.Join(s.srv.opts.Runs, a.ID), filepath.Join(s.srv.opts.Runs, b.ID))
	if err != nil {
		t.Fatal(err)
	}
	want, err := harness.Compare(rs, "walkthrough", harness.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 || len(c.Paired) != 2 || len(c.Paired) != len(want.Paired) || c.Rows[0].Variant != "walkthrough" || c.Rows[0].Score.Mean != want.Rows[0].Score.Mean {
		t.Errorf("compare: %+v", c.Rows)
	}
	code, svg := s.do("GET", "/api/experiments/compare/plot?ids="+a.ID+","+b.ID+"&game=lantern", nil)
	if code != 200 || !strings.Contains(string(svg), "<svg") {
		t.Errorf("plot: %d %.100s", code, svg)
	}
}

// Bad launches, compares and lookups get a JSON error naming the field.
func TestExperimentBadInput(t *testing.T) {
	s := newTestServer(t, Options{Experiments: "../experiments"})
	cases := []struct {
		req   any
		code  int
		field string
	}{
		{ExperimentRequest{}, 400, "config"},
		{ExperimentRequest{Config: "baseline.yaml", YAML: "name: x"}, 400, "config"},
		{ExperimentRequest{Config: "../../etc/passwd.yaml"}, 400, "config"},
		{ExperimentRequest{Config: "/etc/hosts"}, 400, "config"},
		{ExperimentRequest{Config: "no-such.yaml"}, 400, "config"},
		{ExperimentRequest{YAML: "name: x\nvariants: [{name: a, policy: wizard}]\ngames: [lantern]\n"}, 400, "variants[0].policy"},
		{ExperimentRequest{YAML: "name: [unclosed"}, 400, "name"},
		{ExperimentRequest{YAML: "just text"}, 400, "yaml"},
		{ExperimentRequest{YAML: quickYAML("q", 1, 5, "random"), Steps: -2}, 400, "steps"},
		{ExperimentRequest{YAML: quickYAML("q", 1, 5, "random"), Trials: 2, Seeds: []int64{1}}, 400, "seeds"},
		{`{"config": 3}`, 400, "config"},
	}
	for _, c := range cases {
		code, out := s.do("POST", "/api/experiments", c.req)
		var e apiError
		if err := json.Unmarshal(out, &e); err != nil || code != c.code || e.Field != c.field {
			t.Errorf("POST %+v: %d %s, want %d naming %q", c.req, code, out, c.code, c.field)
		}
	}
	for path, want := range map[string]struct {
		code  int
		field string
	}{
		"/api/experiments/compare":                 {400, "ids"},
		"/api/experiments/compare?ids=nope":        {404, "ids"},
		"/api/experiments/compare?ids=../x":        {400, "ids"},
		"/api/experiments/compare?ids=episodes":    {400, "ids"},
		"/api/experiments/nope":                    {404, "id"},
		"/api/experiments/nope/trajectory?seed=1":  {404, "id"},
		"/api/experiments/compare/plot?ids=":       {400, "ids"},
		"/api/experiments/nope/trajectory?seed=xx": {404, "id"},
	} {
		code, out := s.do("GET", path, nil)
		var e apiError
		if err := json.Unmarshal(out, &e); err != nil || code != want.code || e.Field != want.field {
			t.Errorf("GET %s: %d %s, want %d naming %q", path, code, out, want.code, want.field)
		}
	}
	// A real config from experiments/ is accepted (its zork1 may be
	// missing here: then the error names games, not config).
	code, out := s.do("POST", "/api/experiments", ExperimentRequest{Config: "baseline.yaml", Trials: 1, Steps: 5})
	if code != http.StatusCreated && !strings.Contains(string(out), `"field":"game`) {
		t.Errorf("baseline.yaml: %d %s", code, out)
	}
	var cfgs []string
	s.json("GET", "/api/configs", nil, http.StatusOK, &cfgs)
	if len(cfgs) == 0 {
		t.Error("no configs listed from ../experiments")
	}
}

// An experiment stopped by its server's restart is partial, with the
// episodes it played; resumed, it plays the others and none twice. A
// complete one cannot be resumed.
func TestExperimentRestartResume(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Options{Runs: dir})
	var x struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("restart", 12, 100, "walkthrough")}, http.StatusCreated, &x)
	results := filepath.Join(dir, x.ID, harness.ResultsFile)
	waitFor(t, 30*time.Second, "a first record", func() bool {
		fi, err := os.Stat(results)
		return err == nil && fi.Size() > 0
	})
	s.srv.Close()

	again := newTestServer(t, Options{Runs: dir})
	var info ExperimentInfo
	again.json("GET", "/api/experiments/"+x.ID, nil, http.StatusOK, &info)
	if info.Status != ExpPartial || info.Recorded == 0 || info.Recorded >= info.Episodes {
		t.Fatalf("after restart: %s, %d of %d", info.Status, info.Recorded, info.Episodes)
	}
	var list []ExperimentInfo
	again.json("GET", "/api/experiments", nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].Status != ExpPartial {
		t.Errorf("list after restart: %+v", list)
	}
	again.json("POST", "/api/experiments/"+x.ID+"/resume", nil, http.StatusAccepted, nil)
	again.json("POST", "/api/experiments/"+x.ID+"/resume", nil, http.StatusConflict, nil)
	info = again.waitStatus(x.ID, ExpComplete)
	if info.Recorded != 12 {
		t.Errorf("resumed: %d of 12 recorded", info.Recorded)
	}
	rs, err := harness.LoadResults(filepath.Join(dir, x.ID))
	if err != nil || len(rs.Problems) > 0 || rs.Len() != 12 {
		t.Errorf("results after resume: %v, %d records, problems %v", err, rs.Len(), rs.Problems)
	}
	again.json("POST", "/api/experiments/"+x.ID+"/resume", nil, http.StatusConflict, nil)
	again.json("POST", "/api/experiments/nope/resume", nil, http.StatusNotFound, nil)
}

// More experiments than the limit get 429; DELETE stops one, which is
// then partial.
func TestExperimentLimitAndStop(t *testing.T) {
	s := newTestServer(t, Options{MaxExperiments: 1})
	var x struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("long", 200, 2000, "random")}, http.StatusCreated, &x)
	var e apiError
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("other", 1, 5, "random")}, http.StatusTooManyRequests, &e)
	if !strings.Contains(e.Error, "limit") {
		t.Errorf("429 says %q", e.Error)
	}
	s.json("DELETE", "/api/experiments/"+x.ID, nil, http.StatusOK, nil)
	s.waitStatus(x.ID, ExpPartial)
	s.json("DELETE", "/api/experiments/"+x.ID, nil, http.StatusConflict, nil)
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("other", 1, 5, "random")}, http.StatusCreated, nil)
}

// An experiment whose model cannot be reached is listed as failed, with
// its failed episodes counted.
func TestExperimentFailedLaunch(t *testing.T) {
	// A pasted config names only an endpoint the server was started with.
	s := newTestServer(t, Options{Endpoints: []string{"http://127.0.0.1:1/v1"}})
	yaml := "name: nomodel\nvariants:\n  - {name: m, model: x, base_url: \"http://127.0.0.1:1/v1\"}\ngames: [lantern]\ntrials: 1\n"
	var x struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: yaml}, http.StatusCreated, &x)
	info := s.waitStatus(x.ID, ExpFailed)
	if (info.Error == "" && info.Failed == 0) || info.Name != "nomodel" {
		t.Errorf("failed launch: %+v", info)
	}
	var list []ExperimentInfo
	s.json("GET", "/api/experiments", nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].Status != ExpFailed {
		t.Errorf("list: %+v", list)
	}
}

// An experiment that cannot start (no model is configured anywhere) is
// listed as failed with why, though it has no run directory.
func TestExperimentCannotStart(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "HF_TOKEN", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	s := newTestServer(t, Options{})
	var x struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: "name: nomodel\nvariants: [{name: m}]\ngames: [lantern]\ntrials: 1\n"}, http.StatusCreated, &x)
	info := s.waitStatus(x.ID, ExpFailed)
	if !strings.Contains(info.Error, "no model configured") {
		t.Errorf("cannot start: %+v", info)
	}
	var list []ExperimentInfo
	s.json("GET", "/api/experiments", nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].Status != ExpFailed || list[0].ID != x.ID {
		t.Errorf("list: %+v", list)
	}
}
