package game

import "hash/fnv"

// StateHash is a hash (64-bit FNV-1a) of the world: every object's
// attributes and tree links, then the 240 global variables. Equal states
// give equal hashes, whatever way the game reached them; a move changes it,
// since the move counter is a global. Properties, the stack and the random
// number generator are not hashed.
func (g *Game) StateHash() uint64 { return g.hashOf(true) }

// WorldHash is StateHash without the globals other than the score's (when
// known): the objects' attributes and tree links, and the score. Two
// commands that leave the same world behind ("get lamp" and "take
// lantern", "d" and "down") give equal WorldHashes though the parser's
// memory of the words typed differs; it is what valid actions count as a
// change of the world.
//
// For a Glulx story both are a hash of the whole RAM, the move counter
// and the parser's buffers included: the Glulx object layout is not read
// yet, so WorldHash cannot leave them out and differs wherever StateHash
// does.
func (g *Game) WorldHash() uint64 { return g.hashOf(false) }

func (g *Game) hashOf(globals bool) uint64 {
	if g.gx != nil {
		return g.glulxHash() // RAM: the world and the globals together
	}
	h := fnv.New64a()
	table, _ := g.m.PeekWord(0x0a)
	start, size, header := uint32(table)+31*2, uint32(9), uint32(7)
	if g.story.Version() > 3 {
		start, size, header = uint32(table)+63*2, 14, 12
	}
	buf := make([]byte, 0, int(header)*g.objects+480)
	for o := 0; o < g.objects; o++ {
		a := start + uint32(o)*size
		for i := uint32(0); i < header; i++ {
			b, _ := g.m.PeekByte(a + i)
			buf = append(buf, b)
		}
	}
	for n := 0; n < 240; n++ {
		if !globals && n != g.scoring.ScoreGlobal {
			continue
		}
		v := g.m.Global(n)
		buf = append(buf, byte(v>>8), byte(v))
	}
	h.Write(buf)
	return h.Sum64()
}
