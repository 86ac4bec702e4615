package testgames

import "encoding/binary"

// Chunk is one chunk of an IFF file: a four-character type and its data.
type Chunk struct {
	Type string
	Data []byte
}

// Form returns an IFF FORM of type typ (IFRS for a Blorb file, IFZS for
// a Quetzal save) holding the chunks in order, each of odd length padded
// as IFF asks.
func Form(typ string, chunks ...Chunk) []byte {
	out := append([]byte("FORM"), 0, 0, 0, 0)
	out = append(out, typ...)
	for _, c := range chunks {
		out = append(out, c.Type...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.Data)))
		out = append(out, c.Data...)
		if len(c.Data)%2 == 1 {
			out = append(out, 0)
		}
	}
	binary.BigEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out
}

// Blorb returns a Blorb file (Blorb 2.0) that packages story as its game:
// a resource index (RIdx) naming executable resource 0, then the chunks
// before, then the story in a chunk of type exec (ZCOD for a Z-machine
// story), then the chunks after. The tests of Blorb loading build their
// files with it, from story files they are given, so that no packaged
// copy of a shared story is kept in the repository.
func Blorb(story []byte, exec string, before, after []Chunk) []byte {
	// The index is the first chunk: 12 bytes of FORM header, 8 of the
	// index's own header and 4+12 of its one entry come before the rest.
	at := 12 + 8 + 4 + 12
	for _, c := range before {
		at += 8 + len(c.Data) + len(c.Data)%2
	}
	idx := binary.BigEndian.AppendUint32(nil, 1)
	idx = append(idx, "Exec"...)
	idx = binary.BigEndian.AppendUint32(idx, 0)
	idx = binary.BigEndian.AppendUint32(idx, uint32(at))
	chunks := append([]Chunk{{"RIdx", idx}}, before...)
	chunks = append(chunks, Chunk{exec, story})
	return Form("IFRS", append(chunks, after...)...)
}
