// Package blorb reads Blorb files (the Blorb specification 2.0): an IFF
// FORM of type IFRS that packages a story with its pictures, sounds, data
// and bibliographic record, indexed by its RIdx chunk. Every length and
// offset is checked against the file; an error names the chunk or offset
// that is wrong. The Z-machine and Glulx loaders share it.
package blorb

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Chunk is one chunk of a Blorb file: its type and where it lies.
type Chunk struct {
	Type       string
	Head       uint64 // offset of the chunk's header (type and length)
	Start, End uint64 // its data, data[Start:End]
}

// ExecSystem names the system that runs a Blorb executable chunk of type
// typ, false for a chunk type that is no game (Blorb 2.0, "Executable
// resource chunks").
func ExecSystem(typ string) (string, bool) {
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

// Chunks lists the whole chunks of the FORM that data holds (data must
// begin with a FORM header), and says why the list stops early (a chunk
// that runs past the end of the file, or stray bytes too few for a chunk
// header).
func Chunks(data []byte) ([]Chunk, error) {
	if len(data) < 12 {
		return nil, errors.New("blorb file: too short for a FORM header")
	}
	end := min(8+uint64(binary.BigEndian.Uint32(data[4:8])), uint64(len(data)))
	var chunks []Chunk
	for off := uint64(12); off < end; {
		if end-off < 8 {
			return chunks, fmt.Errorf("blorb file: %d stray bytes at offset %#x, too few for a chunk header", end-off, off)
		}
		typ := string(data[off : off+4])
		n := uint64(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if n > end-off-8 {
			return chunks, fmt.Errorf("blorb file: chunk %q at offset %#x: its %d bytes run past the end of the file (truncated?)", typ, off, n)
		}
		chunks = append(chunks, Chunk{Type: typ, Head: off, Start: off + 8, End: off + 8 + n})
		off += 8 + n + n&1 // a chunk of odd length is padded to even
	}
	return chunks, nil
}

// Entry is one entry of the resource index.
type Entry struct {
	Usage  string // "Pict", "Snd ", "Data", "Exec"
	Number uint32
	At     uint64 // offset of the chunk's header
}

// Index reads the resource index chunk c.
func Index(data []byte, c Chunk) ([]Entry, error) {
	idx := data[c.Start:c.End]
	if len(idx) < 4 {
		return nil, fmt.Errorf("blorb file: resource index at offset %#x: %d bytes, too short for its count", c.Head, len(idx))
	}
	count := uint64(binary.BigEndian.Uint32(idx))
	if count > uint64(len(idx)-4)/12 {
		return nil, fmt.Errorf("blorb file: resource index at offset %#x: %d entries do not fit in its %d bytes", c.Head, count, len(idx))
	}
	out := make([]Entry, 0, count)
	for i := range count {
		e := idx[4+12*i:]
		out = append(out, Entry{Usage: string(e[:4]), Number: binary.BigEndian.Uint32(e[4:8]), At: uint64(binary.BigEndian.Uint32(e[8:12]))})
	}
	return out, nil
}

// Exec returns the chunk of executable resource 0: the one the resource
// index names, or, where a file has no usable index, its first executable
// chunk.
func Exec(data []byte, chunks []Chunk) (Chunk, error) {
	for _, c := range chunks {
		if c.Type != "RIdx" {
			continue
		}
		entries, err := Index(data, c)
		if err != nil {
			return Chunk{}, err
		}
		for _, e := range entries {
			if e.Usage != "Exec" || e.Number != 0 {
				continue
			}
			for _, x := range chunks {
				if x.Head == e.At {
					if _, ok := ExecSystem(x.Type); !ok {
						return Chunk{}, fmt.Errorf("blorb file: the resource index names chunk %q at offset %#x as the game, which is no executable chunk type", x.Type, e.At)
					}
					return x, nil
				}
			}
			return Chunk{}, fmt.Errorf("blorb file: the resource index puts the game at offset %#x, where no chunk starts", e.At)
		}
		break // an index without the game: look for it as below
	}
	for _, c := range chunks {
		if _, ok := ExecSystem(c.Type); ok {
			return c, nil
		}
	}
	return Chunk{}, ErrNoGame
}

// ErrNoGame is Exec's answer for a Blorb file without an executable chunk.
var ErrNoGame = errors.New("blorb file: it holds no game, only resources (pictures, sounds, data)")

// File is a parsed Blorb file.
type File struct {
	data    []byte
	chunks  []Chunk
	entries []Entry
}

// Parse reads a Blorb file's chunks and resource index.
func Parse(data []byte) (*File, error) {
	if len(data) < 12 || string(data[:4]) != "FORM" || string(data[8:12]) != "IFRS" {
		return nil, errors.New("blorb file: no FORM of type IFRS")
	}
	chunks, cut := Chunks(data)
	f := &File{data: data, chunks: chunks}
	for _, c := range chunks {
		if c.Type == "RIdx" {
			e, err := Index(data, c)
			if err != nil {
				return nil, err
			}
			f.entries = e
			break
		}
	}
	if _, err := Exec(data, chunks); err != nil && cut != nil {
		return nil, cut
	}
	return f, nil
}

// Exec returns the type and data of the game's chunk, false if none.
func (f *File) Exec() (typ string, data []byte, ok bool) {
	c, err := Exec(f.data, f.chunks)
	if err != nil {
		return "", nil, false
	}
	return c.Type, f.data[c.Start:c.End], true
}

// Chunk returns the first chunk of a type, false if none.
func (f *File) Chunk(typ string) ([]byte, bool) {
	for _, c := range f.chunks {
		if c.Type == typ {
			return f.data[c.Start:c.End], true
		}
	}
	return nil, false
}

// Resource returns the chunk of the resource of a usage and number.
func (f *File) Resource(usage string, num uint32) (Chunk, bool) {
	for _, e := range f.entries {
		if e.Usage == usage && e.Number == num {
			for _, c := range f.chunks {
				if c.Head == e.At {
					return c, true
				}
			}
		}
	}
	return Chunk{}, false
}

// DataResource returns the Data resource num: its chunk type and bytes
// (a FORM chunk whole, with its header), as the Glk library wants them.
func (f *File) DataResource(num uint32) (string, []byte, bool) {
	c, ok := f.Resource("Data", num)
	if !ok {
		return "", nil, false
	}
	if c.Type == "FORM" {
		return c.Type, f.data[c.Head:c.End], true
	}
	return c.Type, f.data[c.Start:c.End], true
}

// Pictures counts the picture resources.
func (f *File) Pictures() int {
	n := 0
	for _, e := range f.entries {
		if e.Usage == "Pict" {
			n++
		}
	}
	return n
}
