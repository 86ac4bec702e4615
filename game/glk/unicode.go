package glk

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Latin-1 case tables, as cheapglk builds them: A-Z and 0xC0-0xDE
// (not 0xD7) against their lower-case forms.
func latin1Lower(c byte) byte {
	if c >= 'A' && c <= 'Z' || c >= 0xC0 && c <= 0xDE && c != 0xD7 {
		return c + 0x20
	}
	return c
}

func latin1Upper(c byte) byte {
	if c >= 'a' && c <= 'z' || c >= 0xE0 && c <= 0xFE && c != 0xF7 {
		return c - 0x20
	}
	return c
}

const (
	caseLower = iota
	caseUpper
	caseTitle
)

var (
	lowerCaser = cases.Lower(language.Und)
	upperCaser = cases.Upper(language.Und)
	titleCaser = cases.Title(language.Und, cases.NoLower)
)

// mapRune maps one character to its case (several characters for some,
// as ß to SS), character by character, as cheapglk's tables do.
func mapRune(c uint32, to int) []uint32 {
	if c > unicode.MaxRune || !utf8.ValidRune(rune(c)) {
		return []uint32{c}
	}
	var s string
	switch to {
	case caseLower:
		s = lowerCaser.String(string(rune(c)))
	case caseUpper:
		s = upperCaser.String(string(rune(c)))
	case caseTitle:
		s = titleCaser.String(string(rune(c)))
	}
	out := make([]uint32, 0, 2)
	for _, r := range s {
		out = append(out, uint32(r))
	}
	return out
}

// changeCase answers buffer_to_*_case_uni: the first numchars characters
// of buf changed, as many as fit written back, the new length returned.
func (g *Glk) changeCase(buf garg, numchars uint32, to int, changeRest bool) (uint32, error) {
	numchars = min(numchars, buf.n)
	in, err := g.loadWords(buf.addr, numchars)
	if err != nil {
		return 0, err
	}
	var out []uint32
	for i, c := range in {
		switch {
		case i == 0:
			out = append(out, mapRune(c, to)...)
		case to == caseTitle && !changeRest:
			out = append(out, c)
		case to == caseTitle:
			out = append(out, mapRune(c, caseLower)...)
		default:
			out = append(out, mapRune(c, to)...)
		}
		if len(out) > maxUniArray {
			break
		}
	}
	n := uint32(len(out))
	if err := g.storeWords(buf.addr, out[:min(n, buf.n)]); err != nil {
		return 0, err
	}
	return n, nil
}

// normalize answers buffer_canon_decompose_uni (NFD) and
// buffer_canon_normalize_uni (NFC).
func (g *Glk) normalize(buf garg, numchars uint32, compose bool) (uint32, error) {
	numchars = min(numchars, buf.n)
	in, err := g.loadWords(buf.addr, numchars)
	if err != nil {
		return 0, err
	}
	f := norm.NFD
	if compose {
		f = norm.NFC
	}
	// Characters no string can hold pass through unchanged, each
	// normalized segment between them on its own.
	var out []uint32
	var seg []rune
	flush := func() {
		for _, r := range f.String(string(seg)) {
			out = append(out, uint32(r))
		}
		seg = seg[:0]
	}
	for _, c := range in {
		if c > unicode.MaxRune || !utf8.ValidRune(rune(c)) {
			flush()
			out = append(out, c)
			continue
		}
		seg = append(seg, rune(c))
	}
	flush()
	n := uint32(len(out))
	if err := g.storeWords(buf.addr, out[:min(n, buf.n)]); err != nil {
		return 0, err
	}
	return n, nil
}

// Latin1 is the text s as cheapglk writes it to a Latin-1 terminal (as
// glulxe runs without -u): each character as one byte, its low eight
// bits. The differential tests compare it with glulxe's standard output.
func Latin1(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, byte(r))
	}
	return out
}
