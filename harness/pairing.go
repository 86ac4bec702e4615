package harness

import (
	"fmt"
	"slices"
	"strings"
)

// pairing is who Compare pairs with whom: the variants in the order of
// the tables, each run's baseline (one for a single run, or when pairing
// across runs), and the (variant, baseline) pairs.
type pairing struct {
	order     []string
	baselines []string
	pairs     [][2]string
	within    bool
}

// pairingOf plans Compare's pairs. A set that keeps its runs apart
// (RunsApart) is paired within each run, each run's variants with its own
// baseline: baseline, as the run names it ("zeta", or "LABEL/zeta"), or
// the run's recorded one. With across, or for any other set, every
// variant is paired with the one baseline: baseline, else the set's
// recorded one (DefaultBaseline), else the variant called "baseline",
// else the first by name.
func pairingOf(rs *ResultSet, baseline string, across bool) (*pairing, error) {
	variants := rs.Variants()
	if rs.RunsApart && !across {
		return pairWithinRuns(rs, baseline)
	}
	if baseline == "" {
		baseline = rs.DefaultBaseline()
	}
	if baseline == "" {
		baseline = variants[0]
		if slices.Contains(variants, "baseline") {
			baseline = "baseline"
		}
	}
	if !slices.Contains(variants, baseline) && rs.RunsApart && len(rs.Runs) > 0 {
		// An unlabelled name across runs is the first run's.
		if q := rs.Runs[0].Label + "/" + baseline; slices.Contains(variants, q) {
			baseline = q
		}
	}
	if !slices.Contains(variants, baseline) {
		return nil, fmt.Errorf("compare: no variant %q in the results; variants: %s", baseline, strings.Join(variants, ", "))
	}
	p := &pairing{order: []string{baseline}, baselines: []string{baseline}}
	for _, v := range variants {
		if v != baseline {
			p.order = append(p.order, v)
			p.pairs = append(p.pairs, [2]string{v, baseline})
		}
	}
	return p, nil
}

// pairWithinRuns pairs each run's variants with the run's baseline.
func pairWithinRuns(rs *ResultSet, baseline string) (*pairing, error) {
	p := &pairing{within: true}
	have := rs.Variants()
	for _, src := range rs.Runs {
		var vs []string
		for _, v := range src.Variants {
			if slices.Contains(have, v) {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			continue
		}
		base := src.Baseline
		switch prefix := src.Label + "/"; {
		case baseline != "" && slices.Contains(vs, prefix+baseline):
			base = prefix + baseline
		case baseline != "" && slices.Contains(vs, baseline):
			base = baseline
		case baseline != "":
			return nil, fmt.Errorf("compare: run %s has no variant %q to pair its others with; its variants: %s: pair across runs (--pair-across) to pair every run with one baseline", src.Label, baseline, strings.Join(vs, ", "))
		case !slices.Contains(vs, base):
			base = slices.Min(vs)
		}
		p.baselines = append(p.baselines, base)
		p.order = append(p.order, base)
		slices.Sort(vs)
		for _, v := range vs {
			if v != base {
				p.order = append(p.order, v)
				p.pairs = append(p.pairs, [2]string{v, base})
			}
		}
	}
	if len(p.order) == 0 {
		return nil, fmt.Errorf("compare: no results")
	}
	return p, nil
}
