package zmachine_test

import (
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

func TestDictionary(t *testing.T) {
	m, _ := zmachine.New(loadGame(t, "zork1.z3"), zmachine.Options{Seed: 1})
	entries := m.Dictionary()
	if len(entries) < 600 {
		t.Fatalf("Zork I's dictionary has %d entries, want its ~700", len(entries))
	}
	byWord := map[string]zmachine.DictEntry{}
	for _, e := range entries {
		byWord[e.Word] = e
	}
	for _, w := range []string{"mailbo", "leafle", "north", "take", "lanter"} {
		e, ok := byWord[w]
		if !ok {
			t.Errorf("dictionary lacks %q", w)
			continue
		}
		if got := m.LookupWord(w); got != e.Addr {
			t.Errorf("LookupWord(%q) = 0x%x, want the entry at 0x%x", w, got, e.Addr)
		}
		if len(e.Data) != 3 {
			t.Errorf("%q: %d data bytes, want Zork I's 3", w, len(e.Data))
		}
	}
	// Input is cut to the dictionary's six letters and lower-cased, as the
	// parser does with what the player types.
	if m.LookupWord("Mailbox") != byWord["mailbo"].Addr {
		t.Error("LookupWord(Mailbox) does not find mailbo")
	}
	if a := m.LookupWord("xyzzyq"); a != 0 {
		t.Errorf("LookupWord(xyzzyq) = 0x%x, want 0", a)
	}
}
