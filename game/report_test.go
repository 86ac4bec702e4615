package game

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
)

// openRules opens the test story of valid actions' library rules
// (validactions/testdata/rules), an Inform 6 game of one room.
func openRules(t *testing.T) *Game {
	t.Helper()
	return openRulesAs(t, func(story []byte) []byte { return story })
}

// openRulesAs opens the rules story as file makes it from the story's
// bytes (packaged in a Blorb file, say), at seed 1.
func openRulesAs(t *testing.T, file func(story []byte) []byte) *Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("validactions", "testdata", "rules", "rules.z5"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := zmachine.Load(file(data))
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(st, "rules", Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestReportGrammar: grue games names the grammar it read: Zork I's
// Infocom syntax table (its 259 verb words), Lantern's Inform table of
// version 2.
func TestReportGrammar(t *testing.T) {
	r := openTest(t, "zork1.z3").Report()
	if r.GrammarFormat != "infocom" || r.GrammarVerbs != 259 || r.GrammarWhy != "" {
		t.Errorf("zork1: grammar %q, %d verb words (%q), want infocom and 259", r.GrammarFormat, r.GrammarVerbs, r.GrammarWhy)
	}
	g, err := Open(stories.DefaultName, Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	if r := g.Report(); r.GrammarFormat != "inform" || r.GrammarVersion != 2 {
		t.Errorf("lantern: grammar %q version %d, want inform 2", r.GrammarFormat, r.GrammarVersion)
	}
}
