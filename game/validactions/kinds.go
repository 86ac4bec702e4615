package validactions

import (
	"github.com/grue-lab/grue/game/zmachine"
)

// What ValidActions knows of the nature of objects, to leave out
// two-object commands that cannot do anything: putting things into a key,
// giving them to a lamp, unlocking a leaflet with a sword.
//
// The Z-machine knows objects only by numbered attributes, and what each
// number means is the game's. Two layouts are recognised:
//
//   - the Inform library (6/x), recognised by the Inform 6 metaclass objects
//     1 to 4 (Class, Object, Routine, String) and a player that has the
//     library's selfobj attributes (animate 0, concealed 3, proper 16,
//     transparent 23) and none that a player never has (selfobj): the library
//     declares its attributes in one fixed order, so container is 4,
//     supporter 20, scenery 17, static 19 and so on (checked on Lantern);
//   - Infocom's Zork trilogy, by catalog name: the ZIL compiler numbers
//     flags per game; in the three Zorks TAKEBIT is 17, CONTBIT 18, VEHBIT 27
//     and ACTORBIT 30 (read off the object tables: the trophy case, the
//     chests and baskets, the boats, the troll, the thief and the robot;
//     TestValidKinds checks them). ZIL surfaces (tables, altars) are
//     containers too, so "put on" needs no flag of its own.
//
// Any other game keeps the full set of candidates.

// attrLayout is the meaning of a story's attribute numbers; -1 is unknown.
type attrLayout struct {
	known                                    bool
	animate, container, supporter, enterable int
	openable, lockable, vehicle, takeable    int
	// edible, clothing, switchable, door, ...: what the Inform library's
	// action routines look for (rules.go); -1 in other layouts.
	edible, clothing, switchable, door, locked, worn, static, scenery int
	// open and transparent: a container that has neither is closed off
	// (-1: never closed off).
	open, transparent int
	// lit are attributes of something burning or switched on.
	lit []int
	// fixed are attributes that make an object part of the scenery: an
	// Inform object with one of them is not portable. A ZIL object is
	// portable when it has takeable (TAKEBIT).
	fixed []int
}

// informLayout is the Inform library's layout (linklpa.h, library 6/x).
var informLayout = attrLayout{
	known: true, animate: 0, container: 4, supporter: 20, enterable: 7,
	openable: 15, lockable: 10, vehicle: -1, takeable: -1,
	open: 14, transparent: 23,
	edible: 6, clothing: 2, switchable: 21, door: 5, locked: 11, worn: 26,
	static: 19, scenery: 17,
	fixed: []int{5, 17, 19}, // door, scenery, static
	lit:   []int{9, 13},     // light, on
}

// zorkLayout is the Zork trilogy's layout (see above).
var zorkLayout = attrLayout{
	known: true, animate: 30, container: 18, supporter: -1, enterable: -1,
	openable: -1, lockable: -1, vehicle: 27, takeable: 17,
	open: -1, transparent: -1,
	edible: -1, clothing: -1, switchable: -1, door: -1, locked: -1, worn: -1,
	static: -1, scenery: -1,
	lit: []int{19}, // ONBIT
}

// layoutsByName are the layouts of catalog games that are not Inform
// library games.
var layoutsByName = map[string]attrLayout{"zork1": zorkLayout, "zork2": zorkLayout, "zork3": zorkLayout}

// layout returns the attribute layout of g's story, working it out once.
func (g *Search) layout() attrLayout {
	vs := g.Story
	vs.layoutOnce.Do(func() { vs.layout = g.findLayout() })
	return vs.layout
}

func (g *Search) findLayout() attrLayout {
	if g.CatalogName != "" {
		if l, ok := layoutsByName[g.CatalogName]; ok {
			if g.Player != 0 && g.Machine.Attribute(g.Player, uint16(l.animate)) {
				return l
			}
			return attrLayout{}
		}
	}
	if !isInform6(g.Machine) || g.Player == 0 {
		return attrLayout{}
	}
	// A game that declares attributes of its own before it includes the
	// library moves the library's up by as many (Building and Fable by
	// one, Bunny by two).
shifts:
	for k := uint16(0); k <= 4; k++ {
		for a, want := range selfobj {
			if g.Machine.Attribute(g.Player, a+k) != want {
				continue shifts
			}
		}
		return informLayout.shift(int(k))
	}
	return attrLayout{}
}

// shift returns layout l with every attribute number raised by k.
func (l attrLayout) shift(k int) attrLayout {
	up := func(a int) int {
		if a < 0 {
			return a
		}
		return a + k
	}
	out := l
	for _, f := range []*int{&out.animate, &out.container, &out.supporter, &out.enterable,
		&out.openable, &out.lockable, &out.vehicle, &out.takeable, &out.open, &out.transparent,
		&out.edible, &out.clothing, &out.switchable, &out.door, &out.locked, &out.worn,
		&out.static, &out.scenery} {
		*f = up(*f)
	}
	out.lit, out.fixed = nil, nil
	for _, a := range l.lit {
		out.lit = append(out.lit, up(a))
	}
	for _, a := range l.fixed {
		out.fixed = append(out.fixed, up(a))
	}
	return out
}

// selfobj are attributes the Inform library's player object has (true)
// and never has (false): animate, concealed, proper and transparent; not
// absent, clothing, container, door, edible, enterable, scenery, static or
// supporter.
var selfobj = map[uint16]bool{0: true, 3: true, 16: true, 23: true,
	1: false, 2: false, 4: false, 5: false, 6: false, 7: false, 17: false, 19: false, 20: false}

// isInform6 reports whether the story was compiled by Inform 6: its first
// four objects are the metaclasses the compiler makes.
func isInform6(m *zmachine.Machine) bool {
	for i, want := range []string{"Class", "Object", "Routine", "String"} {
		if m.ObjectName(uint16(i+1)) != want {
			return false
		}
	}
	return true
}

// objKind is what the layout says of one object.
type objKind uint8

const (
	// kindPlain: a portable thing that is not a container, supporter,
	// vehicle or creature, and cannot be opened, locked or entered. Things
	// do not go in or on it, it does not take gifts, and commands that
	// need a target (unlock, turn, dig, attack ... with) do not aim at it.
	kindPlain objKind = 1 << iota
	// kindAnimate: a person or creature.
	kindAnimate
	// kindLit: something burning or switched on.
	kindLit
)

// kind returns what layout l says of object o of machine m; 0 when the
// layout is unknown.
func (l attrLayout) kind(m *zmachine.Machine, o uint16) objKind {
	if !l.known {
		return 0
	}
	has := func(a int) bool { return a >= 0 && m.Attribute(o, uint16(a)) }
	var k objKind
	if has(l.animate) {
		k |= kindAnimate
	}
	for _, a := range l.lit {
		if has(a) {
			k |= kindLit
		}
	}
	portable := true
	if l.takeable >= 0 {
		portable = has(l.takeable)
	}
	for _, a := range l.fixed {
		if has(a) {
			portable = false
		}
	}
	if portable && k&kindAnimate == 0 && !has(l.container) && !has(l.supporter) &&
		!has(l.vehicle) && !has(l.enterable) && !has(l.openable) && !has(l.lockable) {
		k |= kindPlain
	}
	return k
}

// closedOff reports whether layout l says that object o of machine m is a
// closed container that cannot be seen into, so that what it holds is out
// of scope.
func (l attrLayout) closedOff(m *zmachine.Machine, o uint16) bool {
	if !l.known || l.open < 0 || l.container < 0 {
		return false
	}
	return m.Attribute(o, uint16(l.container)) && !m.Attribute(o, uint16(l.open)) &&
		(l.transparent < 0 || !m.Attribute(o, uint16(l.transparent)))
}
