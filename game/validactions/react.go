package validactions

import "github.com/grue-lab/grue/internal/wordset"

// Which objects an Inform library game lets react to a verb. The library's
// default for many actions only prints a message (TOUCH: "You feel nothing
// unexpected", PUSH: "It is fixed in place", LOOK UNDER, SMELL, DIG, ...):
// such a command changes the world only when a routine of the game steps
// in, and the one that names the object is its own before, after or life
// property (the room's before and the game's GamePreRoutine answer for any
// object alike). So, in a game whose objects have those properties, a
// message-only verb is tried with the objects that have one of them, and
// with one other object for what the room does whatever the object. The
// verbs of the game's own grammar are always tried with every object:
// their action routines are the game's.
//
// The library declares before, after and life first among its properties,
// each with the default NULL ($FFFF), and no other property before them
// has that default: the first three consecutive properties whose default
// is $FFFF are before, after and life (4, 5 and 6 in games of Inform 6.3).

// messageOnly are the verbs (first word of a candidate) whose library
// actions only print a message, for every object and line of theirs that
// the candidates use: TURN X and SWITCH X ON are not among them.
var messageOnly = wordset.New(`touch feel fondle grope read push press shift pull drag move
		climb scale dig drink sip swallow light burn wave smell sniff listen hear taste l look
		search blow rub clean dust polish scrub shine sweep wipe squeeze squash swing kiss embrace
		hug attack break crack destroy fight hit kill murder punch smash thump torture wreck think
		sing pray jump hop skip cut chop prune slice buy purchase wake awake awaken tie attach
		fasten fix consult`)

// saysOnly are more verbs whose library actions without an object only
// print a message: inventory, apologies, swearing, yes and no, sleeping,
// swimming, waiting, going nowhere in particular.
var saysOnly = wordset.New(`i inv inventory sorry y yes no damn bother shit fuck sod curses
	darn drat sleep nap wait z go run walk swim dive`)

// roomReacts reports whether the player's room may react to an action
// without an object: it has before or after, or they are not known.
func (g *Search) roomReacts() bool {
	vs := g.Story
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.reactProps() })
	if !vs.reactOK {
		return true
	}
	loc := g.Location
	return loc == 0 || g.reacts(loc, vs.react)
}

// reactProps returns the numbers of the before, after and life
// properties of an Inform game (see above; 2, 3 and 4 in Inform 5), ok
// false when the game is not one or its defaults do not show them.
func (g *Search) reactProps() (props [3]uint32, ok bool) {
	if !g.isInform() {
		return props, false
	}
	table, _ := g.Machine.PeekWord(0x0a)
	n := uint32(63)
	if g.Story.z.Version() <= 3 {
		n = 31
	}
	def := func(p uint32) uint16 {
		w, _ := g.Machine.PeekWord(uint32(table) + 2*(p-1))
		return w
	}
	for p := uint32(1); p+2 <= n; p++ {
		if def(p) == 0xffff && def(p+1) == 0xffff && def(p+2) == 0xffff {
			return [3]uint32{p, p + 1, p + 2}, true
		}
	}
	return props, false
}

// reacts reports whether object o has a before, after or life property.
func (g *Search) reacts(o uint16, props [3]uint32) bool {
	for _, p := range g.props(o) {
		if p.num == props[0] || p.num == props[1] || p.num == props[2] {
			return true
		}
	}
	return false
}

// reactFilter returns, for a game whose reaction properties are known,
// the objects of objs that a message-only verb is tried with: those that
// react and the first that does not; nil, false otherwise (every object is
// tried).
func (g *Search) reactFilter(objs []object) ([]object, bool) {
	vs := g.Story
	vs.reactOnce.Do(func() { vs.react, vs.reactOK = g.reactProps() })
	if !vs.reactOK {
		return nil, false
	}
	var out []object
	other := false
	for _, o := range objs {
		if g.reacts(o.id, vs.react) {
			out = append(out, o)
		} else if !other {
			other = true
			out = append(out, o)
		}
	}
	return out, true
}
