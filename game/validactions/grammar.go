package validactions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/internal/wordset"
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

// grammar is what ValidActions takes from a story's grammar: for each
// verb word, its lines of the form OBJECT PREPOSITION OBJECT, and the
// commands of no or one object that the grammar understands (templates).
type grammar struct {
	verbs map[string]grammarVerb // verb word as the dictionary holds it -> its grammar
	// templates are the grammar's commands of no or one object, one for
	// each action and number of objects, in the order of the verbs.
	templates []grammarTemplate
	// version is the Inform grammar table's version: 1 or 2 (0 for an
	// Infocom syntax table).
	version int
	// format is the table's kind: "inform" or "infocom" (infocom.go).
	format string
	// routines are the properties of an Infocom game's objects that hold
	// routines (infocom.go): the verbs of its grammar are tried with
	// the objects that have one.
	routines map[uint32]bool
}

// grammarVerb is the grammar of one verb: its lines OBJECT PREPOSITION OBJECT,
// and whether some line has a token that may take any words (a general
// parsing routine, a topic or a special token), so that the verb may
// understand any template; raw holds all its lines.
type grammarVerb struct {
	lines []grammarLine
	wild  bool
	raw   []rawLine
}

// grammarLine is one line OBJECT PREPOSITION OBJECT.
type grammarLine struct {
	preps         map[uint32]bool // dictionary addresses of the prepositions
	first, second token
}

// token is an object token: creature for the library's creature token
// (animate objects only), attr for an attribute token (objects with that
// attribute), -1 when none.
type token struct {
	creature bool
	attr     int
}

// rawToken is one token of a grammar line with its alternatives: type t
// (1 elementary ... 6 general parsing routine) and data for each.
type rawToken []struct {
	t    byte
	data uint16
}

// rawLine is one grammar line: its action and tokens.
type rawLine struct {
	action uint16
	toks   []rawToken
}

// grammarTemplate is a command of no or one object that the grammar
// understands: t has "%s" where the object goes.
type grammarTemplate struct {
	t      string
	action uint16
	objs   int
	obj    token
}

// grammar returns the grammar of g's story, reading it once; nil when it
// is unknown (not an Inform game, or a table that does not read).
func (g *Search) grammar() *grammar {
	vs := g.Story
	vs.grammarOnce.Do(func() {
		vs.grammar = g.readGrammar()
		switch {
		case vs.grammar != nil:
		case g.isInform():
			vs.grammarWhy = "the Inform grammar table reads as neither version 1 nor 2"
		default:
			gr, err := g.readInfocomGrammar()
			if err != nil {
				vs.grammarWhy = "no Infocom syntax table: " + err.Error()
			}
			vs.grammar = gr
		}
	})
	return vs.grammar
}

// grammarWhy says why the story's grammar was not read ("" when it was).
func (g *Search) grammarWhy() string {
	g.grammar()
	return g.Story.grammarWhy
}

// Grammar is what the search read of a story's grammar table, by which it
// leaves out the candidates the game's parser cannot understand.
type Grammar struct {
	// Format is the table's kind: "inform", or "infocom" (an Infocom
	// syntax table, versions 3 to 5).
	Format string
	// Version is the Inform grammar version (1 or 2), 0 for Infocom's.
	Version int
	// Verbs is the number of verb words the table gives lines to.
	Verbs int
}

// Grammar returns what the search read of the story's grammar table, read
// once for the story, or an error saying why it read none (then every
// candidate is tried).
func (g *Search) Grammar() (Grammar, error) {
	gr := g.grammar()
	if gr == nil {
		return Grammar{}, errors.New(g.grammarWhy())
	}
	return Grammar{Format: gr.format, Version: gr.version, Verbs: len(gr.verbs)}, nil
}

func (g *Search) readGrammar() *grammar {
	m := g.Machine
	if !g.isInform() {
		return nil
	}
	dict := m.Dictionary()
	if len(dict) == 0 || len(dict[0].Data) < 2 {
		return nil
	}
	entries := map[uint32]string{}
	preps := map[byte]uint32{} // grammar version 1: adjective number -> entry
	verbs := map[string]int{}
	var meta []bool
	var order []string // verb words in dictionary order
	nverbs := 0
	for _, e := range dict {
		entries[e.Addr] = e.Word
		if e.Data[0]&0x08 != 0 && len(e.Data) > 2 {
			preps[e.Data[2]] = e.Addr
		}
		if e.Data[0]&0x01 != 0 {
			n := 255 - int(e.Data[1])
			verbs[e.Word] = n
			order = append(order, e.Word)
			for len(meta) <= n {
				meta = append(meta, false)
			}
			meta[n] = meta[n] || e.Data[0]&0x02 != 0
			nverbs = max(nverbs, n+1)
		}
	}
	if nverbs == 0 {
		return nil
	}
	static, _ := m.PeekWord(0x0e)
	dictAddr, _ := m.PeekWord(0x08)
	table := uint32(static)
	lo, hi := table+2*uint32(nverbs), uint32(dictAddr)
	// Grammar version 2 (Inform 6.10 on), else version 1 (Inform 5 and
	// early Inform 6): the table that reads as one is the game's.
	version := 2
	byNumber := readVerbs(nverbs, table, func(a uint32) ([]rawLine, bool) { return readGV2(m, a, lo, hi, entries) }, m.PeekWord)
	if byNumber == nil {
		version = 1
		byNumber = readVerbs(nverbs, table, func(a uint32) ([]rawLine, bool) { return readGV1(m, a, lo, hi, preps) }, m.PeekWord)
	}
	if byNumber == nil {
		return nil
	}
	gr := &grammar{verbs: map[string]grammarVerb{}, version: version, format: "inform"}
	for w, n := range verbs {
		gr.verbs[w] = byNumber[n]
	}
	gr.templates = makeTemplates(order, verbs, meta, byNumber, entries)
	return gr
}

// readVerbs reads the grammar of each of n verbs from the table at
// table with read; nil when one does not read.
func readVerbs(n int, table uint32, read func(uint32) ([]rawLine, bool), peek func(uint32) (uint16, bool)) []grammarVerb {
	out := make([]grammarVerb, n)
	for i := range out {
		a, _ := peek(table + 2*uint32(i))
		raw, ok := read(uint32(a))
		if !ok {
			return nil
		}
		out[i] = verbOf(raw)
	}
	return out
}

// readGV1 reads the grammar lines of one verb at a in grammar version 1
// (Inform 5 and early Inform 6): a count, then 8 bytes a line: the number
// of parameters (the tokens that are not prepositions), six tokens and the
// action. A token is 0 to 8 for noun, held,
// multi, multiheld, multiexcept, multiinside, creature, special and number
// (as version 2 numbers them), 16-47 a noun routine, 48-79 a general
// parsing routine, 80-111 a scope routine, 128-175 an attribute, and
// otherwise a preposition by its adjective number (the third data byte
// of its dictionary entry, in preps); after the line's last object, 0 ends
// it.
func readGV1(m interface {
	PeekByte(uint32) (byte, bool)
}, a, lo, hi uint32, preps map[byte]uint32) ([]rawLine, bool) {
	if a < lo || a >= hi {
		return nil, false
	}
	n, _ := m.PeekByte(a)
	if a+1+8*uint32(n) > hi {
		return nil, false
	}
	var out []rawLine
	for l := uint32(0); l < uint32(n); l++ {
		b := make([]byte, 8)
		for i := range b {
			b[i], _ = m.PeekByte(a + 1 + 8*l + uint32(i))
		}
		line := rawLine{action: uint16(b[7])}
		objs := 0
		for _, t := range b[1:7] {
			if objs == int(b[0]) && t == 0 {
				break
			}
			var tt byte
			data := uint16(t)
			switch {
			case t <= 8:
				tt = 1
			case t >= 16 && t < 48:
				tt = 3
			case t >= 48 && t < 80:
				tt = 6
			case t >= 80 && t < 112:
				tt = 5
			case t >= 128 && t < 176:
				tt, data = 4, uint16(t-128)
			default:
				p, ok := preps[t]
				if !ok {
					return nil, false
				}
				tt, data = 2, uint16(p)
			}
			if tt != 2 {
				objs++
			}
			line.toks = append(line.toks, rawToken{{tt, data}})
		}
		if objs != int(b[0]) {
			return nil, false
		}
		out = append(out, line)
	}
	return out, true
}

// readGV2 reads the grammar lines of one verb at a (grammar version 2),
// false when they do not read as such; lo and hi bound the table, entries
// are the dictionary's words by address.
func readGV2(m interface {
	PeekByte(uint32) (byte, bool)
	PeekWord(uint32) (uint16, bool)
}, a, lo, hi uint32, entries map[uint32]string) ([]rawLine, bool) {
	if a < lo || a >= hi {
		return nil, false
	}
	n, _ := m.PeekByte(a)
	a++
	var out []rawLine
	for l := 0; l < int(n); l++ {
		action, _ := m.PeekWord(a)
		line := rawLine{action: action & 0x3ff}
		a += 2
		for tokens := 0; ; tokens++ {
			if a >= hi || tokens > 32 {
				return nil, false
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
				return nil, false
			case t == 1 && data > 9, t == 4 && data >= 48:
				return nil, false
			case t == 2:
				if _, ok := entries[uint32(data)]; !ok {
					return nil, false
				}
			}
			tok := struct {
				t    byte
				data uint16
			}{t, data}
			if tt&0x10 != 0 && len(line.toks) > 0 {
				line.toks[len(line.toks)-1] = append(line.toks[len(line.toks)-1], tok)
			} else {
				line.toks = append(line.toks, rawToken{tok})
			}
		}
		out = append(out, line)
	}
	return out, true
}

// objToken says whether token type t with data is an object token, and
// what it takes.
func objToken(t byte, data uint16) (token, bool) {
	switch {
	case t == 1 && data <= 6:
		return token{creature: data == 6, attr: -1}, true
	case t == 4:
		return token{attr: int(data)}, true
	case t == 3 || t == 5:
		return token{attr: -1}, true
	}
	return token{}, false
}

// wildToken reports whether a token may take any words: a general
// parsing routine, a special, number or topic token.
func wildToken(t byte, data uint16) bool {
	return t == 6 || t == 1 && (data == 7 || data == 8 || data == 9)
}

// verbOf sorts the lines of a verb into what the pruning needs.
func verbOf(raw []rawLine) grammarVerb {
	out := grammarVerb{raw: raw}
	for _, l := range raw {
		for _, tok := range l.toks {
			for _, alt := range tok {
				if wildToken(alt.t, alt.data) {
					out.wild = true
				}
			}
		}
		if len(l.toks) != 3 || len(l.toks[0]) != 1 || len(l.toks[2]) != 1 {
			continue
		}
		first, ok1 := objToken(l.toks[0][0].t, l.toks[0][0].data)
		second, ok2 := objToken(l.toks[2][0].t, l.toks[2][0].data)
		if !ok1 || !ok2 {
			continue
		}
		line := grammarLine{preps: map[uint32]bool{}, first: first, second: second}
		for _, p := range l.toks[1] {
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
	return out
}

// makeTemplates lists the grammar's commands of no or one object: for each
// line of a verb that is not a meta verb (save, score, ...) whose tokens are
// prepositions (the first word of each) and at most one object, the
// command its verb's first word makes, once for each action and number of
// objects (take, get and carry make the same Take).
func makeTemplates(order []string, verbs map[string]int, meta []bool, byNumber []grammarVerb, entries map[uint32]string) []grammarTemplate {
	type key struct {
		action uint16
		objs   int
	}
	seen := map[key]bool{}
	done := map[int]bool{}
	var out []grammarTemplate
	for _, w := range order {
		n := verbs[w]
		if done[n] || meta[n] || !wordOK(w) {
			continue
		}
		done[n] = true
	lines:
		for _, l := range byNumber[n].raw {
			words := []string{w}
			objs := 0
			var obj token
			for _, tok := range l.toks {
				if tok[0].t == 2 {
					p := entries[uint32(tok[0].data)]
					if !wordOK(p) {
						continue lines
					}
					words = append(words, p)
					continue
				}
				o, ok := objToken(tok[0].t, tok[0].data)
				if !ok || objs == 1 {
					continue lines
				}
				objs, obj = 1, o
				words = append(words, "%s")
			}
			k := key{l.action, objs}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, grammarTemplate{t: strings.Join(words, " "), action: l.action, objs: objs, obj: obj})
		}
	}
	return out
}

// action returns the action of the grammar line that the command template
// t ("take %s", "turn on %s", "look") would be parsed by: the verb's first
// line with the same prepositions and object slots.
func (gr *grammar) action(t string, v *vocabulary, lookup func(string) uint32) (uint16, bool) {
	if gr == nil {
		return 0, false
	}
	w := strings.Fields(t)
	verb, ok := gr.verbs[v.cut(w[0])]
	if !ok {
		return 0, false
	}
	for _, l := range verb.raw {
		if lineFits(l, w, lookup, objSlot) {
			return l.action, true
		}
	}
	return 0, false
}

// slotInfo is what a template's grammar allows in its two object slots.
type slotInfo struct {
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
func (gr *grammar) slots(t string, v *vocabulary, lookup func(string) uint32) slotInfo {
	if gr == nil {
		return slotInfo{ok: true}
	}
	w := strings.Fields(t)
	if len(w) != 4 || w[1] != "%s" || w[3] != "%s" {
		return slotInfo{ok: true}
	}
	verb, ok := gr.verbs[v.cut(w[0])]
	if verb.wild {
		return slotInfo{ok: true}
	}
	if !ok {
		return slotInfo{}
	}
	prep := lookup(w[2])
	s := slotInfo{creature1: true, creature2: true}
	for _, l := range verb.lines {
		if l.preps[prep] {
			s.ok = true
			s.creature1 = s.creature1 && l.first.creature
			s.creature2 = s.creature2 && l.second.creature
		}
	}
	if !s.ok {
		return slotInfo{}
	}
	return s
}

// grammarCandidates adds the commands of the grammar's templates whose
// action the fixed verbs have not tried (covered: action and number of
// objects): "jump on X" where the game extends JUMP, a verb of its own.
// A template's object is each object in scope that its token takes (a
// creature token takes animate objects only, an attribute token those
// that have it, when the layout says which are animate).
//
// Of the Inform library's own verbs (libraryVerbs) only the lines with a
// preposition are tried ("get in X", "look under X", "jump on X"): their
// plain lines (SMELL X, ADJUST X) print the library's refusal for every
// object a game does not give a routine for, and trying each would double
// the candidates; the verbs that commonly do something are the fixed ones
// (oneObjectVerbs). A library verb's line without an object whose action only
// prints a message (SORRY, SING, I TALL) is tried where the room may react
// to it (it has before or after). Every line of a verb of the game's own is tried, with
// every object in scope; a library verb that only prints a message, with
// the objects that may react to it (objsFor, react.go).
func (g *Search) grammarCandidates(gr *grammar, objs []object, objsFor func(t string) []object, layout attrLayout, covered map[[2]int]bool, add func(string)) {
	oneObject := map[string]bool{} // Infocom verbs tried with an object
	for _, t := range gr.templates {
		if covered[[2]int{int(t.action), t.objs}] {
			continue
		}
		verb, _, _ := strings.Cut(t.t, " ")
		if gr.format == "infocom" && t.objs == 1 {
			if oneObject[verb] {
				continue
			}
			oneObject[verb] = true
		}
		if libraryVerbs.Has(verb) && t.objs == 1 && strings.Count(t.t, " ") < 2 {
			continue
		}
		if t.objs == 0 {
			if !libraryVerbs.Has(verb) || !messageOnly.Has(verb) && !saysOnly.Has(verb) || g.roomReacts() {
				add(t.t)
			}
			continue
		}
		tried := objs
		switch {
		case gr.format == "infocom":
			tried = nil
			for _, o := range objs {
				if o.kind&kindPlain == 0 && g.infocomReacts(o.id, gr.routines) {
					tried = append(tried, o)
				}
			}
		case libraryVerbs.Has(verb):
			tried = objsFor(t.t)
		}
		for _, o := range tried {
			switch {
			case t.obj.creature && layout.known && o.kind&kindAnimate == 0:
				continue
			case t.obj.attr >= 0 && !g.Machine.Attribute(o.id, uint16(t.obj.attr)):
				continue
			}
			add(fmt.Sprintf(t.t, o.name))
		}
	}
}

// libraryVerbs are the verb words of the Inform library's grammar
// (Grammar.h, library 6/x, English), as the dictionary holds them (cut to
// 9 letters), less the meta verbs, which are never tried.
var libraryVerbs = wordset.New(`answer say shout speak ask attack break crack destroy
		fight hit kill murder punch smash thump torture wreck blow bother curses darn drat
		burn light buy purchase climb scale close cover shut consult cut chop prune slice
		dig drink sip swallow drop discard throw eat empty enter cross examine x check
		describe watch exit out outside fill get give feed offer pay go run walk leave hop
		jump skip i inv inventory insert kiss embrace hug l look listen hear lock move press
		push shift no open uncover unwrap peel pick pray pull drag put read remove rub clean
		dust polish scrub shine sweep wipe search set adjust shed disrobe doff show display
		present shit fuck damn sod sing sit lie sleep nap smell sniff sorry squeeze squash
		stand swim dive swing switch take carry hold taste tell think tie attach fasten fix
		touch feel fondle grope transfer turn rotate screw twist unscrew unlock wait z wake
		awake awaken wave wear don y yes`)

// isInform reports whether the story was compiled by Inform: Inform 6
// makes the metaclass objects; the game layer reads the rest (Search.Inform).
func (g *Search) isInform() bool { return g.Inform || isInform6(g.Machine) }

// multi reports whether verb has a line VERB OBJECT whose token takes
// several objects (multi, multiheld, multiexcept, multiinside), so that
// VERB ALL parses; with no grammar (nil), whether the game may: true.
func (gr *grammar) multi(verb string, v *vocabulary) bool {
	if gr == nil {
		return true
	}
	for _, l := range gr.verbs[v.cut(verb)].raw {
		if len(l.toks) == 1 {
			for _, alt := range l.toks[0] {
				if alt.t == 1 && alt.data >= 2 && alt.data <= 5 {
					return true
				}
			}
		}
	}
	return false
}

// lineFits reports whether grammar line l has the shape of the words w
// of a command template (the verb first): a token for each word after
// the verb, one that slot accepts where w has "%s", and w's word among
// the token's prepositions elsewhere.
func lineFits(l rawLine, w []string, lookup func(string) uint32, slot func(tok rawToken) bool) bool {
	if len(l.toks) != len(w)-1 {
		return false
	}
	for i, tok := range l.toks {
		if len(tok) == 0 {
			return false
		}
		if w[i+1] == "%s" {
			if !slot(tok) {
				return false
			}
			continue
		}
		addr, match := lookup(w[i+1]), false
		for _, alt := range tok {
			match = match || alt.t == 2 && uint32(alt.data) == addr
		}
		if !match {
			return false
		}
	}
	return true
}

// objSlot accepts an object token, or an attribute or routine token,
// for a template's "%s".
func objSlot(tok rawToken) bool {
	_, obj := objToken(tok[0].t, tok[0].data)
	return obj
}

// anySlot accepts, for a template's "%s", only a token that takes any
// object: noun, held, multi or multiheld.
func anySlot(tok rawToken) bool {
	return len(tok) == 1 && tok[0].t == 1 && tok[0].data <= 3
}

// actions returns the actions of every grammar line that command template
// t ("eat %s", "put %s in %s") may be parsed by: the lines of its verb
// with as many tokens, an object token (or an attribute or routine token)
// where t has "%s" and t's word among a token's prepositions elsewhere.
// The parser takes the first that matches the objects, so the command's
// action is one of them. ok is false where the grammar is not Inform's,
// the verb is unknown, or a line of it that may take any words may parse
// t (wildMisses).
func (gr *grammar) actions(t string, v *vocabulary, lookup func(string) uint32) (acts []uint16, ok bool) {
	if gr == nil || gr.format != "inform" {
		return nil, false
	}
	w := strings.Fields(t)
	verb, known := gr.verbs[v.cut(w[0])]
	if !known {
		return nil, false
	}
	for _, l := range verb.raw {
		if lineWild(l) && !wildMisses(l, w, lookup) {
			return nil, false
		}
		if lineFits(l, w, lookup, objSlot) {
			acts = append(acts, l.action)
		}
	}
	return acts, len(acts) > 0
}

// lineWild reports whether grammar line l has a token that may take
// any words (wildToken).
func lineWild(l rawLine) bool {
	for _, tok := range l.toks {
		for _, alt := range tok {
			if wildToken(alt.t, alt.data) {
				return true
			}
		}
	}
	return false
}

// wildMisses reports whether grammar line l, which may have a token
// that takes any words, surely does not parse template words w (the verb
// first): before any such token or object token, one of its prepositions
// is not t's word there ("look up topic in noun" does not parse "look
// inside %s"). A line it cannot tell about may parse it.
func wildMisses(l rawLine, w []string, lookup func(string) uint32) bool {
	for i, tok := range l.toks {
		if i+1 >= len(w) || w[i+1] == "%s" {
			return false
		}
		addr, prep, match := lookup(w[i+1]), true, false
		for _, alt := range tok {
			prep = prep && alt.t == 2
			match = match || alt.t == 2 && uint32(alt.data) == addr
		}
		if !prep {
			return false
		}
		if !match {
			return true
		}
	}
	return false
}

// takesHeld reports whether the parser may take one-object template t by
// a line of its verb with a held or multiheld token (the parser takes
// what the player does not hold first, as TAKE would): a line before the
// first that surely parses t, whatever the object (its words, and noun,
// held, multi or multiheld where t has "%s"). The parser tries the lines
// in order and takes the first that parses the command, so the lines
// after that one never do; those before it are all counted, whatever
// their shape, as the parser may infer a missing object for one.
func (gr *grammar) takesHeld(t string, v *vocabulary, lookup func(string) uint32) bool {
	if gr == nil {
		return true
	}
	w := strings.Fields(t)
	for _, l := range gr.verbs[v.cut(w[0])].raw {
		for _, tok := range l.toks {
			for _, alt := range tok {
				if alt.t == 1 && (alt.data == 1 || alt.data == 3) {
					return true
				}
			}
		}
		if lineFits(l, w, lookup, anySlot) { // parses any object
			return false
		}
	}
	return false
}
