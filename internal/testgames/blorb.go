package testgames

import "encoding/binary"

// Chunk is one chunk of an IFF file: a four-character type and its data.
type Chunk struct {
	Type string
	Data []byte
}

// Blorb returns a Blorb file (an IFF FORM of type IFRS, Blorb 2.0) that
// packages story as its game: a resource index (RIdx) naming executable
// resource 0, then the chunks before, then the story in a chunk of type
// exec (ZCOD for a Z-machine story), then the chunks after. Chunks of odd
// length are padded as IFF asks. The tests of Blorb loading build their
// files with it, from story files they are given, so that no packaged
// copy of a shared story is kept in the repository.
func Blorb(story []byte, exec string, before, after []Chunk) []byte {
	var body []byte
	add := func(c Chunk) {
		body = append(body, c.Type...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(c.Data)))
		body = append(body, c.Data...)
		if len(c.Data)%2 == 1 {
			body = append(body, 0)
		}
	}
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
	add(Chunk{"RIdx", idx})
	for _, c := range before {
		add(c)
	}
	add(Chunk{exec, story})
	for _, c := range after {
		add(c)
	}
	out := append([]byte("FORM"), binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))...)
	out = append(out, "IFRS"...)
	return append(out, body...)
}
