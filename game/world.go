package game

import (
	"strings"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Player is the object number of the player, 0 when it is unknown.
//
// For a Glulx story it is the Inform library's selfobj in the object
// list read from RAM, while it is in play.
func (g *Game) Player() uint16 {
	if g.gx != nil {
		return g.glulxPlayer()
	}
	return g.player
}

// Location returns the room the player is in, or "" and 0 when it cannot
// be known. In a version 3 game it is always global 0's object, the room
// the status line names (Infocom's HERE, the Inform library's location):
// the player may be in a vehicle or a container there (Container names
// it). In a later game it
// is the room holding the player: the player's parent in the object tree,
// or the room holding it when the player is inside something (a boat, a
// vehicle); when the player object is unknown it falls back to global 0,
// the Inform library's location. A room without a name (the object's
// short name is empty, "object#N", and the status line names no room
// either) is not known: it is reported as "" and 0 rather than named by
// its number.
//
// When the player found is in no room with a name (out of play, in a
// pronoun object: a player found wrong), the room the status line names is
// the location, when it is one object that holds something.
//
// For a Glulx story the name is the status window's left part, the room
// name as the Inform libraries draw it there, and id the object that
// holds the player (outermost) in the object list read from RAM, when
// its name is that room's; else id is 0.
func (g *Game) Location() (name string, id uint16) {
	if g.gx != nil {
		name = g.glulxStatus().location
		return name, g.glulxRoom(name)
	}
	switch {
	case g.story.Version() <= 3 || g.player == 0:
		id = g.m.Global(0)
	default:
		id = g.roomOf(g.player)
		if !g.namedRoom(id) {
			if here := g.statusRoom(); g.roomLike(here) {
				id = here
			}
		}
	}
	if id == 0 || int(id) > g.objects {
		return "", 0
	}
	name = g.roomName(id)
	if !knownName(name) {
		return "", 0
	}
	return name, id
}

// namedRoom reports whether object o is an object of the tree with a
// name that can be a room's (knownName).
func (g *Game) namedRoom(o uint16) bool {
	return o != 0 && int(o) <= g.objects && knownName(g.roomName(o))
}

// roomLike reports whether object o could be a room the player is in: an
// object of the tree without a parent (or under the rooms' parent), with
// a name, that holds something.
func (g *Game) roomLike(o uint16) bool {
	if o == 0 || int(o) > g.objects {
		return false
	}
	p, _, c := g.m.Object(o)
	return (p == 0 || p == g.rooms) && c != 0 && knownName(g.m.ObjectName(o))
}

// Container is the vehicle or container the player sits in inside the
// room (Location), "" and 0 when the player stands in the room itself or
// is unknown: Zork's boat, a chair. For a Glulx story it is the player's
// parent in the object tree when that is not the room Location gives.
func (g *Game) Container() (name string, id uint16) {
	if g.gx != nil {
		return g.glulxContainer()
	}
	if g.player == 0 {
		return "", 0
	}
	_, room := g.Location()
	p, _, _ := g.m.Object(g.player)
	if p == 0 || p == room || room == 0 || !g.within(g.player, room, 4) {
		return "", 0
	}
	name = g.m.ObjectName(p)
	if !knownName(name) {
		return "", 0
	}
	return name, p
}

// roomOf is the room holding object o: its parent, or the outermost
// object holding it below the rooms' parent (g.rooms, or none); 0 when o
// is nowhere.
func (g *Game) roomOf(o uint16) uint16 {
	id, _, _ := g.m.Object(o)
	for steps := 0; id != 0 && steps < g.objects; steps++ {
		p, _, _ := g.m.Object(id)
		if p == 0 || p == g.rooms {
			break
		}
		id = p
	}
	return id
}

// knownName reports whether name names a room: not empty, not the
// "object#N" that stands for an object without a short name, not a
// clock ("10:23 am") taken from a status line, and not a pronoun (the
// Inform library's "it" and "that" objects, which a player found wrong
// sits in: a location reported unknown rather than named "it").
func knownName(name string) bool {
	name = strings.TrimSpace(name)
	return name != "" && !strings.HasPrefix(name, "object#") && !clockRE.MatchString(name) && !pronouns[strings.ToLower(name)]
}

var pronouns = map[string]bool{"it": true, "that": true, "this": true, "him": true, "her": true, "them": true, "those": true, "these": true, "you": true, "me": true}

var clockRE = lazyregexp.New(`^(?i)(time:?\s*)?\d{1,2}:\d\d(\s*[ap]\.?m\.?)?$`)

// roomName is the name of room id: its short name, or, for a room whose
// name a routine prints (the object's own name is empty, "object#N"), the
// room the status line names (version 4 and later: a version 3 status
// line prints the object's own short name).
func (g *Game) roomName(id uint16) string {
	name := g.m.ObjectName(id)
	if knownName(name) || g.story.Version() <= 3 {
		return name
	}
	line := strings.TrimSpace(g.m.StatusLine())
	if i := strings.Index(line, "  "); i > 0 {
		line = line[:i]
	}
	if !knownName(line) {
		return name
	}
	return line
}

// Inventory lists what the player carries: the player's children in the
// object tree. It is empty when the player object is unknown.
func (g *Game) Inventory() []Object {
	if g.gx != nil {
		if p := g.glulxPlayer(); p != 0 {
			return g.glulxChildren(p)
		}
		return nil
	}
	if g.player == 0 {
		return nil
	}
	return g.children(g.player)
}

// children lists the children of o in tree order.
func (g *Game) children(o uint16) []Object {
	var out []Object
	_, _, c := g.m.Object(o)
	for steps := 0; c != 0 && steps < g.objects; steps++ {
		obj := g.object(c)
		out = append(out, obj)
		c = obj.Sibling
	}
	return out
}

// WorldObjects lists every object in the object table: for a Glulx
// story the Inform object list read from RAM, numbered from 1 in list
// order (none when it is not found).
func (g *Game) WorldObjects() []Object {
	if g.gx != nil {
		t := g.glulxTree()
		if t == nil {
			return nil
		}
		out := make([]Object, 0, len(t.addrs))
		for o := 1; o <= len(t.addrs); o++ {
			out = append(out, g.glulxObject(uint16(o)))
		}
		return out
	}
	out := make([]Object, 0, g.objects)
	for o := 1; o <= g.objects; o++ {
		out = append(out, g.object(uint16(o)))
	}
	return out
}

// Object returns object o as the tree holds it now.
//
// For a Glulx story it is the object of the Inform object list read
// from RAM (WorldObjects), only the number when there is none.
func (g *Game) Object(o uint16) Object {
	if g.gx != nil {
		return g.glulxObject(o)
	}
	return g.object(o)
}

func (g *Game) object(o uint16) Object {
	p, s, c := g.m.Object(o)
	obj := Object{ID: o, Name: g.m.ObjectName(o), Parent: p, Sibling: s, Child: c}
	for a := 0; a < g.attributes(); a++ {
		if g.m.Attribute(o, uint16(a)) {
			obj.Attributes = append(obj.Attributes, a)
		}
	}
	return obj
}

// attributes is the number of attributes an object has.
func (g *Game) attributes() int {
	if g.story.Version() <= 3 {
		return 32
	}
	return 48
}

// findPlayer finds the player of a game the catalog does not know. The
// location is global 0 (the version 3 status line's, and the Inform
// library's location) or the room the status line names; the player is
// the object in it (or in something in it) that a global points to (the Inform library's player
// and actor, an Infocom game's WINNER and PLAYER): the library's selfobj
// ("(self object)", "yourself") or Infocom's "cretin" if it is one of them,
// else the one the most globals point to. Without a location it falls back to those names alone, and it
// returns 0 when nothing fits.
func (g *Game) findPlayer() uint16 {
	loc := g.statusRoom()
	if loc == 0 {
		loc = g.m.Global(0)
	}
	if loc != 0 && int(loc) <= g.objects {
		refs := map[uint16]int{}
		for gl := 1; gl < 240; gl++ {
			v := g.m.Global(gl)
			if v == 0 || v == loc || int(v) > g.objects {
				continue
			}
			if g.within(v, loc, 3) {
				refs[v]++
			}
		}
		best, bestN := uint16(0), 0
		for o, n := range refs {
			self, bestSelf := selfName(g.m.ObjectName(o)), selfName(g.m.ObjectName(best))
			if (self && !bestSelf) || (self == bestSelf && (n > bestN || (n == bestN && o < best))) {
				best, bestN = o, n
			}
		}
		if best != 0 {
			return best
		}
	}
	for o := 1; o <= g.objects; o++ {
		if selfName(g.m.ObjectName(uint16(o))) {
			return uint16(o)
		}
	}
	return 0
}

// within reports whether object o is in object in, directly or inside
// at most depth-1 other objects (a player sitting in a vehicle, riding in
// a procession).
func (g *Game) within(o, in uint16, depth int) bool {
	for ; depth > 0 && o != 0; depth-- {
		p, _, _ := g.m.Object(o)
		if p == in {
			return true
		}
		o = p
	}
	return false
}

// selfName reports whether name is what a library calls the player object.
func selfName(name string) bool {
	switch name {
	case "(self object)", "yourself", "cretin":
		return true
	}
	return false
}

// statusRoom is the object that the status line names as the location, 0
// when the status line names no object (or several).
func (g *Game) statusRoom() uint16 {
	line := strings.TrimSpace(g.m.StatusLine())
	if line == "" {
		return 0
	}
	if i := strings.Index(line, "  "); i > 0 {
		line = line[:i]
	}
	found := uint16(0)
	for o := 1; o <= g.objects; o++ {
		if g.m.ObjectName(uint16(o)) == line {
			if found != 0 {
				return 0
			}
			found = uint16(o)
		}
	}
	return found
}

// countObjects works out how many objects the object table holds: the
// table runs up to the first object's property table, as in every known
// compiler's layout.
func countObjects(m *zmachine.Machine) int {
	table, _ := m.PeekWord(0x0a)
	defaults, size, propAt := uint32(31*2), uint32(9), uint32(7)
	max := 255
	if m.Version() > 3 {
		defaults, size, propAt, max = 63*2, 14, 12, 65535
	}
	first := uint32(table) + defaults
	lowest := uint32(0xffffffff)
	n := 0
	for a := first; a+size <= lowest && n < max; a += size {
		p, ok := m.PeekWord(a + propAt)
		if !ok || uint32(p) <= first {
			break
		}
		if uint32(p) < lowest {
			lowest = uint32(p)
		}
		n++
	}
	return n
}

// locationID returns the player's room and its name, in the order
// Map.visit takes them.
func (g *Game) locationID() (uint16, string) {
	name, id := g.Location()
	return id, name
}
