package zmachine

import (
	"bytes"
	"fmt"
)

// maxIFIDLen bounds an IFID read from a story file's "UUID://...//"
// marker: the Treaty of Babel's IFIDs are at most 63 characters.
const maxIFIDLen = 63

// IFID returns the story's IFID, the identifier that IFDB and the Treaty
// of Babel know a work by, as the Treaty's rule for Z-code gives it: the
// IFID that the story file carries as "UUID://IFID//" (Inform 6.30 and
// later write one when the game declares it), else one made of the
// header's release number, serial code and checksum: "ZCODE-88-840726"
// (Zork I release 88), "ZCODE-5-061111-B1A3". As the Treaty says, a story
// whose serial code is Infocom's or a date before 2006 (beginning 8 or 9,
// or 00 to 05) is not searched for a marker, and the checksum is left out
// for a serial code beginning with 8 or with no digit, and for 000000.
func (s *Story) IFID() string {
	serial := s.mem[0x12:0x18]
	vintage := serial[0] == '8' || serial[0] == '9' || (serial[0] == '0' && serial[1] >= '0' && serial[1] <= '5')
	if !vintage {
		if id, ok := embeddedIFID(s.mem); ok {
			return id
		}
	}
	ser := make([]byte, len(serial))
	for i, c := range serial {
		ser[i] = '-'
		if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			ser[i] = c
		}
	}
	id := fmt.Sprintf("ZCODE-%d-%s", s.Release(), ser)
	if string(ser) != "000000" && ser[0] >= '0' && ser[0] <= '9' && ser[0] != '8' {
		id += fmt.Sprintf("-%04X", s.Checksum())
	}
	return id
}

// embeddedIFID finds the first "UUID://" in story and returns what follows
// it up to the next '/': false when there is none, or when it is empty,
// longer than an IFID can be or not made of an IFID's characters
// (letters, digits and '-'; the Treaty's rule takes any bytes, but a
// story file's marker is what its compiler wrote, and grue shows it).
func embeddedIFID(story []byte) (string, bool) {
	const marker = "UUID://"
	i := bytes.Index(story, []byte(marker))
	if i < 0 {
		return "", false
	}
	rest := story[i+len(marker):]
	end := bytes.IndexByte(rest, '/')
	if end <= 0 || end > maxIFIDLen {
		return "", false
	}
	for _, c := range rest[:end] {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-') {
			return "", false
		}
	}
	return string(rest[:end]), true
}
