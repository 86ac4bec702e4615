package glk

import (
	"fmt"
	"slices"
)

// Bounds of the objects a story may hold at once: each a few hundred
// bytes, so a story that leaks objects in a loop meets an error, not the
// end of the host's memory.
const maxObjects = 10000

func (g *Glk) exists(class byte, id uint32) bool {
	switch class {
	case 'a':
		_, ok := g.st.windows[id]
		return ok
	case 'b':
		_, ok := g.st.streams[id]
		return ok
	case 'c':
		_, ok := g.st.frefs[id]
		return ok
	case 'd':
		_, ok := g.st.schans[id]
		return ok
	}
	return false
}

func (g *Glk) newID(class int) (uint32, error) {
	s := g.st
	if len(s.windows)+len(s.streams)+len(s.frefs)+len(s.schans) >= maxObjects {
		return 0, fmt.Errorf("more than %d Glk objects open", maxObjects)
	}
	s.lastID[class]++
	if s.lastID[class] == 0 {
		s.lastID[class]++
	}
	return s.lastID[class], nil
}

func removeID(order []uint32, id uint32) []uint32 {
	if i := slices.Index(order, id); i >= 0 {
		return slices.Delete(order, i, i+1)
	}
	return order
}

// iterate answers the iterate functions: the first object when id is 0,
// else the one after id; cheapglk lists streams and file refs newest
// first, and so do we.
func iterate(order []uint32, id uint32, newestFirst bool) uint32 {
	n := len(order)
	at := func(i int) uint32 {
		if newestFirst {
			return order[n-1-i]
		}
		return order[i]
	}
	if id == 0 {
		if n == 0 {
			return 0
		}
		return at(0)
	}
	for i := 0; i < n; i++ {
		if at(i) == id {
			if i+1 < n {
				return at(i + 1)
			}
			return 0
		}
	}
	return 0
}
