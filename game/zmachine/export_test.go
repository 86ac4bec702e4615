package zmachine

// DfrotzScreen makes m lose the text that dfrotz 2.54's screen loses, so a
// differential test can compare transcripts: bold and italic characters
// (dfrotz prints none of them) and what a step printed before a restart or
// a clear screen (dfrotz clears its screen before showing it); and the row
// a key was read on is printed again before the reply to the key, as
// dfrotz shows that row again when it next reads. grue itself keeps all the
// text: the Inform library prints room names in bold.
func DfrotzScreen(m *Machine) { m.out.dfrotz = true }

// CachedInsn is an instruction as exec decoded it into the story's
// decoded-instruction cache, for comparing with [Machine.Instruction].
type CachedInsn struct {
	Addr uint32
	// Next is the address after the operands, the store byte and the
	// branch data exec decodes with the instruction (not the inline text
	// of print, nor the store or branch its handler reads itself).
	Next     uint32
	Nops     int
	Stores   bool
	Store    uint8
	Branches bool
	OnTrue   bool
	Offset   int16  // 0 or 1 for a branch that returns, else 2
	Dest     uint32 // the branch's target
}

// CachedInstructions returns every instruction in s's decoded-instruction
// cache, by address.
func CachedInstructions(s *Story) []CachedInsn {
	c := s.cache()
	var out []CachedInsn
	for a := range c.slots {
		in := c.slots[a].Load()
		if in == nil {
			continue
		}
		ci := CachedInsn{Addr: uint32(a), Next: in.next, Nops: int(in.nops), Stores: in.flags&fStore != 0, Store: in.store,
			Branches: in.flags&fBranch != 0, OnTrue: in.sense, Offset: 2}
		if ci.Branches {
			ci.Dest = in.dest // a jump's kJumpTo keeps its target there too
		}
		switch {
		case in.flags&fRet0 != 0:
			ci.Offset = 0
		case in.flags&fRet1 != 0:
			ci.Offset = 1
		}
		out = append(out, ci)
	}
	return out
}

// SnapshotMemoryBytes is how many bytes of memory s keeps: the whole
// dynamic memory, or for a compact snapshot its coded difference.
func SnapshotMemoryBytes(s *Snapshot) int { return len(s.dyn) + len(s.cmem) }

// CorruptCompact returns a copy of compact snapshot s whose memory code
// runs past dynamic memory.
func CorruptCompact(s *Snapshot) *Snapshot {
	c := *s
	c.cmem = append(append([]byte(nil), s.cmem...), 0, 255, 0, 255, 0, 255)
	for range len(s.story.mem) / 256 {
		c.cmem = append(c.cmem, 0, 255)
	}
	c.cmem = append(c.cmem, 1)
	return &c
}
