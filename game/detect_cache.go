package game

import (
	"hash/maphash"
	"sync"

	"github.com/grue-lab/grue/game/zmachine"
)

// DetectionCache remembers what grue found by probing stories that the
// catalog does not know (how score, moves and the end of the game are read,
// the maximum score, the player object), so that opening a story again
// skips the probes: each costs a few dozen forked turns. Whatever opens
// many games of the same stories (a game server, an experiment's
// episodes) makes one with [NewDetectionCache] and passes it to [Open] or
// [New] with [WithDetectionCache]; games opened without one probe afresh.
//
// A story is known by its header (release, serial, checksum, size) and its
// initial dynamic memory. What is remembered is what the probes found once
// they were done (everything known, or the tries used up): a game opened
// from the cache reads score and moves from the first step, even while it
// still waits at a "press a key" screen. It is safe for concurrent use,
// and holds one small entry for each story opened, up to
// [DetectionCacheSize] stories (then it forgets one to make room).
type DetectionCache struct {
	mu sync.Mutex
	m  map[detectKey]detection
}

// DetectionCacheSize is how many stories a DetectionCache remembers.
const DetectionCacheSize = 4096

// NewDetectionCache returns an empty cache.
func NewDetectionCache() *DetectionCache {
	return &DetectionCache{m: map[detectKey]detection{}}
}

// WithDetectionCache makes the game take what probes found from c when c
// has its story, and leave there what its own probes find.
func WithDetectionCache(c *DetectionCache) Option { return func(o *options) { o.detections = c } }

// Len is how many stories the cache holds.
func (c *DetectionCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// detectKey identifies a story.
type detectKey struct {
	release, size int
	serial        string
	checksum      uint16
	dyn           uint64 // hash of the initial dynamic memory
}

// detection is what the probes found in one story.
type detection struct {
	scoring      Scoring
	player       uint16
	playerGlobal int
	rooms        uint16
}

// detectSeed keys the hashes of initial dynamic memory; it is set once and
// never changes.
var detectSeed = maphash.MakeSeed()

// storyKey returns the key of the story of m, a machine not yet started.
func storyKey(s *zmachine.Story, m *zmachine.Machine) detectKey {
	return detectKey{release: s.Release(), size: s.Size(), serial: s.Serial(), checksum: s.Checksum(),
		dyn: maphash.Bytes(detectSeed, m.DynamicMemory())}
}

// get returns what the cache holds for key.
func (c *DetectionCache) get(key detectKey) (detection, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[key]
	return d, ok
}

// put remembers d for key.
func (c *DetectionCache) put(key detectKey, d detection) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= DetectionCacheSize {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[key] = d
}

// fromCache applies what the game's cache holds for its story and reports
// whether it held anything.
func (g *Game) fromCache() bool {
	c := g.opts.detections
	if c == nil || g.known {
		return false
	}
	d, ok := c.get(g.storyKey)
	if !ok {
		return false
	}
	g.scoring, g.player, g.playerGlobal, g.rooms = d.scoring, d.player, d.playerGlobal, d.rooms
	g.probes = probeLimit
	g.followPlayer()
	return true
}

// toCache leaves in the game's cache what its probes found, once they are
// done: everything known, or every try used.
func (g *Game) toCache() {
	c := g.opts.detections
	if c == nil || g.known {
		return
	}
	if g.probes < probeLimit && (g.needScore() || g.player == 0) {
		return
	}
	c.put(g.storyKey, detection{scoring: g.scoring, player: g.player, playerGlobal: g.playerGlobal, rooms: g.rooms})
}
