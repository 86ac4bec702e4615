package zmachine

import (
	"fmt"
	"strings"
)

// Story is a loaded, checked story file. It is read-only after [Load] and
// is shared by every [Machine] made from it: their reads of static and high
// memory go to the same bytes.
type Story struct {
	mem     []byte // the story file, cut to the length its header gives
	version int
	dynSize uint32 // base of static memory: the size of dynamic memory

	initialPC    uint32
	dictionary   uint32
	objects      uint32
	globals      uint32
	abbrevs      uint32
	alphabet     uint32 // custom alphabet table, or 0
	extension    uint32 // header extension table, or 0
	unicodeTable uint32 // custom Unicode translation table, or 0
	terminators  uint32 // terminating characters table (v5+), or 0
	routineOff   uint32 // v7: routines offset, already multiplied by 8
	stringOff    uint32 // v7: strings offset, already multiplied by 8
	packShift    uint   // packed address = P << packShift (plus offset in v7)

	code codeCache // decoded instructions of static and high memory

	meta []byte // the iFiction record of the Blorb file it came in, or nil
}

// Load checks data as a Z-machine story file of version 3, 4, 5, 7 or 8
// and returns it ready to run. data may also be a Blorb file (.zblorb,
// .zlb) that packages one: Load takes the story out of it. The bytes are
// copied. An error says what is wrong: too short, a version grue does not
// run, a length or an address in the header that points outside the file,
// a game for another system (Glulx, TADS, ...), a broken Blorb file.
func Load(data []byte) (*Story, error) { return load(data, true) }

// LoadInPlace is [Load] without the copy: the Story reads data as its own,
// so nothing may change data afterwards. It is for bytes that nothing else
// writes: a story file read for it, an embedded one. Copying a story of a
// few hundred kilobytes touches every page of it twice, a measurable part
// of the start of a command that plays one (docs/performance.md). A story
// packaged in a Blorb file is still copied out of it, so that the Story
// does not keep the file's pictures and sounds.
func LoadInPlace(data []byte) (*Story, error) { return load(data, false) }

// load is Load, copying data when copyData is set.
func load(file []byte, copyData bool) (*Story, error) {
	data, meta, err := storyBytes(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 64 {
		return nil, fmt.Errorf("zmachine: not a story file: %d bytes is shorter than the 64-byte header", len(data))
	}
	v := int(data[0])
	size, err := storySize(data, v)
	if err != nil {
		return nil, err
	}
	word := func(a int) uint32 { return uint32(data[a])<<8 | uint32(data[a+1]) }
	mem := data[:size:size]
	if copyData || len(data) != len(file) { // copied, or out of a Blorb file
		mem = append([]byte(nil), mem...)
	}
	s := &Story{
		mem:         mem,
		meta:        append([]byte(nil), meta...),
		version:     v,
		dynSize:     word(0x0e),
		initialPC:   word(0x06),
		dictionary:  word(0x08),
		objects:     word(0x0a),
		globals:     word(0x0c),
		abbrevs:     word(0x18),
		packShift:   1,
		terminators: 0,
	}
	switch {
	case v == 8:
		s.packShift = 3
	case v >= 4:
		s.packShift = 2
	}
	if v >= 5 {
		s.alphabet = word(0x34)
		s.extension = word(0x36)
		s.terminators = word(0x2e)
	}
	if v == 7 {
		s.routineOff = word(0x28) * 8
		s.stringOff = word(0x2a) * 8
	}

	if err := s.checkTables(size); err != nil {
		return nil, err
	}
	return s, nil
}

// storySize checks the version byte v of data and returns the story's
// size: the header's length field, or the whole of data when it is 0.
func storySize(data []byte, v int) (uint32, error) {
	switch v {
	case 3, 4, 5, 7, 8:
	case 6:
		return 0, fmt.Errorf("zmachine: version 6 story files (graphical games) are not supported")
	case 1, 2:
		return 0, fmt.Errorf("zmachine: version %d story files are not supported (grue runs versions 3, 4, 5, 7 and 8)", v)
	default:
		return 0, fmt.Errorf("zmachine: not a story file: version byte is %d (a Z-machine story has 1 to 8)", v)
	}
	word := func(a int) uint32 { return uint32(data[a])<<8 | uint32(data[a+1]) }

	// The length field counts in units of 2, 4 or 8 bytes; 0 (some early
	// files) means "the whole file".
	size := uint32(len(data))
	scale := uint32(2)
	switch {
	case v >= 6:
		scale = 8
	case v >= 4:
		scale = 4
	}
	if l := word(0x1a) * scale; l != 0 {
		if l > size {
			return 0, fmt.Errorf("zmachine: truncated story file: the header gives its length as %d bytes, the file has %d", l, size)
		}
		if l < 64 {
			return 0, fmt.Errorf("zmachine: bad story file: the header gives its length as %d bytes, shorter than the header", l)
		}
		size = l
	}
	maxSize := map[int]uint32{3: 128 << 10, 4: 256 << 10, 5: 256 << 10, 7: 320 << 10, 8: 512 << 10}[v]
	if size > maxSize {
		return 0, fmt.Errorf("zmachine: bad story file: %d bytes is more than a version %d story may have (%d)", size, v, maxSize)
	}
	return size, nil
}

// checkTables checks that the tables the header points to lie inside the
// story's size bytes (inside dynamic memory for the objects and globals),
// and reads the Unicode table's address from the header extension.
func (s *Story) checkTables(size uint32) error {
	check := func(name string, addr, min, end uint32) error {
		if addr < min || addr >= end {
			return fmt.Errorf("zmachine: bad story file: %s at 0x%04x is outside the file (0x%04x to 0x%04x)", name, addr, min, end-1)
		}
		return nil
	}
	if s.dynSize < 64 || s.dynSize > size {
		return fmt.Errorf("zmachine: bad story file: static memory starts at 0x%04x, outside the file (64 to %d)", s.dynSize, size)
	}
	for _, f := range []struct {
		name       string
		addr, min  uint32
		end        uint32
		allowsZero bool
	}{
		{"the initial program counter", s.initialPC, 64, size, false},
		{"the dictionary", s.dictionary, 64, size, false},
		{"the object table", s.objects, 64, s.dynSize, false},
		{"the global variables", s.globals, 64, s.dynSize, false},
		{"the abbreviations table", s.abbrevs, 64, size, true},
		{"the alphabet table", s.alphabet, 64, size, true},
		{"the header extension table", s.extension, 64, size, true},
		{"the terminating characters table", s.terminators, 64, size, true},
	} {
		if f.addr == 0 && f.allowsZero {
			continue
		}
		if err := check(f.name, f.addr, f.min, f.end); err != nil {
			return err
		}
	}
	if s.globals+480 > s.dynSize {
		return fmt.Errorf("zmachine: bad story file: the 240 global variables at 0x%04x run past dynamic memory (ends 0x%04x)", s.globals, s.dynSize)
	}
	if s.alphabet != 0 && s.alphabet+78 > size {
		return fmt.Errorf("zmachine: bad story file: the alphabet table at 0x%04x runs past the end of the file", s.alphabet)
	}
	if s.extension != 0 {
		if s.extension+2 > size {
			return fmt.Errorf("zmachine: bad story file: the header extension table at 0x%04x runs past the end of the file", s.extension)
		}
		n := s.word(s.extension)
		if s.extension+2+2*n > size {
			return fmt.Errorf("zmachine: bad story file: the header extension table at 0x%04x runs past the end of the file", s.extension)
		}
		if n >= 3 {
			s.unicodeTable = s.word(s.extension + 6)
			if s.unicodeTable != 0 {
				if s.unicodeTable >= size || s.unicodeTable+1+3*uint32(s.mem[s.unicodeTable]) > size {
					return fmt.Errorf("zmachine: bad story file: the Unicode table at 0x%04x runs past the end of the file", s.unicodeTable)
				}
			}
		}
	}
	if s.abbrevs != 0 && s.abbrevs+192 > size {
		return fmt.Errorf("zmachine: bad story file: the abbreviations table at 0x%04x runs past the end of the file", s.abbrevs)
	}
	return nil
}

// Version is the story's Z-machine version (3, 4, 5, 7 or 8).
func (s *Story) Version() int { return s.version }

// Release is the release number from the header.
func (s *Story) Release() int { return int(s.word(0x02)) }

// Serial is the six-character serial code from the header, usually the
// compilation date as YYMMDD.
func (s *Story) Serial() string {
	b := s.mem[0x12:0x18]
	var sb strings.Builder
	for _, c := range b {
		if c >= 32 && c < 127 {
			sb.WriteByte(c)
		} else {
			sb.WriteByte('?')
		}
	}
	return sb.String()
}

// Checksum is the checksum the header claims; Verify computes the real one.
func (s *Story) Checksum() uint16 { return uint16(s.word(0x1c)) }

// Verify reports whether the bytes after the header add up to the header's
// checksum, as the verify opcode checks.
func (s *Story) Verify() bool { return s.sum() == s.Checksum() }

// Size is the story's length in bytes.
func (s *Story) Size() int { return len(s.mem) }

// Metadata returns the iFiction record (Treaty of Babel bibliographic
// XML: title, author, IFID, ...) that the Blorb file the story came in
// carried in its IFmd chunk, or nil for a story loaded without one. The
// bytes are the file's, unchecked: a copy, which the caller may keep.
func (s *Story) Metadata() []byte { return append([]byte(nil), s.meta...) }

// DynamicSize is the size of dynamic memory: the bytes a game may change and
// a save file records.
func (s *Story) DynamicSize() int { return int(s.dynSize) }

func (s *Story) sum() uint16 {
	var sum uint16
	for _, b := range s.mem[64:] {
		sum += uint16(b)
	}
	return sum
}

func (s *Story) word(a uint32) uint32 { return uint32(s.mem[a])<<8 | uint32(s.mem[a+1]) }

// unpackRoutine turns a packed routine address into a byte address.
func (s *Story) unpackRoutine(p uint16) uint32 {
	return uint32(p)<<s.packShift + s.routineOff
}

// unpackString turns a packed string address into a byte address.
func (s *Story) unpackString(p uint16) uint32 {
	return uint32(p)<<s.packShift + s.stringOff
}
