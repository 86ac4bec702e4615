package validactions

import (
	"encoding/binary"
	"hash/maphash"
)

// Each game remembers the valid actions of the last states it found them
// in, so that asking again in the same state (an agent that asks twice, a
// step taken back with undo, a state restored) costs a hash of dynamic
// memory instead of hundreds of forked turns.
//
// A state is known by its dynamic memory and program counter, with the
// move counter left out (that of the catalog's entry, or the status
// line's in a version 3 game; an unknown later game keeps all its
// globals): a turn that changes nothing but the count (a refusal that the
// parser's memory does not record) leaves the same world and the same
// valid actions. The random number generator is not part of
// the key: a state that comes back with other random numbers ahead (a
// state restored and played on differently) gets the actions found the
// first time, as good a set as a fresh one. The cache belongs to the game
// (package game gives a fork an empty one), so what a game answers
// depends only on its own history, and a seeded run stays reproducible.

// cacheSize is how many states each game remembers.
const cacheSize = 8

// Cache is one game's memory of the valid actions of its last states,
// most recent last, and of the work they took. Its zero value is empty
// and ready; it is not safe for concurrent use (a game is not either).
type Cache struct {
	entries []cacheEntry
	runs    int    // times the candidates were tried, not remembered (for the tests)
	instr   uint64 // instructions the last trying ran on the workers (for the benchmarks)
}

type cacheEntry struct {
	key  uint64
	acts []string
}

// stateSeed keys the state hashes.
var stateSeed = maphash.MakeSeed()

// stateKey is the key of g's current state in the cache: a hash of
// dynamic memory, without the move counter, and the program counter.
func (g *Search) stateKey() uint64 {
	dyn := g.Machine.DynamicMemory()
	globals, _ := g.Machine.PeekWord(0x0c)
	if a := int(globals) + 2*g.MovesGlobal; g.MovesGlobal >= 0 && a+1 < len(dyn) {
		dyn[a], dyn[a+1] = 0, 0
	}
	dyn = binary.BigEndian.AppendUint32(dyn, g.Machine.PC())
	return maphash.Bytes(stateSeed, dyn)
}

// get returns a copy of the actions remembered for key.
func (c *Cache) get(key uint64) ([]string, bool) {
	for _, e := range c.entries {
		if e.key == key {
			return append([]string(nil), e.acts...), true
		}
	}
	return nil, false
}

// put remembers acts for key, forgetting the oldest state when full.
func (c *Cache) put(key uint64, acts []string) {
	for i, e := range c.entries {
		if e.key == key {
			c.entries = append(c.entries[:i], c.entries[i+1:]...)
			break
		}
	}
	if len(c.entries) >= cacheSize {
		c.entries = append(c.entries[:0], c.entries[1:]...)
	}
	c.entries = append(c.entries, cacheEntry{key, append([]string(nil), acts...)})
}
