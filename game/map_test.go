package game

import (
	"slices"
	"strings"
	"testing"
)

func TestCanonicalCommand(t *testing.T) {
	for in, want := range map[string]string{
		"n": "north", "N": "north", "go north": "north", "Go  N": "north", "walk ne": "northeast",
		"Se": "southeast", "u": "up", "D": "down", "inside": "in", "north": "north",
		"Open  Window": "open window", "climb tree": "climb tree", "go away": "go away",
	} {
		if got := CanonicalCommand(in); got != want {
			t.Errorf("CanonicalCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

// roomID finds a room of the map by name.
func roomID(t *testing.T, m *Map, name string) uint16 {
	t.Helper()
	for _, r := range m.Rooms() {
		if r.Name == name {
			return r.ID
		}
	}
	t.Fatalf("no room %q on the map:\n%s", name, m)
	return 0
}

// walkPath plays path on a fork of g and returns the room it ends in.
func walkPath(t *testing.T, g *Game, path []string) string {
	t.Helper()
	f, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	play(t, f, path)
	name, _ := f.Location()
	return name
}

// TestMapZork1 walks the start of the Zork I walkthrough (seed 12) and
// checks the map it builds: rooms, edges, paths that work when played,
// the frontier, and the map's travels through Fork, Undo and Restore.
func TestMapZork1(t *testing.T) {
	g := openTest(t, "zork1.z3")
	start := g.Map()
	if len(start.Rooms()) != 1 || start.Rooms()[0].Name != "West of House" {
		t.Fatalf("map at the start: %v", start.Rooms())
	}
	cmds := walkthrough(t, "zork1.walkthrough.txt")
	// N N U Get egg D S E Open window W Open sack Get garlic W Get lamp E U ...
	// up to Move rug, in the Living Room.
	n := slices.Index(cmds, "Move rug")
	if n < 0 {
		t.Fatal("no Move rug in the walkthrough")
	}
	play(t, g, cmds[:n])
	// Then a way back round the house: Kitchen, Behind House, South of
	// House, West of House.
	play(t, g, []string{"east", "e", "go south", "w"})

	m := g.Map()
	var names []string
	for _, r := range m.Rooms() {
		names = append(names, r.Name)
	}
	want := []string{"West of House", "North of House", "Forest Path", "Up a Tree",
		"Behind House", "Kitchen", "Living Room", "Attic", "South of House"}
	if !equalStrings(names, want) {
		t.Errorf("rooms %q, want %q", names, want)
	}
	west, kitchen := roomID(t, m, "West of House"), roomID(t, m, "Kitchen")
	tree := roomID(t, m, "Up a Tree")
	if m.Current() != west {
		t.Errorf("current %d, want West of House %d", m.Current(), west)
	}
	r, _ := m.Room(roomID(t, m, "Forest Path"))
	if len(r.Exits) != 2 || r.Exits[0] != (Exit{"up", tree, "Up a Tree"}) || r.Exits[1].Command != "south" {
		t.Errorf("Forest Path exits %+v", r.Exits)
	}

	path := m.Path(kitchen, west)
	if !equalStrings(path, []string{"east", "south", "west"}) {
		t.Errorf("Path(Kitchen, West of House) = %q", path)
	}
	// Play it from the Kitchen, on a game restored to a state in the Kitchen.
	k, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	for name, _ := k.Location(); name != "Kitchen"; name, _ = k.Location() {
		if err := k.Undo(); err != nil {
			t.Fatalf("undoing back to the Kitchen: %v", err)
		}
	}
	if k.Map().Current() != kitchen {
		t.Errorf("after Undo the map's current room is %d, want the Kitchen %d", k.Map().Current(), kitchen)
	}
	if got := walkPath(t, k, path); got != "West of House" {
		t.Errorf("Path %q from the Kitchen ends in %q", path, got)
	}
	long := m.Path(tree, kitchen)
	if !equalStrings(long, []string{"down", "south", "east", "west"}) {
		t.Errorf("Path(Up a Tree, Kitchen) = %q", long)
	}
	if p := m.Path(kitchen, kitchen); p == nil || len(p) != 0 {
		t.Errorf("Path to the same room = %#v, want empty", p)
	}
	if p := m.Path(west, 9999); p != nil {
		t.Errorf("Path to an unknown room = %q", p)
	}

	// The frontier: Up a Tree had only "down" tried, so it is on it.
	if !slices.Contains(m.Frontier(), tree) {
		t.Errorf("Up a Tree not on the frontier %v", m.Frontier())
	}
	if u := m.Untried(tree); slices.Contains(u, "down") || !slices.Contains(u, "north") {
		t.Errorf("untried from Up a Tree: %q", u)
	}

	s := m.String()
	for _, line := range []string{"Explored Locations and Exits:\n", "\n* Forest Path\n  -> up -> Up a Tree\n  -> south -> North of House\n",
		"\n* Kitchen\n  -> west -> Living Room\n", "\n[Current] West of House"} {
		if !strings.Contains(s, line) {
			t.Errorf("map text lacks %q:\n%s", line, s)
		}
	}
	if !strings.HasSuffix(s, "[Current] West of House") {
		t.Errorf("map text ends %q", s[len(s)-40:])
	}

	// A map taken earlier does not change; a fork has its own map.
	if len(start.Rooms()) != 1 {
		t.Errorf("the start map grew to %d rooms", len(start.Rooms()))
	}
	f, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	saved := g.Save()
	play(t, f, []string{"south", "east"}) // West of House south -> South of House, east -> Behind House
	if f.Map().Path(west, roomID(t, f.Map(), "Behind House")) == nil {
		t.Errorf("fork's map lacks its own walk:\n%s", f.Map())
	}
	if g.Map().String() != s {
		t.Errorf("the fork's walk changed the game's map:\n%s", g.Map())
	}
	play(t, g, []string{"south"})
	if g.Map().Current() == west {
		t.Error("after south the map still says West of House")
	}
	if err := g.Restore(saved); err != nil {
		t.Fatal(err)
	}
	if g.Map().String() != s {
		t.Errorf("Restore did not bring the map back:\n%s", g.Map())
	}
	play(t, g, []string{"north"})
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Map().String() != s {
		t.Errorf("Undo did not bring the map back:\n%s", g.Map())
	}
	if _, err := g.Reset(); err != nil {
		t.Fatal(err)
	}
	if len(g.Map().Rooms()) != 1 {
		t.Errorf("after Reset the map has %d rooms", len(g.Map().Rooms()))
	}
}
