package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sharedNamesRun writes a run directory named name (its config labelled
// label, when not "") whose variants zeta and alpha score zeta and alpha
// on lantern from seeds 1 and 2.
func sharedNamesRun(t *testing.T, name, label string, zeta, alpha int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var lines string
	for _, s := range []int64{1, 2} {
		lines += jsonLine(t, rec("zeta", "lantern", s, zeta)) + jsonLine(t, rec("alpha", "lantern", s, alpha))
	}
	cfg := &Config{Name: "za", Label: label, Games: []string{"lantern"}, Seeds: []int64{1, 2},
		Variants: []Variant{{Name: "zeta", Policy: PolicyWalkthrough}, {Name: "alpha", Policy: PolicyRandom}}}
	m := &Manifest{Config: cfg, ConfigHash: cfg.Hash() + name}
	if err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, ResultsFile), lines); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunsSharingVariantNamesStayApart(t *testing.T) {
	a := sharedNamesRun(t, "a", "", 5, 0)
	b := sharedNamesRun(t, "b", "long", 10, 2)
	for _, load := range []struct {
		name string
		fn   func(...string) (*ResultSet, error)
	}{{"LoadResults", LoadResults}, {"LoadRun", LoadRun}} {
		rs, err := load.fn(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs.Problems) > 0 {
			t.Errorf("%s: problems %v, want none: records of two runs replace nothing", load.name, rs.Problems)
		}
		if want := []string{"a/alpha", "a/zeta", "long/alpha", "long/zeta"}; !slices.Equal(rs.Variants(), want) {
			t.Errorf("%s: variants %v, want %v (by directory name, or the config's label)", load.name, rs.Variants(), want)
		}
		if rs.Len() != 8 {
			t.Errorf("%s: %d records, want all 8", load.name, rs.Len())
		}
	}

	rs, _ := LoadRun(a, b)
	c, err := Compare(rs, "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.PairedWithinRuns || !slices.Equal(c.Baselines, []string{"a/zeta", "long/zeta"}) {
		t.Errorf("pairing within runs %v, baselines %v, want each run's zeta", c.PairedWithinRuns, c.Baselines)
	}
	for v, want := range map[string]struct {
		base string
		diff float64
	}{"a/alpha": {"a/zeta", -5}, "long/alpha": {"long/zeta", -8}} {
		p, ok := c.PairedFor(v, "lantern")
		if !ok || p.Baseline != want.base || p.MeanDiff != want.diff {
			t.Errorf("%s paired %+v (found %v), want against %s, %+g", v, p, ok, want.base, want.diff)
		}
	}
	if _, ok := c.PairedFor("long/zeta", "lantern"); ok {
		t.Error("long/zeta, a run's baseline, is paired with the other run's")
	}
	table := c.String()
	for _, want := range []string{"Within each run, against its baseline (a/zeta, long/zeta", "RUN/NAME", "--pair-across"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "Against a/zeta (paired") {
		t.Errorf("the table says every variant is against a/zeta:\n%s", table)
	}

	// Across runs, on request: every variant against one baseline.
	c, err = Compare(rs, "", CompareOptions{PairAcross: true})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := c.PairedFor("long/zeta", "lantern"); c.PairedWithinRuns || !ok || p.Baseline != "a/zeta" || p.MeanDiff != 5 {
		t.Errorf("across: within %v, long/zeta %+v (%v), want +5 against a/zeta", c.PairedWithinRuns, p, ok)
	}
	if c, err = Compare(rs, "long/zeta", CompareOptions{PairAcross: true}); err != nil || c.Baseline != "long/zeta" {
		t.Errorf("across against long/zeta: %v, %v", c, err)
	}
	// A baseline name without its run is each run's.
	if c, err = Compare(rs, "alpha", CompareOptions{}); err != nil || !slices.Equal(c.Baselines, []string{"a/alpha", "long/alpha"}) {
		t.Errorf("--baseline alpha within runs: %v, %v", c, err)
	}
}

func TestDuplicateInsideOneRunIsTheOnlyReplacement(t *testing.T) {
	a := sharedNamesRun(t, "a", "", 5, 0)
	b := sharedNamesRun(t, "b", "", 10, 2)
	if err := appendFile(filepath.Join(b, ResultsFile), jsonLine(t, rec("zeta", "lantern", 1, 7))); err != nil {
		t.Fatal(err)
	}
	rs, err := LoadRun(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Problems) != 1 || !strings.Contains(rs.Problems[0].String(), filepath.Join("b", ResultsFile)+":5: duplicate zeta/lantern/1") || !strings.Contains(rs.Problems[0].String(), "replaces") {
		t.Errorf("problems %v, want one: b's own duplicate of zeta/lantern/1", rs.Problems)
	}
	if r, ok := rs.Lookup(EpisodeKey{Variant: "a/zeta", Game: "lantern", Seed: 1}); !ok || r.FinalScore != 5 {
		t.Errorf("a/zeta/lantern/1 = %+v (%v), want a's own 5", r, ok)
	}
	if r, ok := rs.Lookup(EpisodeKey{Variant: "b/zeta", Game: "lantern", Seed: 1}); !ok || r.FinalScore != 7 {
		t.Errorf("b/zeta/lantern/1 = %+v (%v), want b's later 7", r, ok)
	}
}

func TestConfigDiffNamesTheField(t *testing.T) {
	was := &Config{Name: "za", Games: []string{"lantern"}, Seeds: []int64{1}, MaxSteps: 5,
		Variants: []Variant{{Name: "zeta", Policy: PolicyWalkthrough}, {Name: "alpha", Policy: PolicyRandom}}}
	now := *was
	now.MaxSteps = 8
	now.Variants = []Variant{{Name: "zeta", Policy: PolicyExplorer}, {Name: "beta", Policy: PolicyRandom}}
	got := strings.Join(ConfigDiff(was, &now), "\n")
	for _, want := range []string{"max_steps: 5 in the run, 8 now", `variants[zeta].policy: "walkthrough" in the run, "explorer" now`,
		`variant "alpha": in the run, gone now`, `variant "beta": not in the run, added now`} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %q:\n%s", want, got)
		}
	}
	same := *was
	same.Parallel = 9 // not part of the experiment
	if d := ConfigDiff(was, &same); len(d) > 0 {
		t.Errorf("a config differing only in parallelism: %v", d)
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
