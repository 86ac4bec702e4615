package game

import (
	"strings"
)

// Map is the map of the world as the player has explored it: rooms are
// location objects (see Game.Location) and edges are the commands that moved
// the player from one room to another. Game.Step grows it; it travels with
// the game's State, so Save, Restore, Undo, Reset and Fork bring it along
// (a fork has its own copy, Reset takes it back to the start room).
//
// A Map that Game.Map returned does not change: later steps change the
// game's map, not the copy the caller holds.
//
// An exit is "tried" from a room once a direction command (north, ne, go
// up, ...) has been played there, whatever it did. A room is on the
// frontier while some compass direction that the game's dictionary holds
// (north, south, east, west, northeast, northwest, southeast, southwest, up,
// down, in, out, or their abbreviations) has not been tried from it.
type Map struct {
	order   []uint16
	rooms   map[uint16]*mapRoom
	current uint16
	dirs    []string // the compass directions that the game's dictionary holds
}

// Room is one explored location.
type Room struct {
	// ID is the room's object number, Name its short name.
	ID   uint16
	Name string
	// Exits are the commands seen to move the player out of the room, in
	// the order they were first seen.
	Exits []Exit
}

// Exit is one known edge of the map: Command, played in a room, took the
// player to room To, named ToName.
type Exit struct {
	Command string
	To      uint16
	ToName  string
}

type mapRoom struct {
	name  string
	exits []Exit
	tried map[string]bool // canonical directions tried from here
}

// Directions are the canonical compass directions that the map knows, in the
// order Frontier considers them.
var Directions = []string{"north", "south", "east", "west", "northeast", "northwest",
	"southeast", "southwest", "up", "down", "in", "out"}

var dirAbbrev = map[string]string{
	"n": "north", "s": "south", "e": "east", "w": "west",
	"ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest",
	"u": "up", "d": "down", "inside": "in", "outside": "out",
}

// CanonicalCommand normalises a command for the map: lower case, single
// spaces, and a direction command written as its full direction ("n",
// "go north", "walk n" all become "north").
func CanonicalCommand(cmd string) string {
	c := strings.ToLower(strings.Join(strings.Fields(cmd), " "))
	for _, verb := range []string{"go ", "walk ", "run "} {
		if rest, ok := strings.CutPrefix(c, verb); ok {
			if d, ok := direction(rest); ok {
				return d
			}
		}
	}
	if d, ok := direction(c); ok {
		return d
	}
	return c
}

// direction returns the canonical direction that word names.
func direction(word string) (string, bool) {
	if d, ok := dirAbbrev[word]; ok {
		return d, true
	}
	for _, d := range Directions {
		if word == d {
			return d, true
		}
	}
	return "", false
}

func newMap(dirs []string) *Map {
	return &Map{rooms: map[uint16]*mapRoom{}, dirs: dirs}
}

// clone copies the map deeply, so that the copy can change on its own.
func (m *Map) clone() *Map {
	c := &Map{
		order:   append([]uint16(nil), m.order...),
		rooms:   make(map[uint16]*mapRoom, len(m.rooms)),
		current: m.current,
		dirs:    m.dirs,
	}
	for id, r := range m.rooms {
		t := make(map[string]bool, len(r.tried))
		for k, v := range r.tried {
			t[k] = v
		}
		c.rooms[id] = &mapRoom{name: r.name, exits: append([]Exit(nil), r.exits...), tried: t}
	}
	return c
}

// visit records that the player is in room id, named name.
func (m *Map) visit(id uint16, name string) {
	if id == 0 {
		return
	}
	r, ok := m.rooms[id]
	if !ok {
		r = &mapRoom{tried: map[string]bool{}}
		m.rooms[id] = r
		m.order = append(m.order, id)
	}
	if name != "" {
		r.name = name
		// Keep the names on the exits that lead here up to date.
		for _, o := range m.rooms {
			for i := range o.exits {
				if o.exits[i].To == id {
					o.exits[i].ToName = name
				}
			}
		}
	}
	m.current = id
}

// record records that cmd, played in room from, left the player in room to.
func (m *Map) record(from uint16, cmd string, to uint16, toName string) {
	cmd = CanonicalCommand(cmd)
	if r, ok := m.rooms[from]; ok && from != 0 {
		if _, isDir := direction(cmd); isDir {
			r.tried[cmd] = true
		}
		if to != 0 && to != from {
			found := false
			for i := range r.exits {
				if r.exits[i].Command == cmd {
					r.exits[i].To, r.exits[i].ToName = to, toName
					found = true
					break
				}
			}
			if !found {
				r.exits = append(r.exits, Exit{Command: cmd, To: to, ToName: toName})
			}
		}
	}
	m.visit(to, toName)
}

// changes reports whether record(from, cmd, to, ...) would change the map.
func (m *Map) changes(from uint16, cmd string, to uint16, toName string) bool {
	if to != m.current {
		return true
	}
	r, ok := m.rooms[from]
	if !ok {
		return to != 0 && m.rooms[to] == nil
	}
	cmd = CanonicalCommand(cmd)
	if _, isDir := direction(cmd); isDir && !r.tried[cmd] {
		return true
	}
	return to != from || (toName != "" && toName != r.name)
}

// Rooms lists the explored rooms in the order they were first visited.
func (m *Map) Rooms() []Room {
	if m == nil {
		return nil
	}
	out := make([]Room, 0, len(m.order))
	for _, id := range m.order {
		r, _ := m.Room(id)
		out = append(out, r)
	}
	return out
}

// Room returns the explored room id.
func (m *Map) Room(id uint16) (Room, bool) {
	if m == nil {
		return Room{}, false
	}
	r, ok := m.rooms[id]
	if !ok {
		return Room{}, false
	}
	return Room{ID: id, Name: r.name, Exits: append([]Exit(nil), r.exits...)}, true
}

// Current is the room the player was in when the map was taken, 0 when
// unknown.
func (m *Map) Current() uint16 {
	if m == nil {
		return 0
	}
	return m.current
}

// Untried lists the compass directions that the game's dictionary holds and
// that have not been tried from room id (see Map).
func (m *Map) Untried(id uint16) []string {
	if m == nil {
		return nil
	}
	r, ok := m.rooms[id]
	if !ok {
		return nil
	}
	var out []string
	for _, d := range m.dirs {
		if !r.tried[d] {
			out = append(out, d)
		}
	}
	return out
}

// Frontier lists the rooms with untried exits (see Map), in the order they
// were first visited.
func (m *Map) Frontier() []uint16 {
	if m == nil {
		return nil
	}
	var out []uint16
	for _, id := range m.order {
		if len(m.Untried(id)) > 0 {
			out = append(out, id)
		}
	}
	return out
}

// Path returns the shortest sequence of commands over known exits that leads
// from room from to room to: empty when they are the same room, nil when no
// known path leads there.
func (m *Map) Path(from, to uint16) []string {
	if m == nil {
		return nil
	}
	if _, ok := m.rooms[from]; !ok {
		return nil
	}
	if from == to {
		return []string{}
	}
	type step struct {
		prev uint16
		cmd  string
	}
	seen := map[uint16]step{from: {}}
	queue := []uint16{from}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		r := m.rooms[id]
		if r == nil {
			continue
		}
		for _, e := range r.exits {
			if _, ok := seen[e.To]; ok {
				continue
			}
			seen[e.To] = step{prev: id, cmd: e.Command}
			if e.To == to {
				var path []string
				for at := to; at != from; at = seen[at].prev {
					path = append(path, seen[at].cmd)
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			queue = append(queue, e.To)
		}
	}
	return nil
}

// String writes the map as the get_map tool of the MCP server shows it:
//
//	Explored Locations and Exits:
//
//	* West of House
//	  -> north -> North of House
//
//	[Current] West of House
//
// A nil Map (a Glulx game's, see Game.Map) says the map is not available.
func (m *Map) String() string {
	if m == nil {
		return "The map is not available for Glulx stories yet."
	}
	var b strings.Builder
	b.WriteString("Explored Locations and Exits:\n")
	for _, id := range m.order {
		r := m.rooms[id]
		b.WriteString("\n* " + r.name + "\n")
		for _, e := range r.exits {
			b.WriteString("  -> " + e.Command + " -> " + e.ToName + "\n")
		}
	}
	cur := ""
	if r, ok := m.rooms[m.current]; ok {
		cur = r.name
	}
	b.WriteString("\n[Current] " + cur)
	return b.String()
}

// Map returns the map of the world explored so far. The Map returned does
// not change as the game goes on. For a Glulx story it is nil (rooms are
// not yet told apart by object, and two rooms of one name, a maze's,
// would be one): a nil Map has no rooms, and its String says the map is
// not available.
func (g *Game) Map() *Map {
	if g.gx != nil {
		return nil
	}
	g.mapShared = true
	return g.gmap
}

// updateMap records in the map the outcome of cmd, played in room from.
// The map is copied first when a State or a caller holds it.
func (g *Game) updateMap(from uint16, cmd string) {
	name, to := g.Location()
	if !g.gmap.changes(from, cmd, to, name) {
		return
	}
	if g.mapShared {
		g.gmap = g.gmap.clone()
		g.mapShared = false
	}
	g.gmap.record(from, cmd, to, name)
}

// dictionaryDirections lists the compass directions (see Directions) that
// the game's dictionary holds, by their full names or their abbreviations.
func (g *Game) dictionaryDirections() []string {
	var out []string
	for _, d := range Directions {
		if g.m.LookupWord(d) != 0 {
			out = append(out, d)
			continue
		}
		for abbr, full := range dirAbbrev {
			if full == d && g.m.LookupWord(abbr) != 0 {
				out = append(out, d)
				break
			}
		}
	}
	return out
}
