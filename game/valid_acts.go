package game

import (
	"slices"
	"strings"
	"sync"

	"github.com/grue-lab/grue/game/zmachine"
)

// Which actions an Inform object's own routines answer. An object's
// before, after and life properties (valid_react.go) hold routines that
// the Inform 6 compiler writes as a switch on the action: "Take, Push,
// Pull: ..." becomes @je sw__var ##Take ##Push ##Pull, where sw__var is
// the compiler's global 249, which the library sets to the action before
// it calls the property (the veneer's CA__Pr; to reason_code, the action
// too, for life). A routine that for a given action can only return
// through such tests, jumps and prints changes nothing for that action:
// returning false, the library goes on as if the object had no routine;
// returning true (a message: "It is far too heavy to move."), it stops
// the action, which is a refusal too. vaReactsTo walks the routine with
// the action fixed and says so; any other instruction on the way (a
// call, a store, an attribute given, another test whose outcome it
// cannot know) counts as a reaction, so the answer errs on the side of
// trying. A refusal is all the routine does for an object the library
// itself would refuse, which is the only one the rules below ask about.
//
// With that, and the Inform library's action routines (VerbLib, 6/x),
// whose refusals depend on attributes only (nothing is opened that is not
// openable, put in what is not a container, unlocked that is not
// lockable), a command whose objects neither react to its action nor
// have the attribute the library wants only prints a refusal; vaLibRules
// say which commands are of that kind, and the candidates keep, for each
// such verb, one object that neither reacts nor qualifies, for what the
// room or the game does whatever the object (as valid_react.go does).

// vaSwVar is the variable number of the Inform 6 compiler's sw__var.
const vaSwVar = 249

// vaLibRule is what the Inform library's action routine for a command
// needs to do anything but print a refusal, when no routine of the
// command's objects reacts to the action.
type vaLibRule struct {
	// attrs are the attributes of the target that let the library act,
	// by name, space-separated ("": the action only prints a message).
	attrs string
	// second: the target is the second object (put X in Y), whose before
	// the library runs for the fake action Receive, and which, as the
	// player's own parent, takes the command as a drop.
	second bool
	// held: only an object the player holds is pruned: the grammar's
	// held token (any line of the verb's, vaRuleOf) or the action routine
	// (WaveSub's ImplicitTake) takes anything else first, and that take
	// (which runs no after routine) may be an outcome of its own.
	held bool
	// locked: the library acts only on a target that is locked
	// (UnlockSub: "That's unlocked at the moment").
	locked bool
	// heldRefused: the library refuses, whatever the attributes, what the
	// player holds and does not wear (TAKE: "You already have that"),
	// and what is static or scenery (vaTakeRefused), and acts on
	// anything else.
	heldRefused bool
	// holder: the library acts on the object the player is in or on
	// (GET OFF it is EXIT).
	holder bool
}

// wants reports whether object o is in the state that rule r's action
// wants besides its attributes (layout l): locked, for UNLOCK.
func (r vaLibRule) wants(l vaLayout, g *Game, o uint16) bool {
	return !r.locked || l.locked < 0 || g.m.Attribute(o, uint16(l.locked))
}

// attr returns the number of the attribute of layout l called name (as
// the Inform library does), -1 if unknown.
func (l vaLayout) attr(name string) int {
	switch name {
	case "edible":
		return l.edible
	case "clothing":
		return l.clothing
	case "openable":
		return l.openable
	case "enterable":
		return l.enterable
	case "door":
		return l.door
	case "switchable":
		return l.switchable
	case "lockable":
		return l.lockable
	case "container":
		return l.container
	case "supporter":
		return l.supporter
	case "worn":
		return l.worn
	}
	return -1
}

// vaLibRules are the commands, as candidates write them, whose library
// action routines (6.12: EatSub, WearSub, OpenSub, CloseSub, EnterSub,
// SwitchOnSub, SwitchOffSub, UnlockSub, InsertSub, PutOnSub, DigSub,
// TieSub, BurnSub, WaveSub) refuse an object without the attribute, or
// (TakeSub, GetOffSub) one the player holds or is not on. The
// message-only verbs of valid_react.go are rules without attributes too
// (vaRule).
var vaLibRules = map[string]vaLibRule{
	"take %s":    {attrs: "worn", heldRefused: true},
	"get off %s": {holder: true},
	"eat %s":     {attrs: "edible", held: true},
	"wave %s":    {held: true},

	"wear %s": {attrs: "clothing", held: true}, "don %s": {attrs: "clothing", held: true},
	"open %s": {attrs: "openable"}, "close %s": {attrs: "openable"}, "shut %s": {attrs: "openable"},
	"enter %s":   {attrs: "enterable door"},
	"turn on %s": {attrs: "switchable"}, "turn %s on": {attrs: "switchable"},
	"switch on %s": {attrs: "switchable"}, "switch %s on": {attrs: "switchable"},
	"turn off %s": {attrs: "switchable"}, "turn %s off": {attrs: "switchable"},
	"switch off %s": {attrs: "switchable"}, "switch %s off": {attrs: "switchable"},
	"unlock %s with %s": {attrs: "lockable", locked: true},
	"put %s in %s":      {attrs: "container", second: true},
	"put %s into %s":    {attrs: "container", second: true},
	"insert %s in %s":   {attrs: "container", second: true},
	"insert %s into %s": {attrs: "container", second: true},
	"put %s on %s":      {attrs: "supporter", second: true},
	"put %s onto %s":    {attrs: "supporter", second: true},
	"dig %s with %s":    {attrs: ""},
	"tie %s to %s":      {attrs: ""},
	"light %s with %s":  {attrs: ""},
	"burn %s with %s":   {attrs: ""},
}

// vaRule returns the library rule for candidate template t ("eat %s",
// "put %s in %s"); a message-only verb (vaMessageOnly) with one object has
// a rule without attributes.
func vaRule(t string) (vaLibRule, bool) {
	if r, ok := vaLibRules[t]; ok {
		return r, true
	}
	verb, _, _ := strings.Cut(t, " ")
	if vaMessageOnly.Has(verb) && strings.Count(t, "%s") == 1 {
		return vaLibRule{attrs: ""}, true
	}
	return vaLibRule{}, false
}

// vaRoutineKey is a routine (packed address) and an action (-1: any;
// vaFakeAction: some fake action).
type vaRoutineKey struct {
	packed uint16
	action int
}

// vaQuiet remembers, for a story, which routines do nothing for an action.
type vaQuiet struct {
	mu    sync.Mutex
	known map[vaRoutineKey]bool
}

// vaReactsTo reports whether a before, after or life routine of object o
// may do anything for one of the actions acts (nil: for some action):
// true too where the game's reaction properties are not known.
func (g *Game) vaReactsTo(o uint16, acts []uint16) bool {
	vs := g.vaShared()
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.vaReactProps() })
	if !vs.reactOK {
		return true
	}
	return g.vaPropsReact(o, vs.react[:], acts)
}

// vaReactsAround reports whether a react_before or react_after routine of
// object o, which the library runs for every action in its scope, may do
// anything for one of the actions acts: true too where those properties
// are not known (vaAroundProps).
func (g *Game) vaReactsAround(o uint16, acts []uint16) bool {
	vs := g.vaShared()
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.vaReactProps() })
	around, ok := g.vaAroundProps(vs.react, vs.reactOK)
	if !ok {
		return true
	}
	return g.vaPropsReact(o, around[:], acts)
}

// vaAroundProps returns the numbers of react_before and react_after: in
// the Inform library (linklpa.h, 6/x) 22 and 23 after before. Its
// declarations are checked by the defaults it gives the additive
// properties that follow: describe (32 after before), time_out (38) and
// each_turn (40) default to NULL ($FFFF), and the 20 properties between
// life and react_after to 0.
func (g *Game) vaAroundProps(react [3]uint32, ok bool) (around [2]uint32, known bool) {
	if !ok || g.story.Version() <= 3 {
		return around, false
	}
	table, _ := g.m.PeekWord(0x0a)
	def := func(p uint32) uint16 {
		w, _ := g.m.PeekWord(uint32(table) + 2*(p-1))
		return w
	}
	b := react[0]
	if b+40 > 63 {
		return around, false
	}
	for _, k := range []uint32{32, 38, 40} {
		if def(b+k) != 0xffff {
			return around, false
		}
	}
	for k := uint32(3); k <= 23; k++ {
		if def(b+k) != 0 {
			return around, false
		}
	}
	return [2]uint32{b + 22, b + 23}, true
}

// vaFakeAction stands for the action when sw__var holds a fake action
// (vaQuietStep): one numbered from vaLowestFake up, which the grammar does
// not tell, so that only a test against a real action's number is known
// to fail.
const vaFakeAction = -2

// vaLowestFake is the number of the first fake action (LetGo, Receive,
// ThrownAt, ...) in grammar version 2: every real action is below it
// (the compiler's #lowest_fake_action_number).
const vaLowestFake = 4096

// vaReceives reports whether object o has a before routine that may do
// anything for the fake action Receive, which the library runs it for
// when something is put in or on it (or LetGo, when something is taken
// from it): in grammar version 2, any action but the real ones its
// switch on sw__var names; else any action.
func (g *Game) vaReceives(o uint16) bool {
	vs := g.vaShared()
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.vaReactProps() })
	if !vs.reactOK {
		return true
	}
	if gr := g.vaGrammar(); gr == nil || gr.format != "inform" || gr.version != 2 {
		return g.vaPropsReact(o, vs.react[:1], nil)
	}
	for _, p := range g.vaProps(o) {
		if p.num == vs.react[0] && g.vaPropReacts(p, vaFakeAction) {
			return true
		}
	}
	return false
}

// vaPropsReact reports whether a routine in one of the properties props
// of object o may do anything for one of the actions acts (nil: any).
func (g *Game) vaPropsReact(o uint16, props []uint32, acts []uint16) bool {
	for _, p := range g.vaProps(o) {
		if !slices.Contains(props, p.num) {
			continue
		}
		if acts == nil && g.vaPropReacts(p, -1) {
			return true
		}
		for _, a := range acts {
			if g.vaPropReacts(p, int(a)) {
				return true
			}
		}
	}
	return false
}

// vaPropReacts reports whether property p (before, after or life) may do
// anything for action (-1: any; vaFakeAction: a fake action): the
// veneer runs each routine the property lists until one returns true or
// the list ends with NULL; a string or any other value answers at once.
func (g *Game) vaPropReacts(p vaProp, action int) bool {
	if p.size%2 != 0 {
		return true
	}
	for i := uint32(0); i < p.size; i += 2 {
		w, _ := g.m.PeekWord(p.addr + i)
		if w == 0xffff {
			return false
		}
		if !g.vaQuietFor(w, action) {
			return true
		}
	}
	return false
}

// vaQuietFor reports whether the routine at packed address packed surely
// returns false, doing nothing, when sw__var holds action (-1: whatever
// it holds; vaFakeAction: a fake action), remembering the answer.
func (g *Game) vaQuietFor(packed uint16, action int) bool {
	vs := g.vaShared()
	key := vaRoutineKey{packed, action}
	vs.quiet.mu.Lock()
	q, ok := vs.quiet.known[key]
	vs.quiet.mu.Unlock()
	if ok {
		return q
	}
	q = g.vaWalkQuiet(packed, action)
	vs.quiet.mu.Lock()
	if vs.quiet.known == nil {
		vs.quiet.known = map[vaRoutineKey]bool{}
	}
	vs.quiet.known[key] = q
	vs.quiet.mu.Unlock()
	return q
}

// vaUnpackRoutine returns the byte address of the routine at packed
// address p (Standard §1.2.3).
func (g *Game) vaUnpackRoutine(p uint16) uint32 {
	switch v := g.story.Version(); {
	case v <= 3:
		return 2 * uint32(p)
	case v <= 5:
		return 4 * uint32(p)
	case v <= 7:
		off, _ := g.m.PeekWord(0x28)
		return 4*uint32(p) + 8*uint32(off)
	default:
		return 8 * uint32(p)
	}
}

// vaWalkQuiet follows every path through the routine at packed address
// packed that sw__var == action (-1: unknown; vaFakeAction: a fake
// action) allows, and reports whether each returns (whatever it returns)
// having run only branches that read variables other than the stack,
// jumps and prints (vaQuietStep): nothing but the output changes.
func (g *Game) vaWalkQuiet(packed uint16, action int) bool {
	start := g.vaUnpackRoutine(packed)
	if start == 0 || int(start) >= g.story.Size() {
		return false
	}
	n, _ := g.m.PeekByte(start)
	if n > 15 {
		return false
	}
	pc := start + 1
	if g.story.Version() <= 4 {
		pc += 2 * uint32(n)
	}
	todo := []uint32{pc}
	seen := map[uint32]bool{}
	for steps := 0; len(todo) > 0; steps++ {
		pc := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[pc] {
			continue
		}
		if steps > 512 || int(pc) >= g.story.Size() {
			return false
		}
		seen[pc] = true
		next, ok := g.vaQuietStep(pc, action)
		if !ok {
			return false
		}
		todo = append(todo, next...)
	}
	return true
}

// vaQuietStep decodes the instruction at pc ([zmachine.Machine.Instruction])
// and returns where it may go on (none: it returns), ok false when it may
// do anything but return, jump, print or test: a return (rtrue, rfalse,
// print_ret, ret_popped, ret), a jump to a constant offset, new_line and
// print, the print opcodes of constants and variables other than the
// stack, and the branches that only read (vaBranchStep).
func (g *Game) vaQuietStep(pc uint32, action int) (next []uint32, ok bool) {
	in, err := g.m.Instruction(pc)
	if err != nil {
		return nil, false
	}
	switch in.Name {
	case "rtrue", "rfalse", "print_ret", "ret_popped", "ret":
		return nil, true
	case "jump":
		t, ok := in.JumpTarget()
		if !ok || in.Operands[0].Kind != zmachine.LargeConstant {
			return nil, false
		}
		return []uint32{t}, true
	case "new_line", "print":
		return []uint32{in.Next}, true
	case "print_addr", "print_paddr", "print_obj", "print_char", "print_num":
		if vaPopsStack(in) {
			return nil, false
		}
		return []uint32{in.Next}, true
	case "je", "jl", "jg", "jin", "test_attr", "jz":
		return vaBranchStep(in, action)
	}
	return nil, false
}

// vaPopsStack reports whether an operand of in is the stack, which
// reading pops.
func vaPopsStack(in zmachine.Instruction) bool {
	return slices.Contains(in.Operands, zmachine.Operand{Kind: zmachine.Variable, Value: 0})
}

// vaBranchStep returns where the branch in (je, jl, jg, jin, test_attr or
// jz, whose tests only read) may go on: both ways, or where je sw__var
// against constants and a known action (see vaQuietStep) surely goes. ok
// is false where an operand is the stack, or the operands are not the
// opcode's (two; je one to four).
func vaBranchStep(in zmachine.Instruction, action int) (next []uint32, ok bool) {
	ops := in.Operands
	if len(ops) == 0 || in.Name != "je" && in.Name != "jz" && len(ops) != 2 || vaPopsStack(in) {
		return nil, false
	}
	taken, fall := true, true
	if in.Name == "je" && action != -1 && ops[0] == (zmachine.Operand{Kind: zmachine.Variable, Value: vaSwVar}) {
		known, eq := true, false
		for _, o := range ops[1:] {
			isConst := o.Kind != zmachine.Variable
			known = known && isConst && (action >= 0 || o.Value < vaLowestFake)
			eq = eq || isConst && int(o.Value) == action
		}
		if known {
			taken, fall = eq == in.Branch.OnTrue, eq != in.Branch.OnTrue
		}
	}
	if taken && !in.Branch.Returns() {
		next = append(next, in.Branch.Target)
	}
	if fall {
		next = append(next, in.Next)
	}
	return next, true
}

// vaHasAny reports whether object o has one of the attributes attrs.
func (g *Game) vaHasAny(o uint16, attrs []int) bool {
	for _, a := range attrs {
		if g.m.Attribute(o, uint16(a)) {
			return true
		}
	}
	return false
}

// vaRuleOf returns the library rule of template t with its attributes
// in layout and the actions the grammar may parse t as; ok false where no
// rule applies: not an Inform library game, an attribute the layout does
// not know, or actions the grammar does not tell. A template of one
// object that vaLibRules do not name gets the rule of its actions, as
// the rules' own templates are parsed ("rotate %s on", the grammar's
// first word for TURN, is SwitchOn as "turn on %s" is).
func (g *Game) vaRuleOf(t string, gr *vaGrammar, layout vaLayout) (rule vaLibRule, attrs []int, acts []uint16, ok bool) {
	if !layout.known || gr == nil || gr.format != "inform" {
		return rule, nil, nil, false
	}
	lookup := func(w string) uint32 { return g.m.LookupWord(w) }
	acts, ok = gr.actions(t, g.vaVocab(), lookup)
	if !ok {
		return rule, nil, nil, false
	}
	rule, ok = vaRule(t)
	if !ok && strings.Count(t, "%s") == 1 {
		byAction := g.vaRulesByAction(gr, lookup)
		for i, a := range acts {
			r, found := byAction[a]
			if !found || i > 0 && r != rule {
				return rule, nil, nil, false
			}
			rule, ok = r, true
		}
	}
	if !ok {
		return rule, nil, nil, false
	}
	if strings.Count(t, "%s") == 1 && gr.takesHeld(t, g.vaVocab(), lookup) {
		rule.held = true
	}
	for _, name := range strings.Fields(rule.attrs) {
		a := layout.attr(name)
		if a < 0 {
			return rule, nil, nil, false
		}
		attrs = append(attrs, a)
	}
	return rule, attrs, acts, true
}

// vaRulesByAction maps the action of each one-object template of
// vaLibRules (where the grammar parses it as one action) to its rule,
// working it out once for the story.
func (g *Game) vaRulesByAction(gr *vaGrammar, lookup func(string) uint32) map[uint16]vaLibRule {
	vs := g.vaShared()
	vs.rulesOnce.Do(func() {
		vs.rulesByAction = map[uint16]vaLibRule{}
		bad := map[uint16]bool{}
		for t, r := range vaLibRules {
			if strings.Count(t, "%s") != 1 {
				continue
			}
			acts, ok := gr.actions(t, g.vaVocab(), lookup)
			if !ok || len(acts) != 1 {
				continue
			}
			if old, seen := vs.rulesByAction[acts[0]]; seen && old != r {
				bad[acts[0]] = true
			}
			vs.rulesByAction[acts[0]] = r
		}
		for a := range bad {
			delete(vs.rulesByAction, a)
		}
	})
	return vs.rulesByAction
}

// vaRuleFilter returns the objects of objs worth trying with the
// one-object template t under its library rule: those the rule does not
// cover (not held where it wants held ones, held where it refuses those),
// those with the attribute, those whose routines react to the action,
// the player's holder where the rule acts on it, and the first other one
// (for what the room or the game does whatever the object); ok false when
// no rule applies.
func (g *Game) vaRuleFilter(t string, objs []vaObj, gr *vaGrammar, layout vaLayout) ([]vaObj, bool) {
	rule, attrs, acts, ok := g.vaRuleOf(t, gr, layout)
	if !ok {
		return nil, false
	}
	holder := g.vaHolder()
	var out []vaObj
	other := false
	for _, o := range objs {
		switch {
		case rule.held && !o.held, rule.heldRefused && !o.held && !g.vaTakeRefused(o.id, layout),
			g.vaHasAny(o.id, attrs),
			rule.holder && o.id == holder, g.vaRuleReacts(rule, o.id, acts):
			out = append(out, o)
		case !other:
			other = true
			out = append(out, o)
		}
	}
	return out, true
}

// vaTakeRefused reports whether the library's TAKE refuses object o,
// which the player does not hold, before its after routines, when o's own
// before does not react: o is static or scenery ("fixed in place",
// "hardly portable"), and what holds it is not a container or supporter
// whose before may answer the fake action LetGo, which the library runs
// first (AttemptToTakeObject, 6.12).
func (g *Game) vaTakeRefused(o uint16, layout vaLayout) bool {
	if layout.static < 0 || layout.scenery < 0 ||
		!g.m.Attribute(o, uint16(layout.static)) && !g.m.Attribute(o, uint16(layout.scenery)) {
		return false
	}
	p, _, _ := g.m.Object(o)
	if p == 0 {
		return true
	}
	if layout.container < 0 || layout.supporter < 0 {
		return false
	}
	holds := g.m.Attribute(p, uint16(layout.container)) || g.m.Attribute(p, uint16(layout.supporter))
	return !holds || !g.vaReceives(p)
}

// vaHolder returns the object the player is in or on (the room, mostly).
func (g *Game) vaHolder() uint16 {
	if g.player == 0 {
		return 0
	}
	p, _, _ := g.m.Object(g.player)
	return p
}

// vaRuleReacts reports whether object o's routines may react to acts
// under rule: before and life always; after only where the action only
// prints a message (an action that needs an attribute runs the after
// routines only once it has acted, which it cannot do without it).
func (g *Game) vaRuleReacts(rule vaLibRule, o uint16, acts []uint16) bool {
	vs := g.vaShared()
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.vaReactProps() })
	if !vs.reactOK {
		return true
	}
	if rule.attrs == "" {
		return g.vaPropsReact(o, vs.react[:], acts)
	}
	return g.vaPropsReact(o, []uint32{vs.react[0], vs.react[2]}, acts)
}

// vaPairRule is what a library rule leaves of a two-object template's
// pairs (vaPairFilter).
type vaPairRule struct {
	// keep reports whether the pair x, y is worth trying.
	keep func(x, y vaObj) bool
	// held reports whether a held object still gets a pair of its own
	// whatever the target (vaTwoCandidates): only one whose react_before
	// or react_after may answer the action, where those are known.
	held func(o vaObj) bool
}

// vaPairFilter returns, for the two-object template t, the pairs of
// objects worth trying under its library rule (ok false: no rule, every
// pair is): the first object (the action's noun) reacts to the action, or
// the target has the attribute; where the target is the second object,
// also when it has a routine that may answer the fake action Receive, or
// the player is in it (the library makes the command a drop).
func (g *Game) vaPairFilter(t string, gr *vaGrammar, layout vaLayout) (vaPairRule, bool) {
	rule, attrs, acts, ok := g.vaRuleOf(t, gr, layout)
	if !ok {
		return vaPairRule{}, false
	}
	holder := g.vaHolder()
	keep := func(x, y vaObj) bool {
		if g.vaRuleReacts(rule, x.id, acts) {
			return true
		}
		if rule.second {
			return y.id == holder || g.vaHasAny(y.id, attrs) || g.vaReceives(y.id)
		}
		return g.vaHasAny(x.id, attrs) && rule.wants(layout, g, x.id)
	}
	held := func(o vaObj) bool { return g.vaReactsAround(o.id, acts) }
	return vaPairRule{keep: keep, held: held}, true
}
