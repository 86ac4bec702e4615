package zmachine

// Text: Z-characters, ZSCII and Unicode (Standard §3). Strings are decoded
// straight into the output streams, without building Go strings.

// defaultUnicode maps ZSCII 155 to 223 to Unicode (Standard Table 1).
var defaultUnicode = [69]rune{
	0xe4, 0xf6, 0xfc, 0xc4, 0xd6, 0xdc, 0xdf, 0xbb, 0xab, 0xeb, 0xef, 0xff,
	0xcb, 0xcf, 0xe1, 0xe9, 0xed, 0xf3, 0xfa, 0xfd, 0xc1, 0xc9, 0xcd, 0xd3,
	0xda, 0xdd, 0xe0, 0xe8, 0xec, 0xf2, 0xf9, 0xc0, 0xc8, 0xcc, 0xd2, 0xd9,
	0xe2, 0xea, 0xee, 0xf4, 0xfb, 0xc2, 0xca, 0xce, 0xd4, 0xdb, 0xe5, 0xc5,
	0xf8, 0xd8, 0xe3, 0xf1, 0xf5, 0xc3, 0xd1, 0xd5, 0xe6, 0xc6, 0xe7, 0xc7,
	0xfe, 0xf0, 0xde, 0xd0, 0xa3, 0x153, 0x152, 0xa1, 0xbf,
}

// defaultAlphabet holds the three alphabets of versions 2 and later, for
// Z-characters 6 to 31. A2's first two entries (escape, newline) are
// handled before the table is consulted.
const defaultAlphabet = "abcdefghijklmnopqrstuvwxyz" +
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ" +
	"  0123456789.,!?_#'\"/\\-:()"

// alphabetChar returns the ZSCII code of Z-character z (6 to 31) in
// alphabet a.
func (m *Machine) alphabetChar(a int, z uint16) uint16 {
	if t := m.story.alphabet; t != 0 {
		return uint16(m.rb(t + uint32(a*26) + uint32(z-6)))
	}
	return uint16(defaultAlphabet[a*26+int(z-6)])
}

// printZString decodes the Z-encoded string at addr to the output streams
// and returns the address just after it.
func (m *Machine) printZString(addr uint32) uint32 {
	return m.decodeZString(addr, false)
}

func (m *Machine) decodeZString(addr uint32, inAbbrev bool) uint32 {
	const (
		normal = iota
		abbrev
		escHigh
		escLow
	)
	state := normal
	alpha := 0 // alphabet for the next Z-character only (v3+ shifts)
	var pending uint16
	for {
		w := m.rw(addr)
		addr += 2
		for i := 0; i < 3; i++ {
			z := (w >> (10 - 5*uint(i))) & 0x1f
			switch state {
			case abbrev:
				state = normal
				if !inAbbrev && m.story.abbrevs != 0 {
					entry := m.story.abbrevs + 2*(32*uint32(pending-1)+uint32(z))
					m.decodeZString(2*uint32(m.rw(entry)), true)
				}
				continue
			case escHigh:
				pending = z << 5
				state = escLow
				continue
			case escLow:
				m.out.zscii(pending | z)
				state = normal
				continue
			}
			switch {
			case z == 0:
				m.out.zscii(' ')
				alpha = 0
			case z <= 3:
				pending = z
				state = abbrev
				alpha = 0
			case z == 4:
				alpha = 1
			case z == 5:
				alpha = 2
			case alpha == 2 && z == 6:
				state = escHigh
				alpha = 0
			case alpha == 2 && z == 7:
				m.out.zscii(13)
				alpha = 0
			default:
				m.out.zscii(m.alphabetChar(alpha, z))
				alpha = 0
			}
		}
		if w&0x8000 != 0 {
			return addr
		}
	}
}

// zsciiToRune converts an output ZSCII code to Unicode; 0 means the code
// prints nothing.
func (m *Machine) zsciiToRune(c uint16) rune {
	switch {
	case c >= 32 && c <= 126:
		return rune(c)
	case c == 13 || c == 10:
		return '\n'
	case c >= 155 && c <= 251:
		if t := m.story.unicodeTable; t != 0 {
			n := uint16(m.rb(t))
			if c-155 < n {
				return rune(m.rw(t + 1 + 2*uint32(c-155)))
			}
			return '?'
		}
		if c <= 223 {
			return defaultUnicode[c-155]
		}
		return '?'
	}
	return 0
}

// runeToZSCII converts an input character to ZSCII, or 0 if it has no
// ZSCII code.
func (m *Machine) runeToZSCII(r rune) uint16 {
	switch {
	case r == '\n' || r == '\r':
		return 13
	case r >= 32 && r <= 126:
		return uint16(r)
	}
	if t := m.story.unicodeTable; t != 0 {
		n := uint32(m.rb(t))
		for i := uint32(0); i < n; i++ {
			if rune(m.rw(t+1+2*i)) == r {
				return uint16(155 + i)
			}
		}
		return 0
	}
	for i, u := range defaultUnicode {
		if u == r {
			return uint16(155 + i)
		}
	}
	return 0
}

// encodeWord encodes the ZSCII characters of word as a dictionary entry
// (Standard §3.7): 6 Z-characters in 4 bytes before version 4, else 9 in 6
// bytes, padded with 5s. It writes into out and returns the byte count.
func (m *Machine) encodeWord(word []uint16, out *[6]byte) int {
	n := 6
	if m.story.version >= 4 {
		n = 9
	}
	var zc [12]uint16
	k := 0
	for _, c := range word {
		if k >= n {
			break
		}
		if z, a, ok := m.findInAlphabet(c); ok {
			if a != 0 {
				zc[k] = uint16(3 + a)
				k++
				if k >= n {
					break
				}
			}
			zc[k] = z
			k++
			continue
		}
		// Escape: shift to A2, Z-character 6, then the code in two halves.
		for _, z := range [4]uint16{5, 6, c >> 5 & 0x1f, c & 0x1f} {
			if k >= n {
				break
			}
			zc[k] = z
			k++
		}
	}
	for ; k < n; k++ {
		zc[k] = 5
	}
	bytes := n / 3 * 2
	for i := 0; i < n/3; i++ {
		w := zc[3*i]<<10 | zc[3*i+1]<<5 | zc[3*i+2]
		if i == n/3-1 {
			w |= 0x8000
		}
		out[2*i] = byte(w >> 8)
		out[2*i+1] = byte(w)
	}
	return bytes
}

// findInAlphabet finds ZSCII code c in the alphabets: its Z-character and
// alphabet number.
func (m *Machine) findInAlphabet(c uint16) (z uint16, alphabet int, ok bool) {
	for a := 0; a < 3; a++ {
		for z := uint16(6); z < 32; z++ {
			if a == 2 && z < 8 {
				continue
			}
			if m.alphabetChar(a, z) == c {
				return z, a, true
			}
		}
	}
	return 0, 0, false
}
