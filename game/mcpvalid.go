package game

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// validActions is what the valid_actions tool lists. Game.ValidActions (the
// dictionary-and-grammar search, game/valid.go) replaces the stopgap below
// once it lands; until then a small search tries movement and the common
// verbs on the objects at hand and keeps those that change the world.
func (ss *session) validActions() ([]string, error) {
	return stopgapValidActions(ss.g)
}

// stopgapValidActions tries each candidate command on a fork of g from the
// current state and keeps the ones that move the player, change the score,
// change the object tree or end the game.
func stopgapValidActions(g *Game) ([]string, error) {
	f, err := g.Fork()
	if err != nil {
		return nil, err
	}
	start := f.Save()
	base := treeHash(f)
	score := f.Score()
	_, loc := f.Location()
	var cands []string
	cands = append(cands, Directions...)
	seen := map[string]bool{}
	var objs []Object
	if _, room := f.Location(); room != 0 {
		objs = append(objs, f.children(room)...)
	}
	objs = append(objs, f.Inventory()...)
	for _, o := range objs {
		if o.ID == f.player {
			continue
		}
		words := strings.Fields(strings.ToLower(o.Name))
		if len(words) == 0 {
			continue
		}
		noun := words[len(words)-1]
		if seen[noun] {
			continue
		}
		seen[noun] = true
		for _, v := range []string{"take", "drop", "open", "close", "push", "pull", "turn on", "eat", "read"} {
			cands = append(cands, v+" "+noun)
		}
	}
	var out []string
	for _, c := range cands {
		if err := f.Restore(start); err != nil {
			return nil, err
		}
		r, err := f.Step(c)
		if err != nil {
			continue
		}
		_, to := f.Location()
		if to != loc || r.Info.Score != score || r.Done || treeHash(f) != base {
			out = append(out, c)
		}
	}
	if out == nil {
		return []string{}, nil
	}
	return out, nil
}

// treeHash hashes the object tree and attributes, not the globals (the
// move counter changes with every command).
func treeHash(g *Game) uint64 {
	h := fnv.New64a()
	for o := 1; o <= g.objects; o++ {
		obj := g.object(uint16(o))
		fmt.Fprint(h, obj.Parent, obj.Attributes)
	}
	return h.Sum64()
}
