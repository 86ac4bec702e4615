package game

import (
	"encoding/binary"
	"strings"
)

// The Inform object tree of a Glulx story, read from RAM. The layout is
// the Inform 6 compiler's (its header.h, GOBJFIELD_CHAIN() to
// GOBJFIELD_CHILD(): word offsets 1+NUM_ATTR_BYTES/4 to
// 6+NUM_ATTR_BYTES/4 of the object record): an
// object is a type byte 0x70, NUM_ATTR_BYTES attribute bytes (7 unless
// the game says otherwise), then six words: the next object in the
// object list, the hardware name (a string address), the property table
// address, the parent, the sibling and the child. Attribute n is bit
// n%8 (the lowest bit first) of attribute byte n/8. Inform lays out the
// object list with its four metaclass objects first: Class, Object,
// Routine and String.

// glulxTree is the object list of a Glulx story: fixed in RAM for the
// whole game (Inform creates no objects at run time), so found once per
// story.
type glulxTree struct {
	addrs     []uint32          // object n is addrs[n-1]
	index     map[uint32]uint16 // address to object number
	names     []string          // hardware names, decoded once
	attrBytes uint32
	// self is the library's selfobj by its hardware name ("(self
	// object)" in Inform 6, "(selfobj)" in Inform 7 10, "yourself"), 0
	// when not one object.
	self uint16
	// playerAt are the addresses of the globals (the library's player
	// and actor) that held the player at the start, roomAt those that
	// held its room (location, real_location): see findGlulxPlayer.
	playerAt, roomAt []uint32
	player, room     uint16 // the player and its room at the start
	// nameProp is the property that holds an object's printed name when
	// its hardware name is empty (Inform 7's short_name), 0 when not
	// found: see findNameProp.
	nameProp, nameKind uint32
	why                string // why there is no tree, when addrs is empty
}

const (
	glulxObjType     = 0x70
	glulxMaxObjects  = 65535 // game.Object numbers are uint16
	glulxMaxAttrByte = 64
)

// findGlulxTree finds the object list in mem (the machine's memory at the
// start) between ramStart and the end: the longest chain of 0x70
// structures, all of one size, whose next words link up and whose links
// and names are sound, and whose first object is the metaclass Class. A
// chain not found, or two of the same length, is no tree.
func findGlulxTree(mem []byte, ramStart, table uint32) *glulxTree {
	r4 := func(a uint32) (uint32, bool) {
		if uint64(a)+4 > uint64(len(mem)) {
			return 0, false
		}
		return binary.BigEndian.Uint32(mem[a:]), true
	}
	isObj := func(a, n uint32) bool {
		return a >= ramStart && uint64(a)+uint64(n)+25 <= uint64(len(mem)) && mem[a] == glulxObjType
	}
	// chain walks the list from a with n attribute bytes.
	chain := func(a, n uint32) []uint32 {
		var out []uint32
		for a != 0 && len(out) <= glulxMaxObjects {
			if !isObj(a, n) {
				return nil
			}
			out = append(out, a)
			next, _ := r4(a + 1 + n)
			if next != 0 && next <= a {
				return nil // the list runs forward; a loop is no list
			}
			a = next
		}
		if len(out) > glulxMaxObjects {
			return nil
		}
		return out
	}
	var best []uint32
	var bestN uint32
	tie := false
	for a := ramStart; int(a) < len(mem); a++ {
		if mem[a] != glulxObjType {
			continue
		}
		for n := uint32(1); n <= glulxMaxAttrByte; n++ {
			next, ok := r4(a + 1 + n)
			if !ok || next <= a || !isObj(next, n) {
				continue
			}
			if name, _ := r4(a + 5 + n); glulxStringAt(mem, table, name) != "Class" {
				continue
			}
			c := chain(a, n)
			switch {
			case len(c) > len(best):
				best, bestN, tie = c, n, false
			case len(c) == len(best) && len(c) > 0:
				tie = true
			}
		}
	}
	t := &glulxTree{attrBytes: bestN}
	if len(best) < 4 || tie {
		t.why = "no Inform object list found in RAM"
		if tie {
			t.why = "two Inform object lists found in RAM"
		}
		return t
	}
	index := make(map[uint32]uint16, len(best))
	for i, a := range best {
		index[a] = uint16(i + 1)
	}
	// Every link of every object is none or an object of the list.
	for _, a := range best {
		for off := uint32(13); off <= 21; off += 4 {
			v, _ := r4(a + bestN + off)
			if _, ok := index[v]; v != 0 && !ok {
				t.why = "the object list found in RAM has a tree link to no object"
				return t
			}
		}
	}
	t.addrs, t.index = best, index
	t.names = make([]string, len(best))
	selves := 0
	for i, a := range best {
		name, _ := r4(a + 5 + bestN)
		t.names[i] = glulxStringAt(mem, table, name)
		if selfName(t.names[i]) || t.names[i] == "(selfobj)" {
			selves++
			t.self = uint16(i + 1)
		}
	}
	if selves != 1 {
		t.self = 0 // none, or two: not known
	}
	t.findGlulxPlayer(mem, ramStart)
	return t
}

// findGlulxPlayer finds the globals that hold the player and its room in
// mem, the memory at the start of the game: the words at the start of
// RAM (where Inform puts its globals) that hold an object in play that
// sits in a room (an object without a parent) some other global holds.
// The player is the library's selfobj when a global holds it and it is
// in play (in a room, or in something there: Toyshop's high chair), else
// the one such object; none when that does not settle it.
func (t *glulxTree) findGlulxPlayer(mem []byte, ramStart uint32) {
	parent := func(o uint16) uint16 {
		a := t.addrs[o-1] + t.attrBytes + 13
		return t.index[binary.BigEndian.Uint32(mem[a:])]
	}
	end := min(uint64(ramStart)+glulxGlobalsSpan, uint64(len(mem)))
	held := map[uint16][]uint32{}
	for a := ramStart; uint64(a)+4 <= end; a += 4 {
		if o := t.index[binary.BigEndian.Uint32(mem[a:])]; o != 0 {
			held[o] = append(held[o], a)
		}
	}
	var cands []uint16
	for o := range held {
		if p := parent(o); p != 0 && parent(p) == 0 && len(held[p]) > 0 {
			cands = append(cands, o)
		}
	}
	player := uint16(0)
	switch {
	case t.self != 0 && len(held[t.self]) > 0 && parent(t.self) != 0:
		player = t.self
	case len(cands) == 1:
		player = cands[0]
	default:
		return
	}
	room := parent(player)
	for steps := 0; steps < len(t.addrs) && parent(room) != 0; steps++ {
		room = parent(room)
	}
	t.playerAt, t.roomAt = held[player], held[room]
	t.player, t.room = player, room
}

// glulxMaxProps bounds the entries of one property table read.
const glulxMaxProps = 1024

// glulxProp is the first word of property id of the object at a (0 and
// false when it has none): the property table is a word count, then
// entries of 10 bytes: the id (2 bytes), the length in words (2), the
// address of the value (4) and flags (2).
func glulxProp(mem []byte, attrBytes, a, id uint32) (uint32, bool) {
	r := func(a, n uint32) (uint32, bool) {
		if uint64(a)+uint64(n) > uint64(len(mem)) {
			return 0, false
		}
		if n == 2 {
			return uint32(binary.BigEndian.Uint16(mem[a:])), true
		}
		return binary.BigEndian.Uint32(mem[a:]), true
	}
	table, ok := r(a+attrBytes+9, 4)
	if !ok {
		return 0, false
	}
	n, ok := r(table, 4)
	if !ok {
		return 0, false
	}
	for i := range min(n, glulxMaxProps) {
		e := table + 4 + i*10
		pid, ok1 := r(e, 2)
		plen, ok2 := r(e+2, 2)
		addr, ok3 := r(e+4, 4)
		if !ok1 || !ok2 || !ok3 {
			return 0, false
		}
		if pid == id {
			if plen == 0 {
				return 0, false
			}
			return r(addr, 4)
		}
	}
	return 0, false
}

// glulxText decodes a text value v of Inform: a string, or (Inform 7
// from 6M62) the address of a two-word constant text, its storage kind
// then the string; kind is that storage kind, 0 for a plain string.
// ok is false for a value that is neither.
func glulxText(mem []byte, table, v uint32) (text string, kind uint32, ok bool) {
	if uint64(v) >= uint64(len(mem)) || v == 0 {
		return "", 0, false
	}
	if t := mem[v]; t >= 0xE0 && t <= 0xE2 {
		s := glulxStringAt(mem, table, v)
		return s, 0, s != ""
	}
	if uint64(v)+8 > uint64(len(mem)) {
		return "", 0, false
	}
	kind = binary.BigEndian.Uint32(mem[v:])
	s := glulxStringAt(mem, table, binary.BigEndian.Uint32(mem[v+4:]))
	return s, kind, kind != 0 && s != ""
}

// findNameProp finds the property that holds the printed names of
// objects without a hardware name (Inform 7's short_name, whose number
// the compiler picks): the property of the player whose text is
// "yourself" (Inform 7's name of the player) and of its room whose text
// is the room's name in the status window (label; TextWorld's "-= Room
// =-" without its marks), the one both agree on. None, or two, leave
// names unknown.
func (t *glulxTree) findNameProp(mem []byte, table uint32, label string) {
	if t.player == 0 {
		return
	}
	label = strings.TrimSpace(label)
	if strings.HasPrefix(label, "-= ") && strings.HasSuffix(label, " =-") {
		label = strings.TrimSuffix(strings.TrimPrefix(label, "-= "), " =-")
	}
	type prop struct{ id, kind uint32 }
	var sets []map[prop]bool
	for _, c := range []struct {
		o    uint16
		want string
	}{{t.player, "yourself"}, {t.room, label}} {
		if c.o == 0 || c.want == "" || t.names[c.o-1] != "" {
			continue
		}
		found := map[prop]bool{}
		a := t.addrs[c.o-1]
		ptable := binary.BigEndian.Uint32(mem[a+t.attrBytes+9:])
		n := uint32(0)
		if uint64(ptable)+4 <= uint64(len(mem)) {
			n = binary.BigEndian.Uint32(mem[ptable:])
		}
		for i := range min(n, glulxMaxProps) {
			e := ptable + 4 + i*10
			if uint64(e)+2 > uint64(len(mem)) {
				break
			}
			id := uint32(binary.BigEndian.Uint16(mem[e:]))
			v, ok := glulxProp(mem, t.attrBytes, a, id)
			if !ok {
				continue
			}
			if s, kind, ok := glulxText(mem, table, v); ok && strings.EqualFold(s, c.want) {
				found[prop{id, kind}] = true
			}
		}
		sets = append(sets, found)
	}
	if len(sets) == 0 {
		return
	}
	both := sets[0]
	for _, s := range sets[1:] {
		for p := range both {
			if !s[p] {
				delete(both, p)
			}
		}
	}
	if len(both) == 1 {
		for p := range both {
			t.nameProp, t.nameKind = p.id, p.kind
		}
	}
}

// glulxMaxName bounds a decoded hardware name.
const glulxMaxName = 256

// glulxStringAt decodes the string at addr, "" when it is none or cannot
// be decoded without running code (an indirect reference in the
// decoding table): an unencoded string (0xE0), a compressed one (0xE1)
// through the decoding table at table, or a Unicode one (0xE2).
func glulxStringAt(mem []byte, table, addr uint32) string {
	at := func(a uint32) (byte, bool) {
		if uint64(a) >= uint64(len(mem)) {
			return 0, false
		}
		return mem[a], true
	}
	r4 := func(a uint32) (uint32, bool) {
		if uint64(a)+4 > uint64(len(mem)) {
			return 0, false
		}
		return binary.BigEndian.Uint32(mem[a:]), true
	}
	typ, ok := at(addr)
	if !ok || addr == 0 {
		return ""
	}
	var b strings.Builder
	switch typ {
	case 0xE0:
		for a := addr + 1; b.Len() < glulxMaxName; a++ {
			c, ok := at(a)
			if !ok {
				return ""
			}
			if c == 0 {
				return b.String()
			}
			b.WriteRune(rune(c)) // Latin-1
		}
		return ""
	case 0xE2:
		for a := addr + 4; b.Len() < glulxMaxName; a += 4 {
			c, ok := r4(a)
			if !ok {
				return ""
			}
			if c == 0 {
				return b.String()
			}
			b.WriteRune(rune(c))
		}
		return ""
	case 0xE1:
	default:
		return ""
	}
	root, ok := r4(table + 8)
	if !ok || table == 0 {
		return ""
	}
	a, bit := addr+1, uint32(0)
	node := root
	for steps := 0; steps < 64*glulxMaxName && b.Len() < glulxMaxName; steps++ {
		t, ok := at(node)
		if !ok {
			return ""
		}
		switch t {
		case 0x00: // branch: the next bit picks the child
			c, ok := at(a)
			if !ok {
				return ""
			}
			off := uint32(1)
			if c>>bit&1 != 0 {
				off = 5
			}
			if node, ok = r4(node + off); !ok {
				return ""
			}
			if bit++; bit == 8 {
				bit, a = 0, a+1
			}
			continue
		case 0x01: // the end
			return b.String()
		case 0x02:
			c, ok := at(node + 1)
			if !ok {
				return ""
			}
			b.WriteRune(rune(c))
		case 0x04:
			c, ok := r4(node + 1)
			if !ok {
				return ""
			}
			b.WriteRune(rune(c))
		case 0x03:
			for p := node + 1; ; p++ {
				c, ok := at(p)
				if !ok || b.Len() >= glulxMaxName {
					return ""
				}
				if c == 0 {
					break
				}
				b.WriteRune(rune(c))
			}
		default: // a Unicode string or an indirect reference: not decoded here
			return ""
		}
		node = root
	}
	return ""
}

// glulxTreeOf is the story's object tree, found from m's memory the first
// time it is asked for (label gives the room the status window names
// then).
func (s *GlulxStory) glulxTreeOf(mem []byte, ramStart, table uint32, label func() string) *glulxTree {
	s.treeOnce.Do(func() {
		s.tree = findGlulxTree(mem, ramStart, table)
		if len(s.tree.addrs) > 0 {
			s.tree.findNameProp(mem, table, label())
		}
	})
	return s.tree
}

// glulxTree is the game's object tree, nil when the story has none found.
func (g *Game) glulxTree() *glulxTree {
	vm := g.gx.m.VM()
	h := vm.Header()
	t := g.gx.story.glulxTreeOf(vm.Mem(), h.RAMStart, h.StringTable, func() string {
		return parseStatus(g.gx.m.StatusLine()).location
	})
	if len(t.addrs) == 0 {
		return nil
	}
	return t
}

// glulxObject is object o of a Glulx game as its tree holds it now.
func (g *Game) glulxObject(o uint16) Object {
	t := g.glulxTree()
	if t == nil || o == 0 || int(o) > len(t.addrs) {
		return Object{ID: o}
	}
	mem := g.gx.m.VM().Mem()
	a := t.addrs[o-1]
	if uint64(a)+uint64(t.attrBytes)+25 > uint64(len(mem)) {
		return Object{ID: o}
	}
	link := func(off uint32) uint16 {
		return t.index[binary.BigEndian.Uint32(mem[a+t.attrBytes+off:])]
	}
	obj := Object{ID: o, Name: t.names[o-1], Parent: link(13), Sibling: link(17), Child: link(21)}
	if obj.Name == "" && t.nameProp != 0 {
		// Inform 7's printed name, read now: a story can change it.
		if v, ok := glulxProp(mem, t.attrBytes, a, t.nameProp); ok {
			if s, kind, ok := glulxText(mem, g.gx.m.VM().Header().StringTable, v); ok && kind == t.nameKind {
				obj.Name = s
			}
		}
	}
	for n := 0; n < int(t.attrBytes)*8; n++ {
		if mem[a+1+uint32(n/8)]>>(n%8)&1 != 0 {
			obj.Attributes = append(obj.Attributes, n)
		}
	}
	return obj
}

// glulxGlobal is the object that the globals at addrs all hold now, 0
// when they hold none or do not agree.
func (g *Game) glulxGlobal(t *glulxTree, addrs []uint32) uint16 {
	o := uint16(0)
	for i, a := range addrs {
		v, err := g.gx.m.VM().Load32(a)
		if err != nil {
			return 0
		}
		n := t.index[v]
		if n == 0 || (i > 0 && n != o) {
			return 0
		}
		o = n
	}
	return o
}

// glulxPlayer is the player object of a Glulx game, 0 when unknown: the
// object the library's player globals hold (all of them alike), while it
// is in play (it has a parent).
func (g *Game) glulxPlayer() uint16 {
	t := g.glulxTree()
	if t == nil {
		return 0
	}
	p := g.glulxGlobal(t, t.playerAt)
	if p == 0 || g.glulxObject(p).Parent == 0 {
		return 0
	}
	return p
}

// glulxRoom is the object number of the room the player is in, 0 when
// unknown: the outermost object holding the player, taken only when its
// name is the room the status window names (label) or a global that held
// the room at the start (the library's location, real_location) holds
// it now, so that a player found wrong is in no room at all.
func (g *Game) glulxRoom(label string) uint16 {
	p := g.glulxPlayer()
	if p == 0 || label == "" {
		return 0
	}
	t := g.glulxTree()
	room := g.glulxObject(p).Parent
	for steps := 0; steps < len(t.addrs); steps++ {
		up := g.glulxObject(room).Parent
		if up == 0 {
			break
		}
		room = up
	}
	if strings.EqualFold(strings.TrimSpace(t.names[room-1]), strings.TrimSpace(label)) {
		return room
	}
	for _, a := range t.roomAt {
		if v, err := g.gx.m.VM().Load32(a); err == nil && t.index[v] == room {
			return room
		}
	}
	return 0
}

// glulxContainer is Container for a Glulx game.
func (g *Game) glulxContainer() (string, uint16) {
	_, room := g.Location()
	p := g.glulxPlayer()
	if p == 0 || room == 0 {
		return "", 0
	}
	in := g.glulxObject(p).Parent
	if in == room {
		return "", 0
	}
	name := g.glulxObject(in).Name
	if !knownName(name) {
		return "", 0
	}
	return name, in
}

// glulxChildren lists the children of o in tree order.
func (g *Game) glulxChildren(o uint16) []Object {
	t := g.glulxTree()
	if t == nil {
		return nil
	}
	var out []Object
	c := g.glulxObject(o).Child
	for steps := 0; c != 0 && steps < len(t.addrs); steps++ {
		obj := g.glulxObject(c)
		out = append(out, obj)
		c = obj.Sibling
	}
	return out
}
