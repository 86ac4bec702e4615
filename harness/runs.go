package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// RunSource is one run directory (or results file) a ResultSet was
// loaded from: the run's label, its config hash and its baseline, as
// its manifest says ("" for a results file without one).
type RunSource struct {
	// Label names the run: its config's label, else the run
	// directory's name.
	Label string `json:"label"`
	// Path is the directory or file as given.
	Path       string `json:"path"`
	ConfigHash string `json:"config_hash,omitempty"`
	// Baseline is the variant the run's others are compared with, as
	// named in the ResultSet: the manifest's (Manifest.Baseline), or its
	// config's first variant for a manifest that records none.
	Baseline string `json:"baseline,omitempty"`
	// Variants are the run's variants as named in the ResultSet:
	// "LABEL/NAME" when the set keeps its runs apart (RunsApart).
	Variants []string `json:"variants,omitempty"`
}

// runSource describes path, a run directory or results file, from the
// manifest beside its results when there is one.
func runSource(path string) RunSource {
	dir := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	m, err := ReadManifest(dir)
	if err != nil {
		m = nil
	}
	return sourceOf(path, filepath.Base(abs), m)
}

// sourceOf describes the run at path, called name unless its manifest m
// (nil when it has none) gives its config a label.
func sourceOf(path, name string, m *Manifest) RunSource {
	src := RunSource{Label: name, Path: path}
	if m == nil || m.Config == nil {
		return src
	}
	if m.Config.Label != "" {
		src.Label = m.Config.Label
	}
	src.ConfigHash = m.ConfigHash
	src.Baseline = m.Baseline
	if src.Baseline == "" && len(m.Config.Variants) > 0 {
		src.Baseline = m.Config.Variants[0].Name
	}
	return src
}

// DefaultBaseline is the baseline Compare uses when it is given none: the
// first run's recorded baseline (RunSource.Baseline) when the set holds
// records of it, else "".
func (rs *ResultSet) DefaultBaseline() string {
	variants := rs.Variants()
	for _, src := range rs.Runs {
		if src.Baseline != "" && slices.Contains(variants, src.Baseline) {
			return src.Baseline
		}
	}
	return ""
}

// variantNames are the names of c's variants, in the config's order.
func (c *Config) variantNames() []string {
	names := make([]string, len(c.Variants))
	for i, v := range c.Variants {
		names[i] = v.Name
	}
	return names
}

// combine puts the results of several runs, each part loaded from one
// (its Runs holds its one RunSource), into one set without merging
// records of different runs. When no variant name appears in two runs
// the records are simply put together. When one does, every variant is
// labelled by its run, "LABEL/NAME" (RunSource.Label, made unique), so
// that the rows of each run stay apart and no run's record replaces
// another's: only a duplicate record within one run replaces, as
// LoadResults says.
func combine(parts []*ResultSet) *ResultSet {
	rs := &ResultSet{}
	seen := map[string]int{} // variant name -> runs that have it
	for _, p := range parts {
		for _, v := range p.Variants() {
			seen[v]++
		}
	}
	for _, n := range seen {
		if n > 1 {
			rs.RunsApart = true
		}
	}
	labels := map[string]bool{}
	for _, p := range parts {
		src := RunSource{Path: "?"}
		if len(p.Runs) > 0 {
			src = p.Runs[0]
		}
		src.Variants = p.Variants()
		if rs.RunsApart {
			label := src.Label
			for n := 2; labels[label]; n++ {
				label = fmt.Sprintf("%s#%d", src.Label, n)
			}
			labels[label] = true
			src.Label = label
			prefix := label + "/"
			for i := range src.Variants {
				src.Variants[i] = prefix + src.Variants[i]
			}
			if src.Baseline != "" {
				src.Baseline = prefix + src.Baseline
			}
		}
		for _, r := range p.Records {
			if rs.RunsApart {
				r.Variant = src.Label + "/" + r.Variant
			}
			rs.Add(r)
		}
		rs.Problems = append(rs.Problems, p.Problems...)
		rs.Runs = append(rs.Runs, src)
	}
	return rs
}
