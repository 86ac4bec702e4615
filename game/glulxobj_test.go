package game

import (
	"encoding/binary"
	"slices"
	"testing"
)

// names lists the objects' names.
func names(objs []Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Name)
	}
	return out
}

// An Inform 6 Glulx game's object tree is read from RAM: the player
// starts at the end of the road carrying nothing, the room is an object
// of the tree, and what the player takes is in the inventory, in tree
// order, until undone.
func TestGlulxObjectsInform6(t *testing.T) {
	g := openGlulxTest(t, "Advent-i641.ulx")
	p := g.Player()
	if p == 0 || g.Object(p).Name != "(self object)" {
		t.Fatalf("player %d %+v", p, g.Object(p))
	}
	name, id := g.Location()
	if name != "At End Of Road" || id == 0 || g.Object(id).Name != "At End Of Road" || g.Object(p).Parent != id {
		t.Fatalf("start: %q %d %+v", name, id, g.Object(id))
	}
	if inv := g.Inventory(); len(inv) != 0 {
		t.Fatalf("start inventory: %v", names(inv))
	}
	objs := g.WorldObjects()
	if len(objs) < 200 || objs[0].Name != "Class" || objs[0].ID != 1 {
		t.Fatalf("objects: %d, first %+v", len(objs), objs[0])
	}
	if r := g.Report(); r.Player != p || r.PlayerName != "(self object)" || r.Objects != len(objs) {
		t.Errorf("report: player %d %q, %d objects", r.Player, r.PlayerName, r.Objects)
	}
	for _, cmd := range []string{"in", "take lamp", "take keys"} {
		if _, err := g.Step(cmd); err != nil {
			t.Fatal(err)
		}
	}
	in := g.Info()
	if in.Location != "Inside Building" || in.LocationID == 0 || in.LocationID == id || g.Object(in.LocationID).Name != "Inside Building" {
		t.Errorf("inside: %+v", in)
	}
	if got := names(g.Inventory()); !slices.Equal(got, []string{"set of keys", "brass lantern"}) {
		t.Errorf("inventory: %q", got)
	}
	for _, o := range g.Inventory() {
		if o.Parent != p {
			t.Errorf("%+v: parent is not the player %d", o, p)
		}
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := names(g.Inventory()); !slices.Equal(got, []string{"brass lantern"}) {
		t.Errorf("inventory after undo: %q", got)
	}
}

// An Inform 7 game's tree is read too: Inform 7 gives most objects no
// hardware name, so the player is found by the globals that hold it (the
// library's player) and its room by the globals that hold that
// (location); the names are the printed names of Inform 7's short_name
// property where it is found (not in TextWorld's games); a taken object
// is the player's child, a dropped one the room's.
func TestGlulxObjectsInform7(t *testing.T) {
	g := openGlulxTest(t, "tw-cooking-hard-68kvf8x7TBd9Iq0P.ulx")
	p := g.Player()
	name, id := g.Location()
	if p == 0 || id == 0 || name != "-= Bedroom =-" || g.Object(p).Parent != id || g.Info().LocationID != id {
		t.Fatalf("start: player %d, room %q %d", p, name, id)
	}
	if _, err := g.Step("s"); err != nil {
		t.Fatal(err)
	}
	if in := g.Info(); in.Location != "-= Corridor =-" || in.LocationID == 0 || in.LocationID == id || g.Object(p).Parent != in.LocationID {
		t.Errorf("after s: %+v", in)
	}

	d := openGlulxTest(t, "The_Dungeon.gblorb")
	p = d.Player()
	_, room := d.Location()
	if p == 0 || room == 0 || len(d.Inventory()) != 0 || d.Object(p).Name != "yourself" || d.Object(room).Name != "pit" {
		t.Fatalf("start: player %d, room %d, inventory %+v", p, room, d.Inventory())
	}
	if _, err := d.Step("take torch"); err != nil {
		t.Fatal(err)
	}
	inv := d.Inventory()
	if len(inv) != 1 || inv[0].Parent != p || inv[0].Name != "torch" {
		t.Fatalf("after take torch: %+v", inv)
	}
	torch := inv[0].ID
	if _, err := d.Step("drop torch"); err != nil {
		t.Fatal(err)
	}
	if len(d.Inventory()) != 0 || d.Object(torch).Parent != room {
		t.Errorf("after drop torch: %+v, torch %+v", d.Inventory(), d.Object(torch))
	}
}

// A story not compiled by Inform has no object list: no player, no
// inventory, no room number, and no objects.
func TestGlulxObjectsNotInform(t *testing.T) {
	g := openGlulxTest(t, "model.ulx")
	if _, id := g.Location(); g.Player() != 0 || id != 0 || g.Inventory() != nil || g.WorldObjects() != nil {
		t.Errorf("player %d, room %d, objects %d", g.Player(), id, len(g.WorldObjects()))
	}
}

// Toyshop starts the player on a high chair in the room, with a car
// parked there that a global also holds: the player is the library's
// selfobj, the room the one holding the chair, the satchel carried.
func TestGlulxObjectsToyshop(t *testing.T) {
	g := openGlulxTest(t, "toyshop.ulx")
	p := g.Player()
	name, id := g.Location()
	if g.Object(p).Name != "(self object)" || name != "Toyshop" || g.Object(id).Name != "Toyshop" || g.Object(p).Parent == id {
		t.Fatalf("player %+v, room %q %+v", g.Object(p), name, g.Object(id))
	}
	if got := names(g.Inventory()); !slices.Equal(got, []string{"your satchel"}) && !slices.Equal(got, []string{"satchel"}) {
		t.Errorf("inventory: %q", got)
	}
	if in := g.Info(); in.Container != "high chair" || in.ContainerID != g.Object(p).Parent || in.LocationID != id {
		t.Errorf("on the chair: %+v", in)
	}
	if _, err := g.Step("exit"); err != nil {
		t.Fatal(err)
	}
	if in := g.Info(); in.Container != "" || in.ContainerID != 0 || in.LocationID != id || g.Object(p).Parent != id {
		t.Errorf("off the chair: %+v", in)
	}
}

// fakeObjects lays out n Glulx objects of 7 attribute bytes from ramStart
// in a memory, the first named "Class" (an unencoded string after them),
// each linked to the next.
func fakeObjects(n int) ([]byte, uint32) {
	const ramStart, size = 0x100, 32
	mem := make([]byte, ramStart+n*size+16)
	name := uint32(ramStart + n*size)
	copy(mem[name:], "\xe0Class\x00")
	for i := range n {
		a := uint32(ramStart + i*size)
		mem[a] = 0x70
		if i+1 < n {
			binary.BigEndian.PutUint32(mem[a+8:], a+size)
		}
		binary.BigEndian.PutUint32(mem[a+12:], name)
	}
	return mem, ramStart
}

// A made-up object list is found as it is laid out; one whose links loop
// back or point at no object is no tree at all, never a wrong one.
func TestGlulxTreeHostile(t *testing.T) {
	mem, ram := fakeObjects(6)
	if tr := findGlulxTree(mem, ram, 0); len(tr.addrs) != 6 || tr.attrBytes != 7 || tr.names[0] != "Class" {
		t.Fatalf("sound list: %d objects, %d attribute bytes", len(tr.addrs), tr.attrBytes)
	}
	loop, _ := fakeObjects(6)
	binary.BigEndian.PutUint32(loop[ram+5*32+8:], ram) // the last links back to the first
	if tr := findGlulxTree(loop, ram, 0); len(tr.addrs) != 0 {
		t.Errorf("looping list taken: %d objects", len(tr.addrs))
	}
	bad, _ := fakeObjects(6)
	binary.BigEndian.PutUint32(bad[ram+2*32+20:], 0xdead) // a parent that is no object
	if tr := findGlulxTree(bad, ram, 0); len(tr.addrs) != 0 || tr.why == "" {
		t.Errorf("list with a bad link taken: %d objects", len(tr.addrs))
	}
	cut, _ := fakeObjects(6)
	if tr := findGlulxTree(cut[:ram+3*32+4], ram, 0); len(tr.addrs) != 0 {
		t.Errorf("list cut short taken: %d objects", len(tr.addrs))
	}
}

// Any memory is safe to search for an object list and to read strings
// and names from: no panic, and a list found holds only sound links.
func FuzzGlulxTree(f *testing.F) {
	mem, _ := fakeObjects(6)
	f.Add(mem, uint32(0x100), uint32(0))
	// A decoding table whose root is a branch to a character and the end.
	tab := []byte{0, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0, 12, 0x00, 0, 0, 0, 21, 0, 0, 0, 23, 0, 0, 0, 0, 0x02, 'x', 0x01, 0xE1, 0x02, 0xE1, 0xFF}
	f.Add(tab, uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, mem []byte, ramStart, table uint32) {
		if len(mem) > 1<<16 {
			return
		}
		for a := uint32(0); a < uint32(len(mem)); a++ {
			glulxStringAt(mem, table, a)
			glulxText(mem, table, a)
		}
		tr := findGlulxTree(mem, ramStart, table)
		tr.findNameProp(mem, table, "Room")
		for _, a := range tr.addrs {
			for off := uint32(13); off <= 21; off += 4 {
				v := binary.BigEndian.Uint32(mem[a+tr.attrBytes+off:])
				if _, ok := tr.index[v]; v != 0 && !ok {
					t.Fatalf("object %#x links to %#x, no object", a, v)
				}
			}
		}
	})
}

// A compressed string is decoded through the story's decoding table.
func TestGlulxStringCompressed(t *testing.T) {
	// Table at 4: length, nodes, root 16: a branch (bit 0 to the 'x' node
	// at 25, bit 1 to the end node at 27).
	mem := []byte{0, 0, 0, 0,
		0, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0, 16, 0x00, 0, 0, 0, 25, 0, 0, 0, 27, 0x02, 'x', 0x01,
		0xE1, 0b100, // bits, lowest first: 0 ('x'), 0 ('x'), 1 (end)
		0xE0, 'h', 'i', 0}
	if s := glulxStringAt(mem, 4, 28); s != "xx" {
		t.Errorf("compressed: %q", s)
	}
	if s := glulxStringAt(mem, 4, 30); s != "hi" {
		t.Errorf("plain: %q", s)
	}
	if s := glulxStringAt(mem, 4, 0x70); s != "" {
		t.Errorf("no string: %q", s)
	}
}
