package zmachine

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Blorb files. Most games released since the early 2000s, and most of
// those on the IF Archive and IFDB, come as a Blorb file (.zblorb, .zlb):
// an IFF FORM of type IFRS that packages the story with its cover art,
// sounds and bibliographic data (the Blorb specification 2.0). Its
// resource index (the RIdx chunk, first in the file) names the
// executable resource 0, the game itself, by the offset of its chunk; a
// Z-machine game's chunk is ZCOD, and holds the story file's bytes
// unchanged. [Load] takes the story out of a Blorb file, and names what
// it finds instead when the game is not a Z-machine one.

// execSystem names the system that runs a Blorb executable chunk of type
// typ, false for a chunk type that is no game (Blorb 2.0, "Executable
// resource chunks").
func execSystem(typ string) (string, bool) {
	switch typ {
	case "ZCOD":
		return "Z-machine", true
	case "GLUL":
		return "Glulx", true
	case "TAD2":
		return "TADS 2", true
	case "TAD3":
		return "TADS 3", true
	case "HUGO":
		return "Hugo", true
	case "ALAN":
		return "Alan", true
	case "ADRI":
		return "ADRIFT", true
	case "LEVE":
		return "Level 9", true
	case "AGT ":
		return "AGT", true
	case "MAGS":
		return "Magnetic Scrolls", true
	case "ADVS":
		return "AdvSys", true
	case "EXEC":
		return "native executable", true
	}
	return "", false
}

// errGlulx is Load's answer to a Glulx game, raw (.ulx) or in a Blorb
// file (.gblorb): the commonest story that is not a Z-machine one.
var errGlulx = errors.New("zmachine: a Glulx game, not a Z-machine one: grue runs Z-machine games (versions 3, 4, 5, 7 and 8); a Glulx interpreter such as glulxe runs this one")

// storyBytes returns the Z-machine story in data: data itself, or the
// story a Blorb file packages, with the file's metadata (its IFmd chunk,
// nil when it has none). Other formats that are recognisable from their
// first bytes are refused by name.
func storyBytes(data []byte) (story, meta []byte, err error) {
	switch {
	case len(data) >= 12 && string(data[:4]) == "FORM" && string(data[8:12]) == "IFRS":
		return blorbStory(data)
	case len(data) >= 12 && string(data[:4]) == "FORM" && string(data[8:12]) == "IFZS":
		return nil, nil, errors.New("zmachine: a Quetzal saved game, not a story file: load the story, then restore the save into it")
	case len(data) >= 4 && string(data[:4]) == "Glul":
		return nil, nil, errGlulx
	}
	return data, nil, nil
}

// blorbChunk is one chunk of a Blorb file: its type and where its data
// lies in the file.
type blorbChunk struct {
	typ        string
	head       uint64 // offset of the chunk's header (type and length)
	start, end uint64 // its data, data[start:end]
}

// blorbStory returns the Z-machine story of the Blorb file data: the
// chunk that the resource index names as executable resource 0, or,
// where a file has no usable index, its first executable chunk. Every
// length and offset is checked against the file; an error names the
// chunk or the offset that is wrong. A file cut short, or whose FORM
// claims more than it holds, still loads when the game's chunk is whole,
// as other interpreters load it: only the resources after it are lost.
// meta is the file's iFiction record (the IFmd chunk), nil when it has
// none.
func blorbStory(data []byte) (story, meta []byte, err error) {
	chunks, cut := blorbChunks(data)
	exec, err := blorbExec(data, chunks)
	switch {
	case err != nil && cut != nil:
		return nil, nil, cut // the game is in, or beyond, what is missing
	case err != nil:
		return nil, nil, err
	}
	for _, c := range chunks {
		if c.typ == "IFmd" {
			meta = data[c.start:c.end]
			break
		}
	}
	switch system, _ := execSystem(exec.typ); exec.typ {
	case "ZCOD":
		return data[exec.start:exec.end], meta, nil
	case "GLUL":
		return nil, nil, errGlulx
	default:
		return nil, nil, fmt.Errorf("zmachine: blorb file: the game is a %s one (chunk %s), not a Z-machine one: grue runs Z-machine games", system, exec.typ)
	}
}

// blorbChunks lists the whole chunks of the FORM that data holds, and
// says why the list stops early (a chunk that runs past the end of the
// file, or stray bytes too few for a chunk header).
func blorbChunks(data []byte) ([]blorbChunk, error) {
	end := min(8+uint64(binary.BigEndian.Uint32(data[4:8])), uint64(len(data)))
	var chunks []blorbChunk
	for off := uint64(12); off < end; {
		if end-off < 8 {
			return chunks, fmt.Errorf("zmachine: blorb file: %d stray bytes at offset %#x, too few for a chunk header", end-off, off)
		}
		typ := string(data[off : off+4])
		n := uint64(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if n > end-off-8 {
			return chunks, fmt.Errorf("zmachine: blorb file: chunk %q at offset %#x: its %d bytes run past the end of the file (truncated?)", typ, off, n)
		}
		chunks = append(chunks, blorbChunk{typ: typ, head: off, start: off + 8, end: off + 8 + n})
		off += 8 + n + n&1 // a chunk of odd length is padded to even
	}
	return chunks, nil
}

// blorbExec returns the chunk of executable resource 0.
func blorbExec(data []byte, chunks []blorbChunk) (blorbChunk, error) {
	for _, c := range chunks {
		if c.typ != "RIdx" {
			continue
		}
		idx := data[c.start:c.end]
		if len(idx) < 4 {
			return blorbChunk{}, fmt.Errorf("zmachine: blorb file: resource index at offset %#x: %d bytes, too short for its count", c.head, len(idx))
		}
		count := uint64(binary.BigEndian.Uint32(idx))
		if count > uint64(len(idx)-4)/12 {
			return blorbChunk{}, fmt.Errorf("zmachine: blorb file: resource index at offset %#x: %d entries do not fit in its %d bytes", c.head, count, len(idx))
		}
		for i := range count {
			e := idx[4+12*i:]
			if string(e[:4]) != "Exec" || binary.BigEndian.Uint32(e[4:8]) != 0 {
				continue
			}
			at := uint64(binary.BigEndian.Uint32(e[8:12]))
			for _, x := range chunks {
				if x.head == at {
					if _, ok := execSystem(x.typ); !ok {
						return blorbChunk{}, fmt.Errorf("zmachine: blorb file: the resource index names chunk %q at offset %#x as the game, which is no executable chunk type", x.typ, at)
					}
					return x, nil
				}
			}
			return blorbChunk{}, fmt.Errorf("zmachine: blorb file: the resource index puts the game at offset %#x, where no chunk starts", at)
		}
		break // an index without the game: look for it as below
	}
	for _, c := range chunks {
		if _, ok := execSystem(c.typ); ok {
			return c, nil
		}
	}
	return blorbChunk{}, errors.New("zmachine: blorb file: it holds no game, only resources (pictures, sounds, data): give grue the story file (.z5, .z8, ...) it goes with")
}
