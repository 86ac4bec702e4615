package memory

import (
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	c := summariser()
	opts := Options{Window: 3, Budget: 500, SummaryClient: c, SummaryModel: "m", SummaryPrompt: "p", SummaryEvery: 2}
	for _, name := range Names() {
		s, err := New(strings.ToUpper(name), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.Name() != name {
			t.Errorf("New(%q) is %q", name, s.Name())
		}
	}
	s, _ := New("window", opts)
	if w := s.(*Window); w.N != 3 || w.Budget != 500 {
		t.Errorf("window %+v", w)
	}
	s, _ = New("hybrid", opts)
	if h := s.(*Hybrid); h.N != 3 || h.Budget != 500 || h.Summary.Model != "m" || h.Summary.Prompt != "p" || h.Summary.Every != 2 || h.Summary.Client != c {
		t.Errorf("hybrid %+v %+v", h, h.Summary)
	}
	s, _ = New("summary", opts)
	if sm := s.(*Summary); sm.Keep != 0 || sm.Budget != 500 {
		t.Errorf("summary %+v", sm)
	}

	_, err := New("reflexion", opts)
	if err == nil || !strings.Contains(err.Error(), `"reflexion"`) || !strings.Contains(err.Error(), "none, conversation, window, summary, hybrid") {
		t.Errorf("unknown name: %v", err)
	}
	for _, bad := range []struct {
		name string
		opts Options
		want string
	}{
		{"summary", Options{}, "SummaryClient"},
		{"hybrid", Options{Window: 2}, "SummaryClient"},
		{"hybrid", Options{SummaryClient: c}, "window"},
		{"window", Options{}, "window"},
		{"conversation", Options{Budget: -1}, "budget"},
	} {
		if _, err := New(bad.name, bad.opts); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("New(%q, %+v): %v, want an error about %s", bad.name, bad.opts, err, bad.want)
		}
	}
}

// Kinds is the one list of strategies: each entry builds a strategy of its
// own name, says what it keeps, and New and Lookup accept exactly these.
func TestKinds(t *testing.T) {
	opts := Options{Window: 2, SummaryClient: summariser()}
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if k.Name == "" || k.Name != strings.ToLower(k.Name) || seen[k.Name] {
			t.Errorf("strategy name %q: empty, not lower case or listed twice", k.Name)
		}
		seen[k.Name] = true
		if k.Doc == "" || k.New == nil {
			t.Errorf("%s: no Doc or no New", k.Name)
		}
		s, err := k.New(opts)
		if err != nil || s.Name() != k.Name {
			t.Errorf("%s builds %v, %v", k.Name, s, err)
		}
		if got, ok := Lookup(" " + strings.ToUpper(k.Name) + " "); !ok || got.Name != k.Name {
			t.Errorf("Lookup(%q) = %q, %v", k.Name, got.Name, ok)
		}
	}
	if names := Names(); len(names) != len(seen) {
		t.Errorf("Names() %v, Kinds %v", names, seen)
	}
	if _, ok := Lookup("reflexion"); ok {
		t.Error("Lookup finds a strategy that is not there")
	}
}
