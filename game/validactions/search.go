package validactions

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grue-lab/grue/game/zmachine"
)

// Directions returns the movement commands the search tries, in full
// form ("north", ..., "up", "down", "in", "out"); each is tried when its
// word (or abbreviation) is in the dictionary.
func Directions() []string { return slices.Clone(directions) }

// directions are the movement commands tried (see Directions).
var directions = []string{"north", "south", "east", "west", "northeast", "northwest",
	"southeast", "southwest", "up", "down", "in", "out"}

// noObjectCommands are commands of one or more words without an object.
var noObjectCommands = []string{"look", "inventory", "pray", "jump", "climb", "swim", "listen",
	"dig", "stand", "sleep", "yell", "launch", "land", "echo", "enter", "exit"}

// oneObjectVerbs are the verbs tried with each object in scope, each a list
// of synonyms of which the first that the dictionary knows is used. Verbs
// that only describe (examine, look at, search) are left out: they never
// change the object tree, the attributes or the score; so are verbs that
// nearly always need a second object (attack, unlock: see heldSecondTemplates).
var oneObjectVerbs = [][]string{{"take", "get"}, {"drop"}, {"open"}, {"close"}, {"read"},
	{"push", "press"}, {"pull"}, {"move"}, {"enter"}, {"climb"}, {"light", "turn on"},
	{"extinguish", "douse", "turn off"}, {"eat"}, {"drink"}, {"wear"}, {"wave"}, {"ring"},
	{"wind"}, {"inflate"}, {"raise"}, {"lower"}, {"touch"}, {"dig"}}

// pairTemplate is a template of two objects, X and Y in the order of the words.
type pairTemplate struct {
	t string
	// heldFirst: X is something the player holds and Y anything in
	// scope; else Y is held and X anything in scope.
	heldFirst bool
	// target: the object that is not held is what the command acts on
	// (where things go, who takes them, what is unlocked, turned, dug or
	// attacked), and a plain portable thing (see objKind) is never that.
	// "light X with Y" has none: X may be candles or a book.
	target bool
	// lit: the held object is a flame, which only something lit is.
	lit bool
}

// heldFirstTemplates are templates X ... Y where X is something the player holds
// and Y anything in scope.
var heldFirstTemplates = []pairTemplate{
	{t: "put %s in %s", heldFirst: true, target: true},
	{t: "put %s on %s", heldFirst: true, target: true},
	{t: "give %s to %s", heldFirst: true, target: true},
	{t: "tie %s to %s", heldFirst: true, target: true},
}

// heldSecondTemplates are templates X ... Y where Y is something the player holds
// and X anything in scope.
var heldSecondTemplates = []pairTemplate{
	{t: "attack %s with %s", target: true},
	{t: "unlock %s with %s", target: true},
	{t: "turn %s with %s", target: true},
	{t: "light %s with %s", lit: true},
	{t: "dig %s with %s", target: true},
}

// vocabulary is what the generator knows of a story's dictionary.
type vocabulary struct {
	words map[string]byte // truncated word -> first data byte (flags)
	// byAddr maps the address of each entry to its word.
	byAddr map[uint32]string
	// wordProps are the properties that hold the words naming objects
	// (see names.go).
	wordProps map[uint32]bool
	trunc     int  // letters the dictionary keeps of a word
	noun      byte // the flag marking nouns, 0 if flags are not used
}

// Story is what the search works out once about a story (its vocabulary,
// grammar, attribute layout, the routines that do nothing for an action)
// and its idle worker machines. Package game makes one for each game it
// opens and shares it with the game's forks (same story, same screen
// width), so it is forgotten with the last of them. It is safe for
// concurrent use, as forks may be played at once.
type Story struct {
	z    *zmachine.Story
	opts zmachine.Options // of the worker machines

	vocabOnce, layoutOnce, grammarOnce, reactOnce sync.Once

	react   [3]uint32     // the before, after and life properties (react.go)
	reactOK bool          // react is known
	quiet   quietRoutines // routines that do nothing for an action (rules.go)
	// rulesByAction are the library rules by action (rules.go).
	rulesOnce     sync.Once
	rulesByAction map[uint16]libRule

	vocab   *vocabulary
	layout  attrLayout
	grammar *grammar // nil: unknown
	// grammarWhy says why grammar is nil.
	grammarWhy string
	pool       sync.Pool // idle *zmachine.Machine workers
}

// NewStory returns what the search knows of story before it looks: nothing
// yet. Its worker machines take the seed, screen width and name of opts
// (the game's), with one undo slot and an instruction budget of their own.
func NewStory(story *zmachine.Story, opts zmachine.Options) *Story {
	return &Story{z: story, opts: zmachine.Options{Seed: opts.Seed, Width: opts.Width, Name: opts.Name, UndoSlots: 1, Budget: budget}}
}

// Search is one search for the valid actions of a game's current state:
// the game's machine, waiting for a command, and what the game layer
// knows of the game. Package game makes one each time
// [github.com/grue-lab/grue/game.Game.ValidActions] is called, and
// [github.com/grue-lab/grue/game.Game.ValidActionsSearch] gives one to a
// caller; it stands for the state it was made in, until the game plays on.
type Search struct {
	// Machine is the game's machine, waiting for a command; the search
	// leaves it as it was.
	Machine *zmachine.Machine
	// Name names the game in errors.
	Name string
	// CatalogName is the catalog's name of a known story ("zork1"), ""
	// for any other.
	CatalogName string
	// Player is the player object and Location the room it is in, 0 when
	// unknown; Rooms is the parent of the rooms, 0 for top-level rooms.
	Player, Location, Rooms uint16
	// Objects is the number of objects in the object table.
	Objects int
	// ScoreGlobal and MovesGlobal are the globals holding the score and
	// the turn count, -1 when unknown.
	ScoreGlobal, MovesGlobal int
	// Inform reports that the story was compiled by Inform as its header
	// or its banner says (Inform 6's version in the header, Inform 5's
	// "Inform v1502" banner): its grammar table is the Inform library's.
	// The search sees Inform 6's metaclass objects itself.
	Inform bool
	// Ended reports whether reply, what worker machine m printed for a
	// command, ends the game (a death, a win, the machine halting). It is
	// called from several goroutines at once.
	Ended func(m *zmachine.Machine, reply string) bool
	// Story is what is known of the story, shared with the game's forks.
	Story *Story
	// Cache is the game's memory of its recent answers, its own.
	Cache *Cache
	// Budget bounds the wall time of one Find: once it is spent, the
	// candidates not yet tried are left out, and Find returns what the
	// ones tried found, with CutShort set. 0 means DefaultBudget; a
	// negative Budget sets no bound.
	Budget time.Duration
	// CutShort reports that the last Find ran out of its Budget before it
	// tried every candidate: its answer may lack valid actions. A cut
	// answer is not remembered in the Cache.
	CutShort bool
}

// DefaultBudget is the wall time one Find may take unless Search.Budget
// says otherwise (twenty times as long in a build with the race detector,
// which slows the Z-machine as much).
const DefaultBudget = time.Second

// Find returns the commands that change the world from the search's
// state, one for each distinct outcome, in a fixed order (moves first,
// then the templates' order), leaving the game's machine as it was: every
// candidate runs on a worker machine from a snapshot. Asking again in a
// state the game has just asked in (up to 8 states back, the move counter
// aside) answers from the Cache. The machine must wait for a command: a
// game that waits for a key, or asks yes or no, is the game layer's to
// answer.
func (g *Search) Find() ([]string, error) {
	if st := g.Machine.State(); st != zmachine.WaitLine {
		return nil, fmt.Errorf("%s: valid actions: the machine is %v, not waiting for a command", g.Name, st)
	}
	g.CutShort = false
	cache, key := g.Cache, g.stateKey()
	if acts, ok := cache.get(key); ok {
		return acts, nil
	}
	budget := g.Budget
	if budget == 0 {
		budget = DefaultBudget * raceSlowdown
	}
	var deadline time.Time
	if budget > 0 {
		deadline = time.Now().Add(budget)
	}
	acts, cut, err := g.run(g.candidates(true), deadline)
	if err != nil {
		return nil, err
	}
	g.CutShort = cut
	if !cut {
		cache.put(key, acts)
	}
	return acts, nil
}

// run tries the candidates cands from the current state (which waits
// for a command) and returns those that change the world, one for each
// distinct outcome. Past deadline (when not zero) it tries no more
// candidates, and reports that it was cut short.
func (g *Search) run(cands []string, deadline time.Time) ([]string, bool, error) {
	g.Cache.runs++
	snap := g.Machine.Snapshot()
	rel := g.relevant()
	base := g.hash(rel)

	workers := runtime.GOMAXPROCS(0)
	if workers > len(cands)+1 {
		workers = len(cands) + 1
	}
	type outcome struct {
		hash uint64
		ok   bool
	}
	outs := make([]outcome, len(cands))
	waitCmd := "wait"
	if !g.vocab().has("wait") {
		waitCmd = "z"
	}
	// Judge what a candidate does by what waiting a turn does. A state in
	// which even waiting does not come back (Zork I's nest put into the
	// sack inside it loops forever) has no valid actions to find: every
	// candidate would run to the budget.
	var errOnce sync.Once
	var firstErr error
	var instr atomic.Uint64 // instructions the candidates ran
	defer func() { g.Cache.instr = instr.Load() }()
	pool := g.pool()
	try := func(m *zmachine.Machine, wgame *Search, cmd string) (uint64, bool) {
		if err := m.Restore(snap); err != nil {
			errOnce.Do(func() { firstErr = err })
			return 0, false
		}
		n0 := m.Instructions()
		out, err := m.Step(cmd)
		instr.Add(m.Instructions() - n0)
		if err != nil {
			return 0, false
		}
		done := g.Ended(m, out)
		h := wgame.hash(rel)
		if done {
			h = ^h
		}
		return h, true
	}
	m0, err := g.worker(pool)
	if err != nil {
		return nil, false, fmt.Errorf("%s: valid actions: %w", g.Name, err)
	}
	w0 := *g
	w0.Machine = m0
	waitHash, ok := try(m0, &w0, waitCmd)
	pool.Put(m0)
	if firstErr != nil {
		return nil, false, fmt.Errorf("%s: valid actions: %w", g.Name, firstErr)
	}
	if !ok {
		return nil, false, fmt.Errorf("%s: valid actions: the game does not come back from %q in this state (it runs past %d instructions)", g.Name, waitCmd, budget)
	}

	var next atomic.Int64
	var cut atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := g.worker(pool)
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				return
			}
			defer pool.Put(m)
			wgame := *g
			wgame.Machine = m
			for {
				if !deadline.IsZero() && time.Now().After(deadline) {
					cut.Store(true)
					return
				}
				i := int(next.Add(1)) - 1
				if i >= len(cands) {
					return
				}
				h, ok := try(m, &wgame, cands[i])
				outs[i] = outcome{h, ok}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, false, fmt.Errorf("%s: valid actions: %w", g.Name, firstErr)
	}

	hashes := make([]uint64, len(outs))
	oks := make([]bool, len(outs))
	for i, o := range outs {
		hashes[i], oks[i] = o.hash, o.ok
	}
	return pick(cands, hashes, oks, base, waitHash), cut.Load() && int(next.Load()) < len(cands), nil
}

// pick keeps, of the candidates cands whose outcomes are hashes (where
// ok), one command for each outcome that is neither base (nothing
// changed) nor waitHash (what waiting does), in the candidates' order.
func pick(cands []string, hashes []uint64, ok []bool, base, waitHash uint64) []string {
	best := map[uint64]int{} // outcome -> index of its representative
	for i, h := range hashes {
		if !ok[i] || h == base || h == waitHash {
			continue
		}
		if j, seen := best[h]; !seen || better(cands[i], cands[j]) {
			best[h] = i
		}
	}
	var out []string
	for i, h := range hashes {
		if ok[i] {
			if j, seen := best[h]; seen && j == i {
				out = append(out, cands[i])
			}
		}
	}
	return out
}

// better reports whether command a is a better representative of an
// outcome than b, which comes before it among the candidates: fewer words.
// On a tie the earlier candidate stays, so the templates' order decides:
// "take lamp" over "eat lamp" when eating takes the lamp first and then
// refuses, as Zork and the Inform library do.
func better(a, b string) bool {
	return strings.Count(a, " ") < strings.Count(b, " ")
}

// relevant lists the objects whose changes count: the player's room,
// everything in it recursively, its local globals and the player.
func (g *Search) relevant() []uint16 {
	loc := g.Location
	rel := []uint16{}
	seen := map[uint16]bool{}
	var walk func(o uint16)
	walk = func(o uint16) {
		if o == 0 || seen[o] || int(o) > g.Objects {
			return
		}
		seen[o] = true
		rel = append(rel, o)
		_, _, c := g.Machine.Object(o)
		for steps := 0; c != 0 && steps < g.Objects; steps++ {
			walk(c)
			_, c, _ = g.Machine.Object(c)
		}
	}
	walk(loc)
	walk(g.Player)
	if loc != 0 {
		for _, o := range g.localGlobals(loc) {
			walk(o)
		}
	}
	return rel
}

// hash is a hash (64-bit FNV-1a) of the world as ValidActions judges
// changes: the parent and attributes of each relevant object (the player's
// parent only: its attributes change with parser bookkeeping), the
// children of the player's room, and the score.
func (g *Search) hash(rel []uint16) uint64 {
	table, _ := g.Machine.PeekWord(0x0a)
	start, size, attrs := uint32(table)+31*2, uint32(9), uint32(4)
	if g.Story.z.Version() > 3 {
		start, size, attrs = uint32(table)+63*2, 14, 6
	}
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	mix := func(v uint16) {
		h = (h ^ uint64(v>>8)) * prime
		h = (h ^ uint64(v&0xff)) * prime
	}
	for _, o := range rel {
		p, _, _ := g.Machine.Object(o)
		mix(p)
		if o == g.Player {
			continue
		}
		a := start + uint32(o-1)*size
		for i := uint32(0); i < attrs; i++ {
			b, _ := g.Machine.PeekByte(a + i)
			h = (h ^ uint64(b)) * prime
		}
	}
	if g.Player != 0 {
		room, _, _ := g.Machine.Object(g.Player)
		_, _, c := g.Machine.Object(room)
		for steps := 0; c != 0 && steps < g.Objects; steps++ {
			mix(c)
			_, c, _ = g.Machine.Object(c)
		}
	}
	if g.ScoreGlobal >= 0 {
		mix(g.Machine.Global(g.ScoreGlobal))
	}
	return h
}

// pool returns the pool of idle worker machines for g's story and width.
func (g *Search) pool() *sync.Pool { return &g.Story.pool }

// budget is the instructions one candidate may run. A command that
// takes longer is not a valid action: it is a loop (a look in Zork I runs
// under 2 000 instructions; its longest turns some tens of thousands).
const budget = 2_000_000

// worker takes an idle worker machine from pool or makes one. Worker
// machines keep a single undo slot: candidates never undo more than once.
func (g *Search) worker(pool *sync.Pool) (*zmachine.Machine, error) {
	if m, ok := pool.Get().(*zmachine.Machine); ok {
		return m, nil
	}
	m, err := zmachine.New(g.Story.z, g.Story.opts)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// vocab returns the vocabulary of g's story, reading it once.
func (g *Search) vocab() *vocabulary {
	vs := g.Story
	vs.vocabOnce.Do(func() { vs.vocab = g.readVocab() })
	return vs.vocab
}

// readVocab reads the story's main dictionary (header word 0x08). The
// first data byte of an entry holds part-of-speech flags: in Infocom's
// version 3 games 0x80 noun, 0x40 verb, 0x20 adjective, 0x10 direction,
// 0x08 preposition, 0x04 buzz word (checked on Zork I); in Inform games
// (dict_par1) 0x80 noun, 0x01 verb, 0x02 meta, 0x04 plural, 0x08
// preposition. Both mark nouns with 0x80.
func (g *Search) readVocab() *vocabulary {
	v := &vocabulary{words: map[string]byte{}, byAddr: map[uint32]string{}, trunc: 6, noun: 0x80}
	if g.Story.z.Version() > 3 {
		v.trunc = 9
	}
	nouns := 0
	for _, e := range g.Machine.Dictionary() {
		var flags byte
		if len(e.Data) > 0 {
			flags = e.Data[0]
		}
		if flags&0x80 != 0 {
			nouns++
		}
		v.words[e.Word] = flags
		v.byAddr[e.Addr] = e.Word
	}
	v.wordProps = g.findWordProps(v.byAddr)
	if nouns == 0 {
		v.noun = 0 // no flags: any word may name an object
	}
	// A game with a parser of its own may keep shorter words than the
	// Z-machine's dictionary can (the Phoenix library keeps 5 letters).
	longest := 0
	for w := range v.words {
		longest = max(longest, len(w))
	}
	if longest > 0 && longest < v.trunc {
		v.trunc = longest
	}
	return v
}

// has reports whether the dictionary knows word (as typed: it is cut to
// the dictionary's length).
func (v *vocabulary) has(word string) bool {
	_, ok := v.words[v.cut(word)]
	return ok
}

// isNoun reports whether word may name an object.
func (v *vocabulary) isNoun(word string) bool {
	f, ok := v.words[v.cut(word)]
	return ok && (v.noun == 0 || f&v.noun != 0)
}

// isPrep reports whether the dictionary marks word as a preposition (0x08
// in Infocom's and Inform's flags): "of" in "pot of gold".
func (v *vocabulary) isPrep(word string) bool {
	f, ok := v.words[v.cut(word)]
	return ok && v.noun != 0 && f&0x08 != 0
}

func (v *vocabulary) cut(word string) string {
	if len(word) > v.trunc {
		return word[:v.trunc]
	}
	return word
}

// candidates generates the commands to try from the current state. With
// prune, two-object templates leave out what the grammar and the objects'
// attributes rule out (see kinds.go and grammar.go), and
// commands the Inform library only refuses are left out (rules.go).
func (g *Search) candidates(prune bool) []string { return g.candidatesWith(prune, prune) }

// candidatesWith is candidates with the library rules of rules.go
// applied or not (rules), so that tests can compare the two.
func (g *Search) candidatesWith(prune, rules bool) []string {
	v := g.vocab()
	allIn := func(cmd string) bool {
		for _, w := range strings.Fields(cmd) {
			if w != "%s" && !v.has(w) {
				return false
			}
		}
		return true
	}
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	layout, gr := attrLayout{}, (*grammar)(nil)
	if prune {
		layout, gr = g.layout(), g.grammar()
	}
	lookup := func(w string) uint32 { return g.Machine.LookupWord(w) }
	// parses reports whether the grammar (when known) understands
	// template t, and marks its action as tried.
	covered := map[[2]int]bool{}
	parses := func(t string) bool {
		if gr == nil {
			return true
		}
		a, ok := gr.action(t, v, lookup)
		if ok {
			covered[[2]int{int(a), strings.Count(t, "%s")}] = true
		}
		return ok
	}
	for _, d := range directions {
		if allIn(d) {
			add(d)
		}
	}
	for _, c := range noObjectCommands {
		if allIn(c) && parses(c) {
			add(c)
		}
	}
	objs := g.scope(v)
	// objsFor is the objects tried with one-object template t: for a
	// command the Inform library only refuses without an attribute or a
	// routine of the object's (rules.go), or a verb that only prints
	// a message, those that may do something (react.go).
	objsFor := func(t string) []object {
		if !prune {
			return objs
		}
		if some, ok := g.ruleFilter(t, objs, gr, layout); ok && rules {
			return some
		}
		verb, _, _ := strings.Cut(t, " ")
		if messageOnly.Has(verb) {
			if react, ok := g.reactFilter(objs); ok {
				return react
			}
		}
		return objs
	}
	for _, syn := range oneObjectVerbs {
		for _, verb := range syn {
			if allIn(verb) && parses(verb+" %s") {
				for _, o := range objsFor(verb + " %s") {
					add(verb + " " + o.name)
				}
				// TAKE ALL and DROP ALL, where the grammar takes
				// several objects: one command for what takes a turn
				// each way.
				if (syn[0] == "take" || syn[0] == "drop") && len(objs) > 1 && v.has("all") && gr.multi(verb, v) {
					add(verb + " all")
				}
				break
			}
		}
	}
	if gr != nil {
		g.grammarCandidates(gr, objs, objsFor, layout, covered, add)
	}
	for _, t := range append(append([]pairTemplate(nil), heldFirstTemplates...), heldSecondTemplates...) {
		if allIn(t.t) {
			var rule *pairRule
			if r, ok := g.pairFilter(t.t, gr, layout); ok && rules {
				rule = &r
			}
			g.pairCandidates(t, gr.slots(t.t, v, lookup), objs, layout, rule, add)
		}
	}
	return out
}

// pairCandidates adds the commands of two-object template t that its
// grammar slots, the objects' kinds (layout) and the library rule of the
// template (rule, nil for none: rules.go) leave worth trying: every
// pair of good objects, and one pair for each held object. Under a rule,
// a held object gets a pair of its own only where it may react to any
// target (rule.held), and one pair that the rule would leave out is kept,
// for what the room or the game does whatever the objects.
func (g *Search) pairCandidates(t pairTemplate, slots slotInfo, objs []object, layout attrLayout, rule *pairRule, add func(string)) {
	if !slots.ok {
		return
	}
	// can reports whether o can stand in slot 1 or 2 of t at all: the
	// held slot takes what the player holds, a creature slot (in the
	// grammar) a creature.
	can := func(o object, slot int) bool {
		if t.heldFirst == (slot == 1) && !o.held {
			return false
		}
		creature := slot == 1 && slots.creature1 || slot == 2 && slots.creature2
		return !layout.known || !creature || o.kind&kindAnimate != 0
	}
	// good reports whether o is worth trying in slot 1 or 2 with any
	// other object: not a plain thing as the target, something lit
	// as the flame.
	good := func(o object, slot int) bool {
		if !layout.known {
			return true
		}
		if t.heldFirst == (slot == 2) {
			return !t.target || o.kind&kindPlain == 0
		}
		return !t.lit || o.kind&kindLit != 0
	}
	// Every pair of good objects, and for each held object one pair
	// with the first other object it can go with: what the player
	// holds may act by its own rules whatever the target is (Zork's
	// rusty knife turns on whoever attacks anything with it).
	heldSlot := 2
	if t.heldFirst {
		heldSlot = 1
	}
	pairs := map[[2]int]bool{}
	other := false // one pair the rule leaves out is kept (see above)
	for i, x := range objs {
		for j, y := range objs {
			if i == j || !can(x, 1) || !can(y, 2) || !good(x, 1) || !good(y, 2) {
				continue
			}
			keep := rule == nil || rule.keep(x, y)
			if !keep && !other {
				keep, other = true, true
			}
			if keep {
				pairs[[2]int{i, j}] = true
			}
		}
	}
	for i, o := range objs {
		if !can(o, heldSlot) || rule != nil && !rule.held(o) {
			continue
		}
		for j, other := range objs {
			if i != j && can(other, 3-heldSlot) {
				if heldSlot == 1 {
					pairs[[2]int{i, j}] = true
				} else {
					pairs[[2]int{j, i}] = true
				}
				break
			}
		}
	}
	for i, x := range objs {
		for j, y := range objs {
			if pairs[[2]int{i, j}] {
				add(fmt.Sprintf(t.t, x.name, y.name))
			}
		}
	}
}

// object is an object in scope as the candidates name it.
type object struct {
	name string
	id   uint16
	held bool    // the player holds it directly
	kind objKind // what the attribute layout says of it
}

// scope returns the objects in scope under the names by which the
// commands may refer to them (see names.go): everything in the
// player's room, recursively, except the contents of a closed container
// that cannot be seen into (where the attribute layout says so), and, in
// Infocom games, the room's local globals (the house, the window).
func (g *Search) scope(v *vocabulary) []object {
	loc := g.Location
	if loc == 0 {
		return nil
	}
	layout := g.layout()
	var objs []scopeObject
	visited := map[uint16]bool{loc: true}
	add := func(o uint16, held bool) {
		words, adj, noun := g.objectWords(v, o)
		if len(words) > 0 {
			objs = append(objs, scopeObject{id: o, words: words, adj: adj, noun: noun, held: held})
		}
	}
	var walk func(o uint16)
	walk = func(o uint16) {
		if o != loc && o != g.Player && layout.closedOff(g.Machine, o) {
			return
		}
		_, _, c := g.Machine.Object(o)
		for steps := 0; c != 0 && steps < g.Objects; steps++ {
			if visited[c] {
				break
			}
			visited[c] = true
			if c != g.Player {
				add(c, o == g.Player)
			}
			walk(c)
			_, c, _ = g.Machine.Object(c)
		}
	}
	walk(loc)
	if g.Player != 0 && !visited[g.Player] {
		walk(g.Player)
	}
	for _, o := range g.localGlobals(loc) {
		if !visited[o] {
			visited[o] = true
			add(o, false)
		}
	}
	refs := references(v, objs)
	seen := map[string]bool{}
	var out []object
	for i, o := range objs {
		name := refs[i]
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, object{name: name, id: o.id, held: o.held, kind: layout.kind(g.Machine, o.id)})
	}
	return out
}

// nameWords picks the words that name object o: the last word of its short
// name that is a noun in the dictionary, and the word before it if the
// dictionary knows that one. Punctuation around a word is dropped: the
// Phoenix library's printed names are "(KEYS)".
func (g *Search) nameWords(v *vocabulary, o uint16) (adj, noun string) {
	words := strings.FieldsFunc(strings.ToLower(g.Machine.ObjectName(o)), func(r rune) bool {
		return r == ' ' || r == '(' || r == ')' || r == ',' || r == '.' || r == '"' || r == '!' || r == '?'
	})
	for i := len(words) - 1; i >= 0; i-- {
		if v.isNoun(words[i]) {
			if i > 0 && v.has(words[i-1]) {
				adj = words[i-1]
			}
			return adj, words[i]
		}
	}
	return "", ""
}

// localGlobals returns the local globals of room loc in a version 3
// game: the objects in the one property of the room whose bytes are all
// objects with the same parent, other than the rooms' parent (Infocom's
// GLOBAL property). Later versions return none: Inform moves its floating
// objects into the room.
func (g *Search) localGlobals(loc uint16) []uint16 {
	if g.Story.z.Version() > 3 {
		return nil
	}
	table, _ := g.Machine.PeekWord(0x0a)
	p, ok := g.Machine.PeekWord(uint32(table) + 62 + uint32(loc-1)*9 + 7)
	if !ok {
		return nil
	}
	a := uint32(p)
	n, _ := g.Machine.PeekByte(a)
	a += 1 + 2*uint32(n)
	for steps := 0; steps < 32; steps++ {
		b, _ := g.Machine.PeekByte(a)
		if b == 0 {
			return nil
		}
		l := uint32(b>>5) + 1
		var objs []uint16
		var parent uint16
		good := true
		for i := uint32(0); i < l && good; i++ {
			o, _ := g.Machine.PeekByte(a + 1 + i)
			if o == 0 || int(o) > g.Objects {
				good = false
				break
			}
			par, _, _ := g.Machine.Object(uint16(o))
			if i == 0 {
				parent = par
			}
			good = par != 0 && par == parent && par != g.Rooms && par != loc
			objs = append(objs, uint16(o))
		}
		if good {
			return objs
		}
		a += 1 + l
	}
	return nil
}
