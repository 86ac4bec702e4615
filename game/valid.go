package game

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Valid actions, as Jericho finds them: generate candidate commands from
// templates, the game's dictionary and the objects in scope, try each one
// from a snapshot of the current state on forked machines, and keep those
// that change the world, one command for each distinct outcome.
//
// What counts as a change of the world (vaHash): the parent and attributes
// of the objects that matter from this state (the player's room, all in it,
// its local globals, the player), the room's contents, the score (the
// global Scoring names, when known), and whether the game
// ended. Globals other than the score are left out on purpose: the move
// counter and the games' per-turn bookkeeping (the parser's memory of the
// last command, say) change on every turn whatever the command, and would
// make every command that takes a turn look valid.
// Objects far away are left out too: daemons move them (the Zork thief
// wanders) with random numbers that a command's own draws shift, so their
// moves are noise, not the command's effect. A command is also dropped when
// its outcome equals the outcome of waiting a turn ("wait", or "z" when the
// dictionary lacks it), so that daemons (the Zork thief wandering, a lamp
// burning down) do not make a do-nothing command look like one that
// changes the world.
//
// Two-object templates grow as what is carried times what is in scope, and
// most of their commands are refusals that cost a whole turn each (some
// 50 000 instructions in an Inform game). The candidates leave out what the
// game's grammar cannot parse (valid_grammar.go) and targets that cannot
// take the action (valid_kinds.go: nothing is put into a key or given to
// a lamp); each game remembers the answers of its last few states
// (valid_cache.go).

// vaDirections are the movement commands tried, in full form; each is
// tried when its word (or abbreviation) is in the dictionary.
var vaDirections = []string{"north", "south", "east", "west", "northeast", "northwest",
	"southeast", "southwest", "up", "down", "in", "out"}

// vaNoObject are commands of one or more words without an object.
var vaNoObject = []string{"look", "inventory", "pray", "jump", "climb", "swim", "listen",
	"dig", "stand", "sleep", "yell", "launch", "land", "echo", "enter", "exit"}

// vaOneObject are the verbs tried with each object in scope, each a list
// of synonyms of which the first that the dictionary knows is used. Verbs
// that only describe (examine, look at, search) are left out: they never
// change the object tree, the attributes or the score; so are verbs that
// nearly always need a second object (attack, unlock: see vaHeldSecond).
var vaOneObject = [][]string{{"take", "get"}, {"drop"}, {"open"}, {"close"}, {"read"},
	{"push", "press"}, {"pull"}, {"move"}, {"enter"}, {"climb"}, {"light", "turn on"},
	{"extinguish", "douse", "turn off"}, {"eat"}, {"drink"}, {"wear"}, {"wave"}, {"ring"},
	{"wind"}, {"inflate"}, {"raise"}, {"lower"}, {"touch"}, {"dig"}}

// vaTwo is a template of two objects, X and Y in the order of the words.
type vaTwo struct {
	t string
	// heldFirst: X is something the player holds and Y anything in
	// scope; else Y is held and X anything in scope.
	heldFirst bool
	// target: the object that is not held is what the command acts on
	// (where things go, who takes them, what is unlocked, turned, dug or
	// attacked), and a plain portable thing (see vaKind) is never that.
	// "light X with Y" has none: X may be candles or a book.
	target bool
	// lit: the held object is a flame, which only something lit is.
	lit bool
}

// vaHeldFirst are templates X ... Y where X is something the player holds
// and Y anything in scope.
var vaHeldFirst = []vaTwo{
	{t: "put %s in %s", heldFirst: true, target: true},
	{t: "put %s on %s", heldFirst: true, target: true},
	{t: "give %s to %s", heldFirst: true, target: true},
	{t: "tie %s to %s", heldFirst: true, target: true},
}

// vaHeldSecond are templates X ... Y where Y is something the player holds
// and X anything in scope.
var vaHeldSecond = []vaTwo{
	{t: "attack %s with %s", target: true},
	{t: "unlock %s with %s", target: true},
	{t: "turn %s with %s", target: true},
	{t: "light %s with %s", lit: true},
	{t: "dig %s with %s", target: true},
}

// vaVocab is what the generator knows of a story's dictionary.
type vaVocab struct {
	words map[string]byte // truncated word -> first data byte (flags)
	// byAddr maps the address of each entry to its word.
	byAddr map[uint32]string
	// wordProps are the properties that hold the words naming objects
	// (see valid_names.go).
	wordProps map[uint32]bool
	trunc     int  // letters the dictionary keeps of a word
	noun      byte // the flag marking nouns, 0 if flags are not used
}

// vaStory is what the valid-actions generator works out once about a
// game's story, and its idle worker machines. A Game makes it on first use
// and shares it with its forks (same story, same screen width), so it is
// forgotten with the last of them; its fields are safe for concurrent use,
// as forks may be played at once.
type vaStory struct {
	vocabOnce, layoutOnce, grammarOnce, reactOnce sync.Once

	react   [3]uint32 // the before, after and life properties (valid_react.go)
	reactOK bool      // react is known
	quiet   vaQuiet   // routines that do nothing for an action (valid_acts.go)
	// rulesByAction are the library rules by action (valid_acts.go).
	rulesOnce     sync.Once
	rulesByAction map[uint16]vaLibRule

	vocab   *vaVocab
	layout  vaLayout
	grammar *vaGrammar // nil: unknown
	// grammarWhy says why grammar is nil.
	grammarWhy string
	pool       sync.Pool // idle *zmachine.Machine workers
}

// vaShared returns g's vaStory, making it on first use.
func (g *Game) vaShared() *vaStory {
	if g.vs == nil {
		g.vs = &vaStory{}
	}
	return g.vs
}

// ValidActions returns the commands that change the world from the game's
// current state, one for each distinct outcome, in a fixed order (moves
// first, then the templates' order). It leaves the game as it was: every
// candidate runs on a forked machine from a snapshot. See the comment at
// the top of valid.go for what counts as a change and which candidates are
// tried. While the game waits for a key it offers Return ("") and SPACE
// (" "). Asking again in a state the game has just asked in (up to 8
// states back, the move counter aside) answers from memory.
func (g *Game) ValidActions() ([]string, error) {
	if g.KeyExpected() {
		// A game waiting for a key takes any key; Return and SPACE are
		// the ones "press a key" screens and menus ask for.
		return []string{"", " "}, nil
	}
	if st := g.m.State(); st != zmachine.WaitLine {
		return nil, fmt.Errorf("%s: valid actions: the machine is %v, not waiting for a command", g.name, st)
	}
	if g.YesNoQuestion() {
		// Parc's "Do you want an introduction?", a Phoenix game's "Would
		// you like another game?": the answers are what the game takes.
		return []string{"yes", "no"}, nil
	}
	cache, key := g.vaCache(), g.vaStateKey()
	if acts, ok := cache.get(key); ok {
		return acts, nil
	}
	acts, err := g.vaRun(g.vaCandidates(true))
	if err != nil {
		return nil, err
	}
	cache.put(key, acts)
	return acts, nil
}

// yesNo matches a request for a yes or no answer: "(Y or N)", "yes or
// no", "(y/n)".
var yesNo = lazyregexp.New(`(?i)\by(es)?\s*(or|/)\s*n(o)?\b`)

// YesNoQuestion reports whether the game's last reply ends by asking a
// question rather than at a command prompt (Parc's "Do you want an
// introduction? (Y or N)", a Phoenix game's "Would you like another
// game?", the Inform library's "Are you sure you want to quit?"): the game
// waits for a line, its reply does not end with the prompt ">", and its
// last line asks for yes or no or ends with a question mark.
// ValidActions offers "yes" and "no" then.
func (g *Game) YesNoQuestion() bool {
	reply := strings.TrimSpace(g.reply)
	if reply == "" || strings.HasSuffix(reply, ">") || g.m.State() != zmachine.WaitLine {
		return false
	}
	last := strings.TrimSpace(reply[strings.LastIndex(reply, "\n")+1:])
	return yesNo.MatchString(last) || strings.HasSuffix(last, "?")
}

// vaRun tries the candidates cands from the current state (which waits
// for a command) and returns those that change the world, one for each
// distinct outcome.
func (g *Game) vaRun(cands []string) ([]string, error) {
	g.vaRuns++
	snap := g.m.Snapshot()
	rel := g.vaRelevant()
	base := g.vaHash(rel)

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
	if !g.vaVocab().has("wait") {
		waitCmd = "z"
	}
	// Judge what a candidate does by what waiting a turn does. A state in
	// which even waiting does not come back (Zork I's nest put into the
	// sack inside it loops forever) has no valid actions to find: every
	// candidate would run to the budget.
	var errOnce sync.Once
	var firstErr error
	var instr atomic.Uint64 // instructions the candidates ran
	defer func() { g.vaInstr = instr.Load() }()
	pool := g.vaPool()
	try := func(m *zmachine.Machine, wgame *Game, cmd string) (uint64, bool) {
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
		done, _ := wgame.judge(out)
		h := wgame.vaHash(rel)
		if done {
			h = ^h
		}
		return h, true
	}
	m0, err := g.vaMachine(pool)
	if err != nil {
		return nil, fmt.Errorf("%s: valid actions: %w", g.name, err)
	}
	w0 := *g
	w0.m = m0
	waitHash, ok := try(m0, &w0, waitCmd)
	pool.Put(m0)
	if firstErr != nil {
		return nil, fmt.Errorf("%s: valid actions: %w", g.name, firstErr)
	}
	if !ok {
		return nil, fmt.Errorf("%s: valid actions: the game does not come back from %q in this state (it runs past %d instructions)", g.name, waitCmd, vaBudget)
	}

	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := g.vaMachine(pool)
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				return
			}
			defer pool.Put(m)
			wgame := *g
			wgame.m = m
			for {
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
		return nil, fmt.Errorf("%s: valid actions: %w", g.name, firstErr)
	}

	hashes := make([]uint64, len(outs))
	oks := make([]bool, len(outs))
	for i, o := range outs {
		hashes[i], oks[i] = o.hash, o.ok
	}
	return vaPick(cands, hashes, oks, base, waitHash), nil
}

// vaPick keeps, of the candidates cands whose outcomes are hashes (where
// ok), one command for each outcome that is neither base (nothing
// changed) nor waitHash (what waiting does), in the candidates' order.
func vaPick(cands []string, hashes []uint64, ok []bool, base, waitHash uint64) []string {
	best := map[uint64]int{} // outcome -> index of its representative
	for i, h := range hashes {
		if !ok[i] || h == base || h == waitHash {
			continue
		}
		if j, seen := best[h]; !seen || vaBetter(cands[i], cands[j]) {
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

// vaBetter reports whether command a is a better representative of an
// outcome than b, which comes before it among the candidates: fewer words.
// On a tie the earlier candidate stays, so the templates' order decides:
// "take lamp" over "eat lamp" when eating takes the lamp first and then
// refuses, as Zork and the Inform library do.
func vaBetter(a, b string) bool {
	return strings.Count(a, " ") < strings.Count(b, " ")
}

// vaRelevant lists the objects whose changes count: the player's room,
// everything in it recursively, its local globals and the player.
func (g *Game) vaRelevant() []uint16 {
	_, loc := g.Location()
	rel := []uint16{}
	seen := map[uint16]bool{}
	var walk func(o uint16)
	walk = func(o uint16) {
		if o == 0 || seen[o] || int(o) > g.objects {
			return
		}
		seen[o] = true
		rel = append(rel, o)
		_, _, c := g.m.Object(o)
		for steps := 0; c != 0 && steps < g.objects; steps++ {
			walk(c)
			_, c, _ = g.m.Object(c)
		}
	}
	walk(loc)
	walk(g.player)
	if loc != 0 {
		for _, o := range g.vaLocalGlobals(loc) {
			walk(o)
		}
	}
	return rel
}

// vaHash is a hash (64-bit FNV-1a) of the world as ValidActions judges
// changes: the parent and attributes of each relevant object (the player's
// parent only: its attributes change with parser bookkeeping), the
// children of the player's room, and the score.
func (g *Game) vaHash(rel []uint16) uint64 {
	table, _ := g.m.PeekWord(0x0a)
	start, size, attrs := uint32(table)+31*2, uint32(9), uint32(4)
	if g.story.Version() > 3 {
		start, size, attrs = uint32(table)+63*2, 14, 6
	}
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	mix := func(v uint16) {
		h = (h ^ uint64(v>>8)) * prime
		h = (h ^ uint64(v&0xff)) * prime
	}
	for _, o := range rel {
		p, _, _ := g.m.Object(o)
		mix(p)
		if o == g.player {
			continue
		}
		a := start + uint32(o-1)*size
		for i := uint32(0); i < attrs; i++ {
			b, _ := g.m.PeekByte(a + i)
			h = (h ^ uint64(b)) * prime
		}
	}
	if g.player != 0 {
		room, _, _ := g.m.Object(g.player)
		_, _, c := g.m.Object(room)
		for steps := 0; c != 0 && steps < g.objects; steps++ {
			mix(c)
			_, c, _ = g.m.Object(c)
		}
	}
	if g.scoring.ScoreGlobal >= 0 {
		mix(g.m.Global(g.scoring.ScoreGlobal))
	}
	return h
}

// vaPool returns the pool of idle worker machines for g's story and width.
func (g *Game) vaPool() *sync.Pool { return &g.vaShared().pool }

// vaMachine takes an idle worker machine from pool or makes one. Worker
// machines keep a single undo slot: candidates never undo more than once.
// vaBudget is the instructions one candidate may run. A command that
// takes longer is not a valid action: it is a loop (a look in Zork I runs
// under 2 000 instructions; its longest turns some tens of thousands).
const vaBudget = 2_000_000

func (g *Game) vaMachine(pool *sync.Pool) (*zmachine.Machine, error) {
	if m, ok := pool.Get().(*zmachine.Machine); ok {
		return m, nil
	}
	m, err := zmachine.New(g.story, zmachine.Options{Seed: g.opts.seed, Width: g.opts.width, Name: g.name, UndoSlots: 1, Budget: vaBudget})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// vaVocab returns the vocabulary of g's story, reading it once.
func (g *Game) vaVocab() *vaVocab {
	vs := g.vaShared()
	vs.vocabOnce.Do(func() { vs.vocab = g.vaReadVocab() })
	return vs.vocab
}

// vaReadVocab reads the story's main dictionary (header word 0x08). The
// first data byte of an entry holds part-of-speech flags: in Infocom's
// version 3 games 0x80 noun, 0x40 verb, 0x20 adjective, 0x10 direction,
// 0x08 preposition, 0x04 buzz word (checked on Zork I); in Inform games
// (dict_par1) 0x80 noun, 0x01 verb, 0x02 meta, 0x04 plural, 0x08
// preposition. Both mark nouns with 0x80.
func (g *Game) vaReadVocab() *vaVocab {
	v := &vaVocab{words: map[string]byte{}, byAddr: map[uint32]string{}, trunc: 6, noun: 0x80}
	if g.story.Version() > 3 {
		v.trunc = 9
	}
	nouns := 0
	for _, e := range g.m.Dictionary() {
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
	v.wordProps = g.vaFindWordProps(v.byAddr)
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
func (v *vaVocab) has(word string) bool {
	_, ok := v.words[v.cut(word)]
	return ok
}

// isNoun reports whether word may name an object.
func (v *vaVocab) isNoun(word string) bool {
	f, ok := v.words[v.cut(word)]
	return ok && (v.noun == 0 || f&v.noun != 0)
}

// isPrep reports whether the dictionary marks word as a preposition (0x08
// in Infocom's and Inform's flags): "of" in "pot of gold".
func (v *vaVocab) isPrep(word string) bool {
	f, ok := v.words[v.cut(word)]
	return ok && v.noun != 0 && f&0x08 != 0
}

func (v *vaVocab) cut(word string) string {
	if len(word) > v.trunc {
		return word[:v.trunc]
	}
	return word
}

// vaCandidates generates the commands to try from the current state. With
// prune, two-object templates leave out what the grammar and the objects'
// attributes rule out (see valid_kinds.go and valid_grammar.go), and
// commands the Inform library only refuses are left out (valid_acts.go).
func (g *Game) vaCandidates(prune bool) []string { return g.vaCandidatesWith(prune, prune) }

// vaCandidatesWith is vaCandidates with the library rules of valid_acts.go
// applied or not (rules), so that tests can compare the two.
func (g *Game) vaCandidatesWith(prune, rules bool) []string {
	v := g.vaVocab()
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
	layout, gr := vaLayout{}, (*vaGrammar)(nil)
	if prune {
		layout, gr = g.vaLayout(), g.vaGrammar()
	}
	lookup := func(w string) uint32 { return g.m.LookupWord(w) }
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
	for _, d := range vaDirections {
		if allIn(d) {
			add(d)
		}
	}
	for _, c := range vaNoObject {
		if allIn(c) && parses(c) {
			add(c)
		}
	}
	objs := g.vaScope(v)
	// objsFor is the objects tried with one-object template t: for a
	// command the Inform library only refuses without an attribute or a
	// routine of the object's (valid_acts.go), or a verb that only prints
	// a message, those that may do something (valid_react.go).
	objsFor := func(t string) []vaObj {
		if !prune {
			return objs
		}
		if some, ok := g.vaRuleFilter(t, objs, gr, layout); ok && rules {
			return some
		}
		verb, _, _ := strings.Cut(t, " ")
		if vaMessageOnly.Has(verb) {
			if react, ok := g.vaReactFilter(objs); ok {
				return react
			}
		}
		return objs
	}
	for _, syn := range vaOneObject {
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
		g.vaGrammarCandidates(gr, objs, objsFor, layout, covered, add)
	}
	for _, t := range append(append([]vaTwo(nil), vaHeldFirst...), vaHeldSecond...) {
		if allIn(t.t) {
			var rule *vaPairRule
			if r, ok := g.vaPairFilter(t.t, gr, layout); ok && rules {
				rule = &r
			}
			g.vaTwoCandidates(t, gr.slots(t.t, v, lookup), objs, layout, rule, add)
		}
	}
	return out
}

// vaTwoCandidates adds the commands of two-object template t that its
// grammar slots, the objects' kinds (layout) and the library rule of the
// template (rule, nil for none: valid_acts.go) leave worth trying: every
// pair of good objects, and one pair for each held object. Under a rule,
// a held object gets a pair of its own only where it may react to any
// target (rule.held), and one pair that the rule would leave out is kept,
// for what the room or the game does whatever the objects.
func (g *Game) vaTwoCandidates(t vaTwo, slots vaSlots, objs []vaObj, layout vaLayout, rule *vaPairRule, add func(string)) {
	if !slots.ok {
		return
	}
	// can reports whether o can stand in slot 1 or 2 of t at all: the
	// held slot takes what the player holds, a creature slot (in the
	// grammar) a creature.
	can := func(o vaObj, slot int) bool {
		if t.heldFirst == (slot == 1) && !o.held {
			return false
		}
		creature := slot == 1 && slots.creature1 || slot == 2 && slots.creature2
		return !layout.known || !creature || o.kind&vaAnimate != 0
	}
	// good reports whether o is worth trying in slot 1 or 2 with any
	// other object: not a plain thing as the target, something lit
	// as the flame.
	good := func(o vaObj, slot int) bool {
		if !layout.known {
			return true
		}
		if t.heldFirst == (slot == 2) {
			return !t.target || o.kind&vaPlain == 0
		}
		return !t.lit || o.kind&vaLit != 0
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

// vaObj is an object in scope as the candidates name it.
type vaObj struct {
	name string
	id   uint16
	held bool   // the player holds it directly
	kind vaKind // what the attribute layout says of it
}

// vaScope returns the objects in scope under the names by which the
// commands may refer to them (see valid_names.go): everything in the
// player's room, recursively, except the contents of a closed container
// that cannot be seen into (where the attribute layout says so), and, in
// Infocom games, the room's local globals (the house, the window).
func (g *Game) vaScope(v *vaVocab) []vaObj {
	_, loc := g.Location()
	if loc == 0 {
		return nil
	}
	layout := g.vaLayout()
	var objs []vaScopeObj
	visited := map[uint16]bool{loc: true}
	add := func(o uint16, held bool) {
		words, adj, noun := g.vaObjectWords(v, o)
		if len(words) > 0 {
			objs = append(objs, vaScopeObj{id: o, words: words, adj: adj, noun: noun, held: held})
		}
	}
	var walk func(o uint16)
	walk = func(o uint16) {
		if o != loc && o != g.player && layout.closedOff(g.m, o) {
			return
		}
		_, _, c := g.m.Object(o)
		for steps := 0; c != 0 && steps < g.objects; steps++ {
			if visited[c] {
				break
			}
			visited[c] = true
			if c != g.player {
				add(c, o == g.player)
			}
			walk(c)
			_, c, _ = g.m.Object(c)
		}
	}
	walk(loc)
	if g.player != 0 && !visited[g.player] {
		walk(g.player)
	}
	for _, o := range g.vaLocalGlobals(loc) {
		if !visited[o] {
			visited[o] = true
			add(o, false)
		}
	}
	refs := vaReferences(v, objs)
	seen := map[string]bool{}
	var out []vaObj
	for i, o := range objs {
		name := refs[i]
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, vaObj{name: name, id: o.id, held: o.held, kind: layout.kind(g.m, o.id)})
	}
	return out
}

// vaName picks the words that name object o: the last word of its short
// name that is a noun in the dictionary, and the word before it if the
// dictionary knows that one. Punctuation around a word is dropped: the
// Phoenix library's printed names are "(KEYS)".
func (g *Game) vaName(v *vaVocab, o uint16) (adj, noun string) {
	words := strings.FieldsFunc(strings.ToLower(g.m.ObjectName(o)), func(r rune) bool {
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

// vaLocalGlobals returns the local globals of room loc in a version 3
// game: the objects in the one property of the room whose bytes are all
// objects with the same parent, other than the rooms' parent (Infocom's
// GLOBAL property). Later versions return none: Inform moves its floating
// objects into the room.
func (g *Game) vaLocalGlobals(loc uint16) []uint16 {
	if g.story.Version() > 3 {
		return nil
	}
	table, _ := g.m.PeekWord(0x0a)
	p, ok := g.m.PeekWord(uint32(table) + 62 + uint32(loc-1)*9 + 7)
	if !ok {
		return nil
	}
	a := uint32(p)
	n, _ := g.m.PeekByte(a)
	a += 1 + 2*uint32(n)
	for steps := 0; steps < 32; steps++ {
		b, _ := g.m.PeekByte(a)
		if b == 0 {
			return nil
		}
		l := uint32(b>>5) + 1
		var objs []uint16
		var parent uint16
		good := true
		for i := uint32(0); i < l && good; i++ {
			o, _ := g.m.PeekByte(a + 1 + i)
			if o == 0 || int(o) > g.objects {
				good = false
				break
			}
			par, _, _ := g.m.Object(uint16(o))
			if i == 0 {
				parent = par
			}
			good = par != 0 && par == parent && par != g.rooms && par != loc
			objs = append(objs, uint16(o))
		}
		if good {
			return objs
		}
		a += 1 + l
	}
	return nil
}
