package validactions

import (
	"fmt"

	"github.com/grue-lab/grue/internal/wordset"
)

// Infocom's games (ZIL, versions 3 to 5 with the "old" parser of the Zork
// trilogy and its successors) keep their grammar in a syntax table that
// the ZIL compiler writes where it likes: no header field points at it.
//
// A word's dictionary entry has three data bytes after its text (version
// 3; more text and the same data from version 4): flags and two values.
// The flags are the parts of speech (0x80 object, 0x40 verb, 0x20
// adjective, 0x10 direction, 0x08 preposition, 0x04 buzz word) and, in
// the low two bits, which part of speech the first value belongs to (0
// object, 1 verb, 2 adjective, 3 direction); the second value belongs to
// the other. Zork I's "board" is 0xc0 1 219 (object, then verb 219),
// "inflate" 0x62 181 253 (adjective 181, verb 253), "in" 0x18 251 21
// (preposition 251, direction 21). Verbs are numbered down from 255, and
// verb 255-n is entry n of the verb table: a word for each verb, the
// address of its syntax block (a count, then 8 bytes a syntax in version
// 3: the number of objects, the prepositions before the first and the
// second object, the attribute each object slot looks for when it is
// left out, the search bits of each slot, and the action number).
//
// The table is found by trying every address before the
// dictionary: the one where every verb's pointer leads to a block that
// reads (counts from 1 to 63, at most two objects, each preposition a
// preposition number that some dictionary word has) is the game's. A
// table that is found nowhere, or in two places, is not trusted.

// infocomMeta are the verbs that act on the session, not the story:
// never tried (a fork that saves or restarts is not a move in the game).
var infocomMeta = wordset.New(`save restor restore restar restart quit q score script
	unscri unscript verbos verbose brief superb superbrie super diagno diagnose versio version
	verify again g undo oops notify time`)

// infocomMany is the search bit of a syntax slot that takes several
// objects (ZIL's MANY).
const infocomMany = 0x04

// infocomDict is what the dictionary tells of an Infocom game's grammar.
type infocomDict struct {
	verbs map[string]int    // verb word -> verb number (255 - value)
	order []string          // verb words in dictionary order
	preps map[byte][]uint32 // preposition number -> its words' addresses
	words map[uint32]string // entry address -> word
	meta  map[int]bool      // verb numbers with a meta word
	count int               // verbs: highest verb number + 1
}

// readInfocomDict reads the verbs and prepositions from the dictionary.
func (g *Search) readInfocomDict() (*infocomDict, error) {
	d := &infocomDict{verbs: map[string]int{}, preps: map[byte][]uint32{},
		words: map[uint32]string{}, meta: map[int]bool{}}
	for _, e := range g.Machine.Dictionary() {
		if len(e.Data) < 3 {
			return nil, fmt.Errorf("dictionary entries have %d data bytes, not 3", len(e.Data))
		}
		d.words[e.Addr] = e.Word
		flags, p1 := e.Data[0], e.Data[0]&0x03
		if flags&0x40 != 0 {
			v := e.Data[2]
			if p1 == 1 {
				v = e.Data[1]
			}
			n := 255 - int(v)
			d.verbs[e.Word] = n
			d.order = append(d.order, e.Word)
			d.count = max(d.count, n+1)
			if infocomMeta.Has(e.Word) || !wordOK(e.Word) {
				d.meta[n] = true
			}
		}
		if flags&0x08 != 0 {
			v := e.Data[2]
			if p1 == 0 && flags&0x80 == 0 {
				v = e.Data[1]
			}
			d.preps[v] = append(d.preps[v], e.Addr)
		}
	}
	if d.count == 0 {
		return nil, fmt.Errorf("no dictionary word is a verb")
	}
	if d.count > 255 || len(d.preps) == 0 {
		return nil, fmt.Errorf("%d verbs and %d prepositions in the dictionary", d.count, len(d.preps))
	}
	return d, nil
}

// infocomSyntax is one syntax of an Infocom verb.
type infocomSyntax struct {
	objs         int
	prep1, prep2 byte
	search1      byte
	action       byte
}

// readInfocomBlock reads the syntax block at a (entries of size bytes),
// false when it does not read as one; hi bounds it.
func (g *Search) readInfocomBlock(a, hi uint32, size uint32, d *infocomDict) ([]infocomSyntax, bool) {
	n, _ := g.Machine.PeekByte(a)
	if n == 0 || n > 63 || a+1+size*uint32(n) > hi {
		return nil, false
	}
	out := make([]infocomSyntax, n)
	for i := range out {
		b := make([]byte, size)
		for j := range b {
			b[j], _ = g.Machine.PeekByte(a + 1 + size*uint32(i) + uint32(j))
		}
		s := infocomSyntax{objs: int(b[0]), prep1: b[1], prep2: b[2], search1: b[5], action: b[size-1]}
		if s.objs > 2 || s.prep2 != 0 && s.objs < 2 {
			return nil, false
		}
		for _, p := range []byte{s.prep1, s.prep2} {
			if _, ok := d.preps[p]; p != 0 && !ok {
				return nil, false
			}
		}
		out[i] = s
	}
	return out, true
}

// findInfocomTable finds the verb table: the one address before the
// dictionary where all of d's verbs read (see the top of this file).
func (g *Search) findInfocomTable(d *infocomDict) ([][]infocomSyntax, error) {
	dict, _ := g.Machine.PeekWord(0x08)
	hi := uint32(dict)
	const size = 8
	var found [][]infocomSyntax
	at := -1
	for t := uint32(0x40); t+2*uint32(d.count) <= hi; t++ {
		verbs := make([][]infocomSyntax, d.count)
		ok := true
		for i := range verbs {
			a, _ := g.Machine.PeekWord(t + 2*uint32(i))
			if uint32(a) < 0x40 || uint32(a) >= hi {
				ok = false
				break
			}
			if verbs[i], ok = g.readInfocomBlock(uint32(a), hi, size, d); !ok {
				break
			}
		}
		if !ok {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("verb tables read at both %#x and %#x", at, t)
		}
		found, at = verbs, int(t)
	}
	if found == nil {
		return nil, fmt.Errorf("no table of %d verbs with syntax blocks that read found before the dictionary (%#x)", d.count, hi)
	}
	return found, nil
}

// readInfocomGrammar reads an Infocom game's syntax table into the
// grammar ValidActions uses, or says why it cannot.
func (g *Search) readInfocomGrammar() (*grammar, error) {
	if v := g.Story.z.Version(); v < 3 || v > 5 {
		return nil, fmt.Errorf("version %d story (Infocom syntax tables are read for versions 3 to 5)", v)
	}
	d, err := g.readInfocomDict()
	if err != nil {
		return nil, err
	}
	table, err := g.findInfocomTable(d)
	if err != nil {
		return nil, err
	}
	byNumber := make([]grammarVerb, d.count)
	for n, syntaxes := range table {
		var raw []rawLine
		for _, s := range syntaxes {
			raw = append(raw, d.line(s))
		}
		byNumber[n] = verbOf(raw)
	}
	gr := &grammar{verbs: map[string]grammarVerb{}, format: "infocom", routines: g.infocomRoutineProps()}
	meta := make([]bool, d.count)
	for n := range meta {
		meta[n] = d.meta[n]
	}
	for w, n := range d.verbs {
		gr.verbs[w] = byNumber[n]
	}
	gr.templates = makeTemplates(d.order, d.verbs, meta, byNumber, d.words)
	return gr, nil
}

// line turns syntax s into a grammar line of Inform's tokens: a
// preposition token with every word of its number as alternatives, an
// elementary noun (or multi, where the slot takes several objects) for
// each object. The attribute a slot looks for is not a restriction in
// ZIL (it picks the object when the player leaves it out), so it is not
// kept.
func (d *infocomDict) line(s infocomSyntax) rawLine {
	l := rawLine{action: uint16(s.action)}
	prep := func(p byte) {
		if p == 0 {
			return
		}
		var tok rawToken
		// The first word of two letters or more comes first: templates
		// use it ("in", not "inside"; "down", not "d").
		addrs := append([]uint32(nil), d.preps[p]...)
		for i, a := range addrs {
			if len(d.words[a]) >= 2 {
				addrs[0], addrs[i] = addrs[i], addrs[0]
				break
			}
		}
		for _, a := range addrs {
			tok = append(tok, struct {
				t    byte
				data uint16
			}{2, uint16(a)})
		}
		l.toks = append(l.toks, tok)
	}
	obj := func(search byte) {
		var data uint16
		if search&infocomMany != 0 {
			data = 2
		}
		l.toks = append(l.toks, rawToken{{1, data}})
	}
	prep(s.prep1)
	if s.objs >= 1 {
		obj(s.search1)
	}
	if s.objs >= 2 {
		prep(s.prep2)
		obj(0)
	}
	return l
}

// infocomRoutineProps finds the properties of an Infocom game that
// hold routines (ZIL's ACTION and DESCFCN): a property of two bytes that
// holds the packed address of a routine (in high memory, starting with a
// count of locals up to 15) in every object that has it (0: none), and at least
// five. An object that has
// none of them has no code of its own to answer a verb: the verb's
// default routine answers alike for every such object.
func (g *Search) infocomRoutineProps() map[uint32]bool {
	high, _ := g.Machine.PeekWord(0x04)
	scale := uint32(2)
	if g.Story.z.Version() > 3 {
		scale = 4
	}
	count, seen := map[uint32]int{}, map[uint32]int{}
	for o := 1; o <= g.Objects; o++ {
		for _, p := range g.props(uint16(o)) {
			v, _ := g.Machine.PeekWord(p.addr)
			if p.size == 2 && v == 0 {
				continue // no routine
			}
			seen[p.num]++
			a := scale * uint32(v)
			if p.size != 2 || a < uint32(high) {
				continue
			}
			if locals, ok := g.Machine.PeekByte(a); ok && locals <= 15 {
				count[p.num]++
			}
		}
	}
	out := map[uint32]bool{}
	for p, n := range count {
		if n >= 5 && n == seen[p] {
			out[p] = true
		}
	}
	return out
}

// infocomReacts reports whether object o has a routine property of
// props.
func (g *Search) infocomReacts(o uint16, props map[uint32]bool) bool {
	for _, p := range g.props(o) {
		if props[p.num] {
			return true
		}
	}
	return false
}
