package repl

import (
	"slices"
	"testing"
)

func TestCompletions(t *testing.T) {
	s, _ := newSession(t)
	evalOK(t, s, "myVar := 1\nfunc myFunc() {}\nvar b strings.Builder")
	evalOK(t, s, "import \"io\"\nimport \"bytes\"\ntype outer struct{ Inner *bytes.Buffer }\nrec := outer{}\nvar recs []outer\nm := map[string]outer{}")
	for _, tc := range []struct {
		line   string
		prefix string
		want   []string // among the candidates
		not    []string
	}{
		{":ti", "ti", []string{"time"}, []string{"table"}},
		{":", "", []string{"doc", "help", "who"}, nil},
		{"stri", "stri", []string{"strings"}, nil},
		{"strings.Bui", "Bui", []string{"Builder"}, nil},
		{"x := strings.Rep", "Rep", []string{"Repeat", "Replace", "ReplaceAll"}, nil},
		{"b.Wr", "Wr", []string{"WriteString", "Write"}, []string{"Len"}},
		{"b.Len().", "", nil, nil}, // a call: not completed
		{"my", "my", []string{"myVar", "myFunc"}, nil},
		{"fmt.Println(my", "my", []string{"myVar"}, nil},
		{"tim", "tim", []string{"time"}, nil},               // a package the cell may import
		{"ran", "ran", []string{"range"}, []string{"rand"}}, // rand is ambiguous: math/rand, crypto/rand
		{"io.Rea", "Rea", []string{"Reader", "ReadAll"}, []string{"_Reader"}},
		{"rec.In", "In", []string{"Inner"}, nil},
		{"rec.Inner.Le", "Le", []string{"Len"}, nil},
		{"recs[0].In", "In", []string{"Inner"}, nil}, // after an index, the list empty
		{"m[\"k\"].Inner.Le", "Le", []string{"Len"}, nil},
		{"fmt.Println(recs[len(recs)-1].", "", []string{"Inner"}, nil},
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
	rest, n := completer{s}.Do([]rune("strings.ToUpp"), 13)
	if n != 5 || len(rest) != 2 || string(rest[0]) != "er" || string(rest[1]) != "erSpecial" {
		t.Errorf("completer.Do(strings.ToUpp) = %q, %d", rest, n)
	}
}
