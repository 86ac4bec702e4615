package game

import (
	"strings"
)

// The grammar of an Inform 6 game says which two-object templates the
// parser can understand at all, and which objects a slot takes: the
// standard library has no "turn X with Y" or "attack X with Y" (the parser
// stops after the first object), and its "give X to Y" takes a creature
// (an animate object) as Y. A template that no grammar line accepts is
// never a valid action; each such candidate costs the Inform parser some
// 50 000 instructions to turn away, as much as a whole turn.
//
// The grammar table (grammar version 2, the Inform 6 default since 6.10)
// is the first thing in static memory: a word for each verb, by verb
// number, pointing at the verb's lines. A verb word's dictionary entry
// carries the verb flag (0x01) in its first data byte and 255 minus the
// verb number in its second. A line is an action word and 3-byte tokens up
// to an end byte (15): the token type in the low four bits of the first
// byte (1 elementary, 2 preposition, 3 noun routine, 4 attribute, 5 scope
// routine, 6 general parsing routine), 0x10 marking a token that is an
// alternative to the one before it ('in'/'inside'/'into'), and the data
// word (for an elementary token 0 noun, 1 held, 2 to 5 multi, 6 creature,
// 7 special, 8 number, 9 topic; for a preposition its dictionary address).
// A table that does not read exactly so is not trusted, and the game
// keeps every candidate.

// vaGrammar is what ValidActions takes from a story's grammar: for each
// verb word, its lines of the form OBJECT PREPOSITION OBJECT.
type vaGrammar struct {
	verbs map[string]vaVerb // verb word as the dictionary holds it -> its grammar
}

// vaVerb is the grammar of one verb: its lines OBJECT PREPOSITION OBJECT,
// and whether some line has a token that may take any words (a general
// parsing routine, a topic or a special token), so that the verb may
// understand any template.
type vaVerb struct {
	lines []vaGLine
	wild  bool
}

// vaGLine is one line OBJECT PREPOSITION OBJECT.
type vaGLine struct {
	preps         map[uint32]bool // dictionary addresses of the prepositions
	first, second vaToken
}

// vaToken is an object token: creature for the library's creature token
// (animate objects only), attr for an attribute token (objects with that
// attribute), -1 when none.
type vaToken struct {
	creature bool
	attr     int
}

// vaGrammar returns the grammar of g's story, reading it once; nil when it
// is unknown (not an Inform 6 game, or a table that does not read).
func (g *Game) vaGrammar() *vaGrammar {
	vs := g.vaShared()
	vs.grammarOnce.Do(func() { vs.grammar = g.vaReadGrammar() })
	return vs.grammar
}

func (g *Game) vaReadGrammar() (gr *vaGrammar) {
	m := g.m
	if !isInform6(m) {
		return nil
	}
	dict := m.Dictionary()
	if len(dict) == 0 || len(dict[0].Data) < 2 {
		return nil
	}
	entries := map[uint32]bool{}
	verbs := map[string]int{}
	nverbs := 0
	for _, e := range dict {
		entries[e.Addr] = true
		if e.Data[0]&0x01 != 0 {
			n := 255 - int(e.Data[1])
			verbs[e.Word] = n
			if n+1 > nverbs {
				nverbs = n + 1
			}
		}
	}
	if nverbs == 0 {
		return nil
	}
	static, _ := m.PeekWord(0x0e)
	dictAddr, _ := m.PeekWord(0x08)
	table := uint32(static)
	lo, hi := table+2*uint32(nverbs), uint32(dictAddr)
	// read reads the grammar of one verb at a, false when it does not read
	// as grammar version 2.
	read := func(a uint32) (vaVerb, bool) {
		var out vaVerb
		if a < lo || a >= hi {
			return out, false
		}
		n, _ := m.PeekByte(a)
		a++
		for l := 0; l < int(n); l++ {
			a += 2 // the action
			var groups [][]struct {
				t    byte
				data uint16
			}
			for tokens := 0; ; tokens++ {
				if a >= hi || tokens > 32 {
					return out, false
				}
				tt, _ := m.PeekByte(a)
				if tt == 15 {
					a++
					break
				}
				data, _ := m.PeekWord(a + 1)
				a += 3
				t := tt & 0x0f
				switch {
				case t < 1 || t > 6:
					return out, false
				case t == 1 && data > 9, t == 2 && !entries[uint32(data)], t == 4 && data >= 48:
					return out, false
				case t == 6, t == 1 && (data == 7 || data == 9):
					out.wild = true
				}
				tok := struct {
					t    byte
					data uint16
				}{t, data}
				if tt&0x10 != 0 && len(groups) > 0 {
					groups[len(groups)-1] = append(groups[len(groups)-1], tok)
				} else {
					groups = append(groups, append([]struct {
						t    byte
						data uint16
					}(nil), tok))
				}
			}
			if len(groups) != 3 || len(groups[0]) != 1 || len(groups[2]) != 1 {
				continue
			}
			obj := func(t byte, data uint16) (vaToken, bool) {
				switch {
				case t == 1 && data <= 6:
					return vaToken{creature: data == 6, attr: -1}, true
				case t == 4:
					return vaToken{attr: int(data)}, true
				case t == 3 || t == 5 || t == 6:
					return vaToken{attr: -1}, true
				}
				return vaToken{}, false
			}
			first, ok1 := obj(groups[0][0].t, groups[0][0].data)
			second, ok2 := obj(groups[2][0].t, groups[2][0].data)
			if !ok1 || !ok2 {
				continue
			}
			line := vaGLine{preps: map[uint32]bool{}, first: first, second: second}
			for _, p := range groups[1] {
				if p.t != 2 {
					line.preps = nil
					break
				}
				line.preps[uint32(p.data)] = true
			}
			if line.preps != nil {
				out.lines = append(out.lines, line)
			}
		}
		return out, true
	}
	byNumber := make([]vaVerb, nverbs)
	for n := range byNumber {
		a, _ := m.PeekWord(table + 2*uint32(n))
		v, ok := read(uint32(a))
		if !ok {
			return nil
		}
		byNumber[n] = v
	}
	gr = &vaGrammar{verbs: map[string]vaVerb{}}
	for w, n := range verbs {
		gr.verbs[w] = byNumber[n]
	}
	return gr
}

// vaSlots is what a template's grammar allows in its two object slots.
type vaSlots struct {
	// ok is false when no grammar line takes the template: it is never
	// valid.
	ok bool
	// creature1 and creature2: every line that takes the template wants a
	// creature in that slot.
	creature1, creature2 bool
}

// slots says what the grammar allows for template t ("put %s in %s"):
// whether some line OBJECT PREP OBJECT of its verb has its preposition.
// With no grammar (nil) every template is allowed. lookup finds a word's
// dictionary address.
func (gr *vaGrammar) slots(t string, v *vaVocab, lookup func(string) uint32) vaSlots {
	if gr == nil {
		return vaSlots{ok: true}
	}
	w := strings.Fields(t)
	if len(w) != 4 || w[1] != "%s" || w[3] != "%s" {
		return vaSlots{ok: true}
	}
	verb, ok := gr.verbs[v.cut(w[0])]
	if verb.wild {
		return vaSlots{ok: true}
	}
	if !ok {
		return vaSlots{}
	}
	prep := lookup(w[2])
	s := vaSlots{creature1: true, creature2: true}
	for _, l := range verb.lines {
		if l.preps[prep] {
			s.ok = true
			s.creature1 = s.creature1 && l.first.creature
			s.creature2 = s.creature2 && l.second.creature
		}
	}
	if !s.ok {
		return vaSlots{}
	}
	return s
}
