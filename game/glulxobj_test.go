package game

import (
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

// An Inform 7 game's tree is read too: Inform 7 gives its objects no
// hardware names, so the player is found by the globals that hold it
// (the library's player) and its room by the globals that hold that
// (location); a taken object is the player's child.
func TestGlulxObjectsInform7(t *testing.T) {
	g := openGlulxTest(t, "tw-cooking-hard-68kvf8x7TBd9Iq0P.ulx")
	p := g.Player()
	name, id := g.Location()
	if p == 0 || id == 0 || name != "-= Bedroom =-" || g.Object(p).Parent != id {
		t.Fatalf("start: player %d, room %q %d", p, name, id)
	}
	if inv := g.Inventory(); len(inv) != 0 {
		t.Fatalf("start inventory: %+v", inv)
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
