package repl

import (
	"slices"
	"testing"
)

func TestCompletions(t *testing.T) {
	s, _ := newSession(t)
	evalOK(t, s, "myVar := 1\nfunc myFunc() {}")
	for _, tc := range []struct {
		line   string
		prefix string
		want   []string // among the candidates
		not    []string
	}{
		{":ti", "ti", []string{"time"}, []string{"table"}},
		{":", "", []string{"doc", "help", "who"}, nil},
		{"gam", "gam", []string{"game"}, nil},
		{"game.Op", "Op", []string{"Open"}, []string{"New"}},
		{"x := strings.Rep", "Rep", []string{"Repeat", "Replace", "ReplaceAll"}, nil},
		{"g.St", "St", []string{"Step", "StateHash", "Story"}, []string{"Score"}},
		{"g.Info().", "", nil, nil}, // a call: not completed
		{"my", "my", []string{"myVar", "myFunc"}, nil},
		{"fmt.Println(my", "my", []string{"myVar"}, nil},
		{"tim", "tim", []string{"time"}, nil},               // a package the cell may import
		{"ran", "ran", []string{"range"}, []string{"rand"}}, // rand is ambiguous: math/rand, crypto/rand
		{"zmachine.Fi", "Fi", []string{"Files"}, []string{"_Files"}},
		{"ep.F", "F", []string{"Fork"}, nil},
		{"ep.Agent.Hi", "Hi", []string{"History"}, nil},
		{"ep.Agent.Sy", "Sy", []string{"System"}, nil},
		{"agent.NewEx", "NewEx", []string{"NewExplorer"}, nil},
		{"memory.Str", "Str", []string{"Strategy"}, []string{"_Strategy"}},
		{"harness.Com", "Com", []string{"Compare", "CompareOptions", "Comparison"}, nil},
		{":st", "st", []string{"step"}, nil},
		{":pr", "pr", []string{"prompt"}, nil},
	} {
		got, prefix := s.Completions(tc.line, len(tc.line))
		if prefix != tc.prefix {
			t.Errorf("Completions(%q) prefix %q, want %q", tc.line, prefix, tc.prefix)
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("Completions(%q) = %v, want %q among them", tc.line, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("Completions(%q) = %v, without %q", tc.line, got, w)
			}
		}
	}
	// readline's side: the rest of each candidate after the prefix.
	rest, n := completer{s}.Do([]rune("game.Ope"), 8)
	if n != 3 || len(rest) != 1 || string(rest[0]) != "n" {
		t.Errorf("completer.Do(game.Ope) = %q, %d", rest, n)
	}
}
