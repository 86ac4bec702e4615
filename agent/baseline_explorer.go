package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/mcp"
)

// ExplorerPolicy explores the world breadth first, as a careful player
// with a map would. At each step it asks the game for its map (get_map's
// structured rooms) and its valid actions, and plays the first of:
//
//  0. in the dark (the last reply says it is pitch dark), a light ("light
//     lantern", "turn on lamp") if one is at hand, else the move into the
//     dark taken back (undo, where the server has it), else the way back;
//  1. a light, or something to take, in the current room: the dark may lie
//     ahead, and things carried open ways later;
//  2. an exit of the current room not tried yet: a direction that is a
//     valid action here (so it goes somewhere) and that the map lists as
//     untried, or a movement command ("enter window", "climb tree");
//  3. a command not tried yet that may open the way: open, unlock, move,
//     push, pull, lift, turn;
//  4. the first step of the shortest known path to the nearest room that
//     still has exits or such commands to try (the frontier);
//  5. with no frontier in reach, a valid action not tried yet, verbs that
//     scored or changed the room before first;
//  6. a valid direction at random (wandering), else a random valid action,
//     else a random direction.
//
// It never chooses, except at random, verbs that rarely explore and may
// end or break the game (jump, attack, eat, drop, put, give, turn off, ...).
// Among equals it chooses with its own random source, so the same seed
// (and the same game seed) plays the same trajectory. Each Action's
// Thought names the rule ("explore:", "frontier:", "dark:", "wander:",
// "random:") and says why. An exit that did not move the player is not
// walked again.
//
// Without valid actions (a server with no valid_actions tool, or an agent
// given only the four default tools) it tries every direction that the
// map lists as untried; without structured rooms in get_map it explores
// where it stands and does not walk. Reset forgets what it learnt.
type ExplorerPolicy struct {
	seed int64
	rng  policyRand

	tried   map[int]map[string]bool // room -> canonical commands played there
	tried1  map[string]bool         // canonical commands other than moves played anywhere
	valid   map[int][]string        // room -> valid actions last seen there
	blocked map[explorerExit]bool   // exits that did not move the player
	dark    map[int]bool            // rooms left for want of a light
	darkWay map[explorerExit]bool   // exits into the dark, taken back by undo
	gain    map[string]int          // verb -> how often it scored or changed the room
	blind   bool                    // no valid actions to go by: try the map's untried directions
	last    *explorerMove
}

// explorerExit is a command played in a room.
type explorerExit struct {
	room int
	cmd  string
}

// explorerMove is what the explorer remembers of its last action, to
// learn from its outcome at the next step.
type explorerMove struct {
	cmd   string
	kind  string // "exit", "opener", "walk", "try", "random"
	room  int
	score int
	dirs  int // valid directions in the room before the action
}

// NewExplorer returns an ExplorerPolicy seeded with seed.
func NewExplorer(seed int64) *ExplorerPolicy {
	p := &ExplorerPolicy{seed: seed}
	p.Reset()
	return p
}

// Name is "explorer".
func (p *ExplorerPolicy) Name() string { return "explorer" }

// Reset forgets everything learnt, for a new episode.
func (p *ExplorerPolicy) Reset() {
	p.rng = newRand(p.seed)
	p.tried = map[int]map[string]bool{}
	p.tried1 = map[string]bool{}
	p.valid = map[int][]string{}
	p.blocked = map[explorerExit]bool{}
	p.dark = map[int]bool{}
	p.darkWay = map[explorerExit]bool{}
	p.gain = map[string]int{}
	p.last = nil
}

// Clone returns a copy of the policy that knows what p knows (tried
// commands, blocked and dark exits, what paid) and draws the same random
// numbers from here on, each from its own source: the copy and p then
// learn apart.
func (p *ExplorerPolicy) Clone() Policy {
	c := *p
	c.rng = p.rng.clone()
	c.tried = make(map[int]map[string]bool, len(p.tried))
	for id, cmds := range p.tried {
		c.tried[id] = maps.Clone(cmds)
	}
	c.tried1 = maps.Clone(p.tried1)
	c.valid = make(map[int][]string, len(p.valid))
	for id, acts := range p.valid {
		c.valid[id] = slices.Clone(acts)
	}
	c.blocked = maps.Clone(p.blocked)
	c.dark = maps.Clone(p.dark)
	c.darkWay = maps.Clone(p.darkWay)
	c.gain = maps.Clone(p.gain)
	if p.last != nil {
		last := *p.last
		c.last = &last
	}
	return &c
}

// Verbs by what the explorer expects of them.
var (
	// explorerMoveVerbs take the player somewhere, like a direction.
	explorerMoveVerbs = []string{"enter", "climb", "board", "cross", "exit", "go"}
	// explorerOpenVerbs may open the way or light it.
	explorerOpenVerbs = []string{"open", "unlock", "move", "push", "press", "pull", "lift", "raise", "light", "turn"}
	// explorerTakeVerbs pick things up; tried before moving on.
	explorerTakeVerbs = []string{"take", "get"}
	// explorerLightVerbs may light the dark.
	explorerLightVerbs = []string{"light", "turn on", "switch on"}
	// explorerRiskyVerbs are never chosen but at random: they rarely
	// explore, and they may end the game (a jump from a cliff), lose
	// things, or break it (Zork I lets a sack go into a nest that is in
	// the sack, and then loops for ever on every command).
	explorerRiskyVerbs = []string{"jump", "attack", "kill", "eat", "drink", "drop", "throw", "give",
		"put", "tie", "close", "extinguish", "douse", "turn off", "switch off", "blow out", "sleep", "swim", "burn"}
)

// hasVerb reports whether canonical command cmd starts with one of verbs
// (a word, or words such as "turn on").
func hasVerb(cmd string, verbs []string) bool {
	for _, v := range verbs {
		if cmd == v || strings.HasPrefix(cmd, v+" ") {
			return true
		}
	}
	return false
}

// verbOf is the first word of a command.
func verbOf(cmd string) string {
	v, _, _ := strings.Cut(cmd, " ")
	return v
}

// isDirection reports whether a canonical command is a compass direction.
func isDirection(cmd string) bool { return slices.Contains(game.Directions, cmd) }

// Next asks for the map and the valid actions and chooses, as the type's
// comment says.
func (p *ExplorerPolicy) Next(ctx context.Context, v View) (Action, error) {
	m, err := askMap(ctx, v.Tools)
	if err != nil {
		return Action{}, fmt.Errorf("explorer policy: %w", err)
	}
	acts, known, err := askValidActions(ctx, v.Tools)
	if err != nil {
		return Action{}, fmt.Errorf("explorer policy: %w", err)
	}
	cur := m.Current
	here, _ := m.room(cur)
	where := here.Name
	if where == "" {
		where = "here"
	}
	p.learn(cur, acts, v.Score)
	p.blind = !known
	if known {
		p.valid[cur] = acts
	}
	if p.tried[cur] == nil {
		p.tried[cur] = map[string]bool{}
	}

	choose := func(kind, cmd, thought string) Action {
		p.tried[cur][game.CanonicalCommand(cmd)] = true
		if kind != "exit" && kind != "walk" {
			p.tried1[game.CanonicalCommand(cmd)] = true
		}
		p.last = &explorerMove{cmd: game.CanonicalCommand(cmd), kind: kind, room: cur, score: v.Score,
			dirs: len(p.validDirections(acts))}
		return playAction(thought, cmd)
	}

	// 0. In the dark, light a light, or take the move back (undo, where
	// the server has it), or go back the way we came.
	if isDark(v.Observation) {
		if c, ok := p.pick(cur, acts, explorerLightVerbs, false); ok {
			return choose("opener", c, fmt.Sprintf("dark: trying %q to see in %s", c, where)), nil
		}
		if last := p.last; last != nil && last.room != cur && last.kind != "undo" && v.Tools != nil {
			if _, ok := v.Tools.Get(mcp.ToolUndo); ok {
				way := explorerExit{last.room, last.cmd}
				p.darkWay[way] = true
				delete(p.tried[last.room], last.cmd) // worth trying again with a light
				p.last = &explorerMove{kind: "undo", room: last.room, score: last.score}
				return Action{Thought: fmt.Sprintf("dark: taking back %q, which led into the dark, for want of a light", last.cmd),
					Tool: mcp.ToolUndo}, nil
			}
		}
		if back, ok := p.wayBack(cur, acts); ok {
			p.dark[cur] = true
			return choose("walk", back, fmt.Sprintf("dark: going back %s, the way I came, for want of a light", back)), nil
		}
	}
	// 1. Things to take or light here, before leaving: the dark may lie
	// ahead.
	if c, ok := p.pick(cur, acts, explorerLightVerbs, false); ok {
		return choose("opener", c, fmt.Sprintf("explore: trying %q in %s before moving on, in case the way ahead is dark", c, where)), nil
	}
	if c, ok := p.pick(cur, acts, explorerTakeVerbs, false); ok {
		return choose("try", c, fmt.Sprintf("explore: taking what there is in %s before moving on: %q", where, c)), nil
	}
	// 2. Exits of this room not tried yet.
	if exits := p.openExits(here, acts); len(exits) > 0 {
		c := exits[p.rng.IntN(len(exits))]
		return choose("exit", c, fmt.Sprintf("explore: trying %s from %s, an exit not tried yet (%d untried here)",
			c, where, len(exits))), nil
	}
	// 3. Commands here that may open the way.
	if c, ok := p.pick(cur, acts, explorerOpenVerbs, true); ok {
		return choose("opener", c, fmt.Sprintf("explore: trying %q in %s, which may open the way; its exits are all tried", c, where)), nil
	}
	// 4. Walk to the nearest room with untried exits.
	if path, to, why, ok := p.nearestFrontier(m, cur); ok {
		return choose("walk", path[0], fmt.Sprintf("frontier: going %s from %s to reach %s's %s (%d %s away)",
			path[0], where, to.Name, why, len(path), plural(len(path), "step", "steps"))), nil
	}
	// 5. Anything not tried here, verbs that paid before first.
	if c, ok := p.pick(cur, acts, nil, true); ok {
		return choose("try", c, fmt.Sprintf("explore: no untried exits in reach; trying %q in %s, not tried here yet", c, where)), nil
	}
	// 6. Wander: a random valid direction, else a random valid action, else
	// a random direction.
	var dirs []string
	for _, d := range p.validDirections(acts) {
		if e := (explorerExit{cur, d}); !p.blocked[e] && !p.darkWay[e] {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) > 0 {
		c := dirs[p.rng.IntN(len(dirs))]
		return choose("random", c, fmt.Sprintf("wander: everything in reach is tried; %s, one of %d %s out of %s", c, len(dirs), plural(len(dirs), "way", "ways"), where)), nil
	}
	if len(acts) > 0 {
		safe := slices.DeleteFunc(slices.Clone(acts), func(a string) bool {
			return hasVerb(game.CanonicalCommand(a), explorerRiskyVerbs)
		})
		if len(safe) == 0 {
			safe = acts
		}
		c := safe[p.rng.IntN(len(safe))]
		return choose("random", c, fmt.Sprintf("random: everything in reach is tried; %q, one of %d valid actions", c, len(safe))), nil
	}
	d := randomDirection(p.rng)
	return choose("random", d, fmt.Sprintf("random: no valid actions known in %s, so a random direction: %s", where, d)), nil
}

// isDark reports whether an observation says the player cannot see.
func isDark(obs string) bool {
	o := strings.ToLower(obs)
	for _, s := range []string{"pitch black", "pitch dark", "too dark to see", "it is dark", "it is now dark"} {
		if strings.Contains(o, s) {
			return true
		}
	}
	return false
}

// opposite is the direction that usually leads back.
var opposite = map[string]string{
	"north": "south", "south": "north", "east": "west", "west": "east",
	"northeast": "southwest", "southwest": "northeast", "northwest": "southeast", "southeast": "northwest",
	"up": "down", "down": "up", "in": "out", "out": "in",
}

// wayBack is the direction back to the room the last action came from,
// when the last action moved the player by a direction and the way back
// is a valid action here (or, blind, was not seen to fail).
func (p *ExplorerPolicy) wayBack(cur int, acts []string) (string, bool) {
	last := p.last
	if last == nil || last.room == cur || !isDirection(last.cmd) {
		return "", false
	}
	back := opposite[last.cmd]
	if (!p.blind && !slices.Contains(p.validDirections(acts), back)) || p.blocked[explorerExit{cur, back}] {
		return "", false
	}
	return back, true
}

// learn looks at the outcome of the last action, now that the player is in
// room cur with valid actions acts and the score is score: a walked exit
// that did not move the player is blocked; a verb that scored or changed
// the room (moved the player, or opened a new way out) gains.
func (p *ExplorerPolicy) learn(cur int, acts []string, score int) {
	last := p.last
	if last == nil || last.kind == "undo" {
		return
	}
	moved := cur != last.room
	switch last.kind {
	case "exit", "walk":
		if !moved {
			p.blocked[explorerExit{last.room, last.cmd}] = true
		}
	}
	if isDirection(last.cmd) {
		return
	}
	verb := verbOf(last.cmd)
	if hasVerb(last.cmd, explorerLightVerbs) && last.kind == "opener" {
		// Something was lit: dark rooms are worth another visit.
		clear(p.dark)
		clear(p.darkWay)
	}
	if score > last.score {
		p.gain[verb] += 2
	}
	if moved || len(p.validDirections(acts)) > last.dirs {
		p.gain[verb]++
	}
}

// validDirections are the directions among acts.
func (p *ExplorerPolicy) validDirections(acts []string) []string {
	var out []string
	for _, a := range acts {
		if c := game.CanonicalCommand(a); isDirection(c) {
			out = append(out, c)
		}
	}
	return out
}

// openExits are room r's exits worth trying, given its valid actions
// acts: directions that are valid and untried, and movement commands not
// tried there. Without valid actions (blind) they are the directions the
// map lists as untried there.
func (p *ExplorerPolicy) openExits(r mapRoom, acts []string) []string {
	if p.blind {
		acts = r.Untried
	}
	var out []string
	for _, a := range acts {
		c := game.CanonicalCommand(a)
		if e := (explorerExit{r.ID, c}); p.tried[r.ID][c] || p.blocked[e] || p.darkWay[e] {
			continue
		}
		if isDirection(c) {
			if slices.Contains(r.Untried, c) {
				out = append(out, a)
			}
		} else if hasVerb(c, explorerMoveVerbs) {
			out = append(out, a)
		}
	}
	return out
}

// pick chooses one of the best candidates (see candidates) at random.
func (p *ExplorerPolicy) pick(id int, acts []string, verbs []string, anywhere bool) (string, bool) {
	best := p.candidates(id, acts, verbs, anywhere)
	if len(best) == 0 {
		return "", false
	}
	return best[p.rng.IntN(len(best))], true
}

// candidates are the best valid actions not tried in room id (nor
// anywhere, with anywhere: opening the toolbox one carries is worth doing
// once, not in every room) whose verb is one of verbs (any verb when verbs
// is nil), leaving out moves and risky verbs: those whose verb gained
// most, then take verbs, then openers, then the rest.
func (p *ExplorerPolicy) candidates(id int, acts []string, verbs []string, anywhere bool) []string {
	var best []string
	bestRank := -1
	for _, a := range acts {
		c := game.CanonicalCommand(a)
		if p.tried[id][c] || (anywhere && p.tried1[c]) || isDirection(c) {
			continue
		}
		if hasVerb(c, explorerRiskyVerbs) || (verbs != nil && !hasVerb(c, verbs)) {
			continue
		}
		rank := 4*p.gain[verbOf(c)] + 1
		switch {
		case hasVerb(c, explorerTakeVerbs):
			rank += 2
		case hasVerb(c, explorerOpenVerbs):
			rank++
		}
		switch {
		case rank > bestRank:
			best, bestRank = []string{a}, rank
		case rank == bestRank:
			best = append(best, a)
		}
	}
	return best
}

// nearestFrontier finds the shortest path over the map's known exits
// (leaving out blocked ones) from room from to the nearest other room
// with exits worth trying; the first room found wins ties, in the map's
// order of exits sorted by command.
func (p *ExplorerPolicy) nearestFrontier(m mapView, from int) (path []string, to mapRoom, why string, ok bool) {
	rooms := make(map[int]mapRoom, len(m.Rooms))
	for _, r := range m.Rooms {
		rooms[r.ID] = r
	}
	type step struct {
		prev int
		cmd  string
	}
	seen := map[int]step{from: {}}
	queue := []int{from}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		r, ok := rooms[id]
		if !ok {
			continue
		}
		if why, ok := p.frontierReason(r); ok && id != from {
			for at := id; at != from; at = seen[at].prev {
				path = append(path, seen[at].cmd)
			}
			slices.Reverse(path)
			return path, r, why, true
		}
		cmds := make([]string, 0, len(r.Exits))
		for c := range r.Exits {
			cmds = append(cmds, c)
		}
		slices.Sort(cmds)
		for _, c := range cmds {
			to := r.Exits[c]
			if _, ok := seen[to]; ok || p.blocked[explorerExit{id, c}] || p.dark[to] {
				continue
			}
			seen[to] = step{prev: id, cmd: c}
			queue = append(queue, to)
		}
	}
	return nil, mapRoom{}, "", false
}

// frontierReason says what is worth trying in room r, if anything:
// untried exits by the valid actions seen there last (any untried
// direction, for a room never stood in), or a command that may open the
// way.
func (p *ExplorerPolicy) frontierReason(r mapRoom) (string, bool) {
	if p.dark[r.ID] {
		return "", false
	}
	acts, ok := p.valid[r.ID]
	if !ok && !p.blind {
		return "untried exits", len(r.Untried) > 0
	}
	if len(p.openExits(r, acts)) > 0 {
		return "untried exits", true
	}
	if c := p.candidates(r.ID, acts, explorerOpenVerbs, true); len(c) > 0 {
		return fmt.Sprintf("untried %q", c[0]), true
	}
	return "", false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
