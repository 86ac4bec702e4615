package validactions_test

import (
	"strings"
	"testing"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
)

// TestInfocomGrammar: the syntax tables of the Zork trilogy are found and
// read (135 verbs each, as their dictionaries number them), the grammar
// knows what the Zork parser understands (PUT X IN Y, TURN ON X, TAKE
// ALL), and its candidates include verbs of the game that the fixed list
// does not have.
func TestInfocomGrammar(t *testing.T) {
	for _, name := range []string{"zork1.z3", "zork2.z3", "zork3.z3"} {
		g := openTest(t, name)
		gr := vas(g).GrammarTable()
		if gr == nil {
			t.Errorf("%s: no grammar: %s", name, vas(g).GrammarWhy())
			continue
		}
		d, err := vas(g).ReadInfocomDict()
		if err != nil {
			t.Fatal(err)
		}
		table, err := vas(g).FindInfocomTable(d)
		if err != nil {
			t.Fatal(err)
		}
		if gr.Format() != "infocom" || len(table) != 135 {
			t.Errorf("%s: format %q, %d verbs, want infocom and 135", name, gr.Format(), len(table))
		}
		v := vas(g).Vocab()
		lookup := func(w string) uint32 { return g.Machine().LookupWord(w) }
		if s := gr.Slots("put %s in %s", v, lookup); !s[0] {
			t.Errorf("%s: put X in Y not understood", name)
		}
		if s := gr.Slots("put %s with %s", v, lookup); s[0] {
			t.Errorf("%s: put X with Y understood", name)
		}
		if _, ok := gr.Action("turn on %s", v, lookup); !ok {
			t.Errorf("%s: turn on X not understood", name)
		}
		if !gr.Multi("take", v) {
			t.Errorf("%s: take takes no several objects", name)
		}
		if gr.Routines() == 0 {
			t.Errorf("%s: no property of objects holds routines", name)
		}
		ts := gr.Templates()
		for _, want := range []string{"kick %s", "wind up %s", "pray"} {
			if !contains(ts, want) {
				t.Errorf("%s: no template %q among %q", name, want, ts)
			}
		}
		for _, meta := range []string{"save", "restor", "restar", "quit", "script"} {
			if contains(ts, meta) {
				t.Errorf("%s: meta verb %q among the templates", name, meta)
			}
		}
	}
	// From the Zork I walkthrough's temple (eight things carried), the
	// candidates include game verbs of the grammar that the fixed list
	// has not.
	g := loadedStates(t)["zork1"]
	fixed := map[string]bool{}
	for _, c := range vas(g).Candidates(false) {
		fixed[strings.Fields(c)[0]] = true
	}
	var extra []string
	for _, c := range vas(g).Candidates(true) {
		if w := strings.Fields(c)[0]; !fixed[w] && !contains(extra, w) {
			extra = append(extra, w)
		}
	}
	if len(extra) < 20 {
		t.Errorf("zork1: %d verbs of the grammar among the candidates (%q), want 20 or more", len(extra), extra)
	}
}

// TestInfocomGrammarNotFound: an Inform game's dictionary has no Infocom
// verbs, and the reader says so instead of reading a table.
func TestInfocomGrammarNotFound(t *testing.T) {
	g, err := game.Open(stories.DefaultName, game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	gr, err := vas(g).ReadInfocomGrammar()
	if gr != nil || err == nil {
		t.Fatalf("Lantern read as an Infocom syntax table: %+v", gr)
	}
	if !strings.Contains(err.Error(), "verb") {
		t.Errorf("reason %q names no verbs", err)
	}
}

// TestInfocomGrammarCorrupt: a syntax block whose preposition is no
// dictionary preposition, or whose object count is 3, does not read.
func TestInfocomGrammarCorrupt(t *testing.T) {
	g := openTest(t, "zork1.z3")
	d, err := vas(g).ReadInfocomDict()
	if err != nil {
		t.Fatal(err)
	}
	// The block reader reads any address: a block written over the
	// globals (SetGlobal, on this test's own game) stands for one in the
	// table. Blocks are 9 bytes; the tenth is padding.
	base, _ := g.Machine().PeekWord(0x0c)
	at := uint32(base)
	write := func(b ...byte) {
		b = append(b, 0)
		for i := 0; i+1 < len(b); i += 2 {
			if err := g.Machine().SetGlobal(i/2, uint16(b[i])<<8|uint16(b[i+1])); err != nil {
				t.Fatal(err)
			}
		}
	}
	hi := at + 64
	write(1, 2, 0, 251, 0, 0, 0, 0, 10) // PUT OBJECT IN OBJECT
	if _, ok := vas(g).ReadInfocomBlock(at, hi, 8, d); !ok {
		t.Error("a good block does not read")
	}
	write(1, 3, 0, 0, 0, 0, 0, 0, 10)
	if _, ok := vas(g).ReadInfocomBlock(at, hi, 8, d); ok {
		t.Error("a block of three objects reads")
	}
	write(1, 2, 0, 7, 0, 0, 0, 0, 10)
	if _, ok := vas(g).ReadInfocomBlock(at, hi, 8, d); ok {
		t.Error("a block with preposition 7 (no word's) reads")
	}
	write(40, 2, 0, 251, 0, 0, 0, 0, 10)
	if _, ok := vas(g).ReadInfocomBlock(at, hi, 8, d); ok {
		t.Error("a block running past its bound reads")
	}
}
