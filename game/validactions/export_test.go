package validactions

import (
	"time"

	"github.com/grue-lab/grue/game/zmachine"
)

// What the tests (package validactions_test, which opens games with
// package game) look at inside a search.

// Vocabulary is a story's vocabulary as the search reads it.
type Vocabulary = vocabulary

// The kinds of object an attribute layout tells.
const (
	KindPlain   = kindPlain
	KindAnimate = kindAnimate
	KindLit     = kindLit
)

func (g *Search) Relevant() []uint16       { return g.relevant() }
func (g *Search) Hash(rel []uint16) uint64 { return g.hash(rel) }
func (g *Search) Run(cands []string) ([]string, error) {
	acts, _, err := g.run(cands, time.Time{})
	return acts, err
}
func (g *Search) Candidates(prune bool) []string            { return g.candidates(prune) }
func (g *Search) CandidatesWith(prune, rules bool) []string { return g.candidatesWith(prune, rules) }
func (g *Search) Vocab() *Vocabulary                        { return g.vocab() }
func (g *Search) GrammarTable() *grammar                    { return g.grammar() }
func (g *Search) GrammarWhy() string                        { return g.grammarWhy() }
func (g *Search) Layout() attrLayout                        { return g.layout() }
func (g *Search) ReactsTo(o uint16, acts []uint16) bool     { return g.reactsTo(o, acts) }
func (g *Search) Receives(o uint16) bool                    { return g.receives(o) }
func (g *Search) ReactProps() ([3]uint32, bool)             { return g.reactProps() }
func (g *Search) AroundProps(react [3]uint32, ok bool) ([2]uint32, bool) {
	return g.aroundProps(react, ok)
}
func (g *Search) ReadInfocomDict() (*infocomDict, error) { return g.readInfocomDict() }
func (g *Search) FindInfocomTable(d *infocomDict) ([][]infocomSyntax, error) {
	return g.findInfocomTable(d)
}
func (g *Search) ReadInfocomBlock(a, hi, size uint32, d *infocomDict) ([]infocomSyntax, bool) {
	return g.readInfocomBlock(a, hi, size, d)
}
func (g *Search) ReadInfocomGrammar() (*grammar, error) { return g.readInfocomGrammar() }

// Lookup finds a word's dictionary address in the search's machine.
func (g *Search) Lookup(w string) uint32 { return g.Machine.LookupWord(w) }

func (gr *grammar) Actions(t string, v *vocabulary, lookup func(string) uint32) ([]uint16, bool) {
	return gr.actions(t, v, lookup)
}
func (gr *grammar) Action(t string, v *vocabulary, lookup func(string) uint32) (uint16, bool) {
	return gr.action(t, v, lookup)
}

// Slots is what slots says of t: whether it parses, and whether each slot
// takes a creature only.
func (gr *grammar) Slots(t string, v *vocabulary, lookup func(string) uint32) [3]bool {
	s := gr.slots(t, v, lookup)
	return [3]bool{s.ok, s.creature1, s.creature2}
}
func (gr *grammar) TakesHeld(t string, v *vocabulary, lookup func(string) uint32) bool {
	return gr.takesHeld(t, v, lookup)
}
func (gr *grammar) Multi(verb string, v *vocabulary) bool { return gr.multi(verb, v) }
func (gr *grammar) Format() string                        { return gr.format }
func (gr *grammar) Routines() int                         { return len(gr.routines) }

// Templates lists the templates of the grammar's commands of no or one
// object.
func (gr *grammar) Templates() []string {
	var out []string
	for _, t := range gr.templates {
		out = append(out, t.t)
	}
	return out
}

func (l attrLayout) Known() bool                                { return l.known }
func (l attrLayout) Kind(m *zmachine.Machine, o uint16) objKind { return l.kind(m, o) }

// Runs is how many times the candidates were tried, not remembered.
func (c *Cache) Runs() int { return c.runs }

// Instr is how many instructions the last trying ran.
func (c *Cache) Instr() uint64 { return c.instr }

// Forget empties the cache and its counters.
func (c *Cache) Forget() { *c = Cache{} }
