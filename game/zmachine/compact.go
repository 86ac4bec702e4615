package zmachine

import "errors"

// Compact returns a copy of s that keeps its dynamic memory as its
// difference from the story's initial memory, coded as a Quetzal save's
// CMem chunk codes it (Quetzal 1.4, section 3: the bytes XORed with the
// story file's, each run of zeros as a zero and its length less one). A
// game a few moves from its start differs from its story in a few hundred
// bytes: Zork I seven moves in keeps 344 bytes of memory rather than
// 11,282 (TestCompactSnapshot). It restores as s does, a little slower
// (the memory is decoded), so it is for states kept for long and in
// numbers, as saved states are, not for a loop's snapshots. s is
// unchanged; a snapshot that is compact already is returned as it is.
func (s *Snapshot) Compact() *Snapshot {
	if s == nil || s.cmem != nil {
		return s
	}
	c := *s
	c.dyn = nil
	c.stack = append([]uint16(nil), s.stack...)
	c.frames = append([]frame(nil), s.frames...)
	c.out.upper = append([]rune(nil), s.out.upper...)
	c.cmem = diffCode(s.dyn, s.story.mem)
	return &c
}

// diffCode codes dyn as its XOR with orig, runs of zeros run-length coded:
// a zero byte, then the run's length less one (at most 256 a run).
func diffCode(dyn, orig []byte) []byte {
	var out []byte
	zeros := 0
	for i, b := range dyn {
		x := b ^ orig[i]
		if x == 0 {
			zeros++
			continue
		}
		for zeros > 0 {
			n := min(zeros, 256)
			out = append(out, 0, byte(n-1))
			zeros -= n
		}
		out = append(out, x)
	}
	return out // trailing zeros: the memory is the story's there
}

// The ways a difference code can be wrong; its callers say where it came
// from (a compact snapshot, a save file's CMem chunk).
var (
	errCodeCorrupt = errors.New("a zero run has no length")
	errCodePastEnd = errors.New("runs past dynamic memory")
)

// diffDecode writes into mem (the story's initial memory, already copied
// in) the difference code made by diffCode: errCodeCorrupt or
// errCodePastEnd when the code is bad, with mem then partly written.
func diffDecode(mem, code []byte) error {
	i := 0
	for j := 0; j < len(code); j++ {
		if code[j] == 0 {
			if j+1 >= len(code) {
				return errCodeCorrupt
			}
			i += int(code[j+1]) + 1
			j++
			continue
		}
		if i >= len(mem) {
			return errCodePastEnd
		}
		mem[i] ^= code[j]
		i++
	}
	if i > len(mem) {
		return errCodePastEnd
	}
	return nil
}
