package harness

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// maxDiffs is the most differences ConfigDiff names.
const maxDiffs = 5

// ConfigDiff names the fields in which config now differs from was, the
// config a run was started with (its manifest's), among those its hash
// covers (Config.Hash): "max_steps: 5 in the run, 8 now",
// "variants[1].policy: ...". Variants are matched by name. The text of a
// prompt file is not recorded in the manifest, so a changed prompt file
// shows as a changed hash with no field named here. At most maxDiffs are
// named, then how many more.
func ConfigDiff(was, now *Config) []string {
	if was == nil || now == nil {
		return nil
	}
	a, b := was.canonical(), now.canonical()
	for i := range a.Variants {
		a.Variants[i].SystemPromptText = ""
	}
	for i := range b.Variants {
		b.Variants[i].SystemPromptText = ""
	}
	var out []string
	diffJSON("", plain(a), plain(b), &out)
	if len(out) > maxDiffs {
		out = append(out[:maxDiffs], fmt.Sprintf("and %d more", len(out)-maxDiffs))
	}
	return out
}

// plain is v as generic JSON values, variants keyed by name.
func plain(cv canonical) map[string]any {
	b, _ := json.Marshal(cv) // plain data: cannot fail
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if vs, ok := m["variants"].([]any); ok {
		byName := map[string]any{}
		for _, v := range vs {
			if vm, ok := v.(map[string]any); ok {
				name, _ := vm["name"].(string)
				delete(vm, "name")
				byName[name] = vm
			}
		}
		m["variants"] = byName
	}
	return m
}

// diffJSON appends to out a line for each place where the JSON values a
// (the run's) and b (now) differ, path naming it.
func diffJSON(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := make([]string, 0, len(am)+len(bm))
		for k := range am {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, had := am[k]; !had {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path == "variants" {
				p = fmt.Sprintf("variants[%s]", k)
				if _, had := am[k]; !had {
					*out = append(*out, fmt.Sprintf("variant %q: not in the run, added now", k))
					continue
				}
				if _, has := bm[k]; !has {
					*out = append(*out, fmt.Sprintf("variant %q: in the run, gone now", k))
					continue
				}
			} else if path != "" {
				p = path + "." + k
			}
			diffJSON(p, am[k], bm[k], out)
		}
		return
	}
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	if string(ab) != string(bb) {
		*out = append(*out, fmt.Sprintf("%s: %s in the run, %s now", path, shown(ab), shown(bb)))
	}
}

// shown is a JSON value as the message shows it: "unset" for none.
func shown(b []byte) string {
	s := string(b)
	if s == "null" || s == `""` || s == "0" || s == "[]" || s == "{}" {
		return "unset"
	}
	const most = 60
	if len(s) > most {
		s = s[:most] + "..."
	}
	return strings.TrimSpace(s)
}
