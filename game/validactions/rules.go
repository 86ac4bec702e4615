package validactions

import (
	"slices"
	"strings"
	"sync"

	"github.com/grue-lab/grue/game/zmachine"
)

// Which actions an Inform object's own routines answer. An object's
// before, after and life properties (react.go) hold routines that
// the Inform 6 compiler writes as a switch on the action: "Take, Push,
// Pull: ..." becomes @je sw__var ##Take ##Push ##Pull, where sw__var is
// the compiler's global 249, which the library sets to the action before
// it calls the property (the veneer's CA__Pr; to reason_code, the action
// too, for life). A routine that for a given action can only return
// through such tests, jumps and prints changes nothing for that action:
// returning false, the library goes on as if the object had no routine;
// returning true (a message: "It is far too heavy to move."), it stops
// the action, which is a refusal too. reactsTo walks the routine with
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
// have the attribute the library wants only prints a refusal; libRules
// say which commands are of that kind, and the candidates keep, for each
// such verb, one object that neither reacts nor qualifies, for what the
// room or the game does whatever the object (as react.go does).

// swVar is the variable number of the Inform 6 compiler's sw__var.
const swVar = 249

// libRule is what the Inform library's action routine for a command
// needs to do anything but print a refusal, when no routine of the
// command's objects reacts to the action.
type libRule struct {
	// attrs are the attributes of the target that let the library act,
	// by name, space-separated ("": the action only prints a message).
	attrs string
	// second: the target is the second object (put X in Y), whose before
	// the library runs for the fake action Receive, and which, as the
	// player's own parent, takes the command as a drop.
	second bool
	// held: only an object the player holds is pruned: the grammar's
	// held token (any line of the verb's, ruleOf) or the action routine
	// (WaveSub's ImplicitTake) takes anything else first, and that take
	// (which runs no after routine) may be an outcome of its own.
	held bool
	// locked: the library acts only on a target that is locked
	// (UnlockSub: "That's unlocked at the moment").
	locked bool
	// heldRefused: the library refuses, whatever the attributes, what the
	// player holds and does not wear (TAKE: "You already have that"),
	// and what is static or scenery (takeRefused), and acts on
	// anything else.
	heldRefused bool
	// holder: the library acts on the object the player is in or on
	// (GET OFF it is EXIT).
	holder bool
}

// wants reports whether object o is in the state that rule r's action
// wants besides its attributes (layout l): locked, for UNLOCK.
func (r libRule) wants(l attrLayout, g *Search, o uint16) bool {
	return !r.locked || l.locked < 0 || g.Machine.Attribute(o, uint16(l.locked))
}

// attr returns the number of the attribute of layout l called name (as
// the Inform library does), -1 if unknown.
func (l attrLayout) attr(name string) int {
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

// libRules are the commands, as candidates write them, whose library
// action routines (6.12: EatSub, WearSub, OpenSub, CloseSub, EnterSub,
// SwitchOnSub, SwitchOffSub, UnlockSub, InsertSub, PutOnSub, DigSub,
// TieSub, BurnSub, WaveSub) refuse an object without the attribute, or
// (TakeSub, GetOffSub) one the player holds or is not on. The
// message-only verbs of react.go are rules without attributes too
// (libRuleOf).
var libRules = map[string]libRule{
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

// libRuleOf returns the library rule for candidate template t ("eat %s",
// "put %s in %s"); a message-only verb (messageOnly) with one object has
// a rule without attributes.
func libRuleOf(t string) (libRule, bool) {
	if r, ok := libRules[t]; ok {
		return r, true
	}
	verb, _, _ := strings.Cut(t, " ")
	if messageOnly.Has(verb) && strings.Count(t, "%s") == 1 {
		return libRule{attrs: ""}, true
	}
	return libRule{}, false
}

// routineKey is a routine (packed address) and an action (-1: any;
// fakeAction: some fake action).
type routineKey struct {
	packed uint16
	action int
}

// quietRoutines remembers, for a story, which routines do nothing for an action.
type quietRoutines struct {
	mu    sync.Mutex
	known map[routineKey]bool
}

// reactsTo reports whether a before, after or life routine of object o
// may do anything for one of the actions acts (nil: for some action):
// true too where the game's reaction properties are not known.
func (g *Search) reactsTo(o uint16, acts []uint16) bool {
	vs := g.Story
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.reactProps() })
	if !vs.reactOK {
		return true
	}
	return g.propsReact(o, vs.react[:], acts)
}

// reactsAround reports whether a react_before or react_after routine of
// object o, which the library runs for every action in its scope, may do
// anything for one of the actions acts: true too where those properties
// are not known (aroundProps).
func (g *Search) reactsAround(o uint16, acts []uint16) bool {
	vs := g.Story
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.reactProps() })
	around, ok := g.aroundProps(vs.react, vs.reactOK)
	if !ok {
		return true
	}
	return g.propsReact(o, around[:], acts)
}

// aroundProps returns the numbers of react_before and react_after: in
// the Inform library (linklpa.h, 6/x) 22 and 23 after before. Its
// declarations are checked by the defaults it gives the additive
// properties that follow: describe (32 after before), time_out (38) and
// each_turn (40) default to NULL ($FFFF), and the 20 properties between
// life and react_after to 0.
func (g *Search) aroundProps(react [3]uint32, ok bool) (around [2]uint32, known bool) {
	if !ok || g.Story.z.Version() <= 3 {
		return around, false
	}
	table, _ := g.Machine.PeekWord(0x0a)
	def := func(p uint32) uint16 {
		w, _ := g.Machine.PeekWord(uint32(table) + 2*(p-1))
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

// fakeAction stands for the action when sw__var holds a fake action
// (quietStep): one numbered from lowestFake up, which the grammar does
// not tell, so that only a test against a real action's number is known
// to fail.
const fakeAction = -2

// lowestFake is the number of the first fake action (LetGo, Receive,
// ThrownAt, ...) in grammar version 2: every real action is below it
// (the compiler's #lowest_fake_action_number).
const lowestFake = 4096

// receives reports whether object o has a before routine that may do
// anything for the fake action Receive, which the library runs it for
// when something is put in or on it (or LetGo, when something is taken
// from it): in grammar version 2, any action but the real ones its
// switch on sw__var names; else any action.
func (g *Search) receives(o uint16) bool {
	vs := g.Story
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.reactProps() })
	if !vs.reactOK {
		return true
	}
	if gr := g.grammar(); gr == nil || gr.format != "inform" || gr.version != 2 {
		return g.propsReact(o, vs.react[:1], nil)
	}
	for _, p := range g.props(o) {
		if p.num == vs.react[0] && g.propReacts(p, fakeAction) {
			return true
		}
	}
	return false
}

// propsReact reports whether a routine in one of the properties props
// of object o may do anything for one of the actions acts (nil: any).
func (g *Search) propsReact(o uint16, props []uint32, acts []uint16) bool {
	for _, p := range g.props(o) {
		if !slices.Contains(props, p.num) {
			continue
		}
		if acts == nil && g.propReacts(p, -1) {
			return true
		}
		for _, a := range acts {
			if g.propReacts(p, int(a)) {
				return true
			}
		}
	}
	return false
}

// propReacts reports whether property p (before, after or life) may do
// anything for action (-1: any; fakeAction: a fake action): the
// veneer runs each routine the property lists until one returns true or
// the list ends with NULL; a string or any other value answers at once.
func (g *Search) propReacts(p propRef, action int) bool {
	if p.size%2 != 0 {
		return true
	}
	for i := uint32(0); i < p.size; i += 2 {
		w, _ := g.Machine.PeekWord(p.addr + i)
		if w == 0xffff {
			return false
		}
		if !g.quietFor(w, action) {
			return true
		}
	}
	return false
}

// quietFor reports whether the routine at packed address packed surely
// returns false, doing nothing, when sw__var holds action (-1: whatever
// it holds; fakeAction: a fake action), remembering the answer.
func (g *Search) quietFor(packed uint16, action int) bool {
	vs := g.Story
	key := routineKey{packed, action}
	vs.quiet.mu.Lock()
	q, ok := vs.quiet.known[key]
	vs.quiet.mu.Unlock()
	if ok {
		return q
	}
	q = g.walkQuiet(packed, action)
	vs.quiet.mu.Lock()
	if vs.quiet.known == nil {
		vs.quiet.known = map[routineKey]bool{}
	}
	vs.quiet.known[key] = q
	vs.quiet.mu.Unlock()
	return q
}

// unpackRoutine returns the byte address of the routine at packed
// address p (Standard §1.2.3).
func (g *Search) unpackRoutine(p uint16) uint32 {
	switch v := g.Story.z.Version(); {
	case v <= 3:
		return 2 * uint32(p)
	case v <= 5:
		return 4 * uint32(p)
	case v <= 7:
		off, _ := g.Machine.PeekWord(0x28)
		return 4*uint32(p) + 8*uint32(off)
	default:
		return 8 * uint32(p)
	}
}

// walkQuiet follows every path through the routine at packed address
// packed that sw__var == action (-1: unknown; fakeAction: a fake
// action) allows, and reports whether each returns (whatever it returns)
// having run only branches that read variables other than the stack,
// jumps and prints (quietStep): nothing but the output changes.
func (g *Search) walkQuiet(packed uint16, action int) bool {
	start := g.unpackRoutine(packed)
	if start == 0 || int(start) >= g.Story.z.Size() {
		return false
	}
	n, _ := g.Machine.PeekByte(start)
	if n > 15 {
		return false
	}
	pc := start + 1
	if g.Story.z.Version() <= 4 {
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
		if steps > 512 || int(pc) >= g.Story.z.Size() {
			return false
		}
		seen[pc] = true
		next, ok := g.quietStep(pc, action)
		if !ok {
			return false
		}
		todo = append(todo, next...)
	}
	return true
}

// quietStep decodes the instruction at pc ([zmachine.Machine.Instruction])
// and returns where it may go on (none: it returns), ok false when it may
// do anything but return, jump, print or test: a return (rtrue, rfalse,
// print_ret, ret_popped, ret), a jump to a constant offset, new_line and
// print, the print opcodes of constants and variables other than the
// stack, and the branches that only read (branchStep).
func (g *Search) quietStep(pc uint32, action int) (next []uint32, ok bool) {
	in, err := g.Machine.Instruction(pc)
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
		if popsStack(in) {
			return nil, false
		}
		return []uint32{in.Next}, true
	case "je", "jl", "jg", "jin", "test_attr", "jz":
		return branchStep(in, action)
	}
	return nil, false
}

// popsStack reports whether an operand of in is the stack, which
// reading pops.
func popsStack(in zmachine.Instruction) bool {
	return slices.Contains(in.Operands, zmachine.Operand{Kind: zmachine.Variable, Value: 0})
}

// branchStep returns where the branch in (je, jl, jg, jin, test_attr or
// jz, whose tests only read) may go on: both ways, or where je sw__var
// against constants and a known action (see quietStep) surely goes. ok
// is false where an operand is the stack, or the operands are not the
// opcode's (two; je one to four).
func branchStep(in zmachine.Instruction, action int) (next []uint32, ok bool) {
	ops := in.Operands
	if len(ops) == 0 || in.Name != "je" && in.Name != "jz" && len(ops) != 2 || popsStack(in) {
		return nil, false
	}
	taken, fall := true, true
	if in.Name == "je" && action != -1 && ops[0] == (zmachine.Operand{Kind: zmachine.Variable, Value: swVar}) {
		known, eq := true, false
		for _, o := range ops[1:] {
			isConst := o.Kind != zmachine.Variable
			known = known && isConst && (action >= 0 || o.Value < lowestFake)
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

// hasAny reports whether object o has one of the attributes attrs.
func (g *Search) hasAny(o uint16, attrs []int) bool {
	for _, a := range attrs {
		if g.Machine.Attribute(o, uint16(a)) {
			return true
		}
	}
	return false
}

// ruleOf returns the library rule of template t with its attributes
// in layout and the actions the grammar may parse t as; ok false where no
// rule applies: not an Inform library game, an attribute the layout does
// not know, or actions the grammar does not tell. A template of one
// object that libRules do not name gets the rule of its actions, as
// the rules' own templates are parsed ("rotate %s on", the grammar's
// first word for TURN, is SwitchOn as "turn on %s" is).
func (g *Search) ruleOf(t string, gr *grammar, layout attrLayout) (rule libRule, attrs []int, acts []uint16, ok bool) {
	if !layout.known || gr == nil || gr.format != "inform" {
		return rule, nil, nil, false
	}
	lookup := func(w string) uint32 { return g.Machine.LookupWord(w) }
	acts, ok = gr.actions(t, g.vocab(), lookup)
	if !ok {
		return rule, nil, nil, false
	}
	rule, ok = libRuleOf(t)
	if !ok && strings.Count(t, "%s") == 1 {
		byAction := g.rulesByAction(gr, lookup)
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
	if strings.Count(t, "%s") == 1 && gr.takesHeld(t, g.vocab(), lookup) {
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

// rulesByAction maps the action of each one-object template of
// libRules (where the grammar parses it as one action) to its rule,
// working it out once for the story.
func (g *Search) rulesByAction(gr *grammar, lookup func(string) uint32) map[uint16]libRule {
	vs := g.Story
	vs.rulesOnce.Do(func() {
		vs.rulesByAction = map[uint16]libRule{}
		bad := map[uint16]bool{}
		for t, r := range libRules {
			if strings.Count(t, "%s") != 1 {
				continue
			}
			acts, ok := gr.actions(t, g.vocab(), lookup)
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

// ruleFilter returns the objects of objs worth trying with the
// one-object template t under its library rule: those the rule does not
// cover (not held where it wants held ones, held where it refuses those),
// those with the attribute, those whose routines react to the action,
// the player's holder where the rule acts on it, and the first other one
// (for what the room or the game does whatever the object); ok false when
// no rule applies.
func (g *Search) ruleFilter(t string, objs []object, gr *grammar, layout attrLayout) ([]object, bool) {
	rule, attrs, acts, ok := g.ruleOf(t, gr, layout)
	if !ok {
		return nil, false
	}
	holder := g.holder()
	var out []object
	other := false
	for _, o := range objs {
		switch {
		case rule.held && !o.held, rule.heldRefused && !o.held && !g.takeRefused(o.id, layout),
			g.hasAny(o.id, attrs),
			rule.holder && o.id == holder, g.ruleReacts(rule, o.id, acts):
			out = append(out, o)
		case !other:
			other = true
			out = append(out, o)
		}
	}
	return out, true
}

// takeRefused reports whether the library's TAKE refuses object o,
// which the player does not hold, before its after routines, when o's own
// before does not react: o is static or scenery ("fixed in place",
// "hardly portable"), and what holds it is not a container or supporter
// whose before may answer the fake action LetGo, which the library runs
// first (AttemptToTakeObject, 6.12).
func (g *Search) takeRefused(o uint16, layout attrLayout) bool {
	if layout.static < 0 || layout.scenery < 0 ||
		!g.Machine.Attribute(o, uint16(layout.static)) && !g.Machine.Attribute(o, uint16(layout.scenery)) {
		return false
	}
	p, _, _ := g.Machine.Object(o)
	if p == 0 {
		return true
	}
	if layout.container < 0 || layout.supporter < 0 {
		return false
	}
	holds := g.Machine.Attribute(p, uint16(layout.container)) || g.Machine.Attribute(p, uint16(layout.supporter))
	return !holds || !g.receives(p)
}

// holder returns the object the player is in or on (the room, mostly).
func (g *Search) holder() uint16 {
	if g.Player == 0 {
		return 0
	}
	p, _, _ := g.Machine.Object(g.Player)
	return p
}

// ruleReacts reports whether object o's routines may react to acts
// under rule: before and life always; after only where the action only
// prints a message (an action that needs an attribute runs the after
// routines only once it has acted, which it cannot do without it).
func (g *Search) ruleReacts(rule libRule, o uint16, acts []uint16) bool {
	vs := g.Story
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.reactProps() })
	if !vs.reactOK {
		return true
	}
	if rule.attrs == "" {
		return g.propsReact(o, vs.react[:], acts)
	}
	return g.propsReact(o, []uint32{vs.react[0], vs.react[2]}, acts)
}

// pairRule is what a library rule leaves of a two-object template's
// pairs (pairFilter).
type pairRule struct {
	// keep reports whether the pair x, y is worth trying.
	keep func(x, y object) bool
	// held reports whether a held object still gets a pair of its own
	// whatever the target (pairCandidates): only one whose react_before
	// or react_after may answer the action, where those are known.
	held func(o object) bool
}

// pairFilter returns, for the two-object template t, the pairs of
// objects worth trying under its library rule (ok false: no rule, every
// pair is): the first object (the action's noun) reacts to the action, or
// the target has the attribute; where the target is the second object,
// also when it has a routine that may answer the fake action Receive, or
// the player is in it (the library makes the command a drop).
func (g *Search) pairFilter(t string, gr *grammar, layout attrLayout) (pairRule, bool) {
	rule, attrs, acts, ok := g.ruleOf(t, gr, layout)
	if !ok {
		return pairRule{}, false
	}
	holder := g.holder()
	keep := func(x, y object) bool {
		if g.ruleReacts(rule, x.id, acts) {
			return true
		}
		if rule.second {
			return y.id == holder || g.hasAny(y.id, attrs) || g.receives(y.id)
		}
		return g.hasAny(x.id, attrs) && rule.wants(layout, g, x.id)
	}
	held := func(o object) bool { return g.reactsAround(o.id, acts) }
	return pairRule{keep: keep, held: held}, true
}
