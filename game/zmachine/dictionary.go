package zmachine

import "unicode"

// DictEntry is one word of a story's dictionary (Standard §13).
type DictEntry struct {
	// Addr is the address of the entry: what the parse buffer holds for
	// the word.
	Addr uint32
	// Word is the word as the dictionary holds it, cut to 6 letters in
	// version 3 and 9 later.
	Word string
	// Data is the rest of the entry after the encoded text. Its meaning
	// is the game's: Infocom's and Inform's parsers keep part-of-speech
	// flags in its first byte.
	Data []byte
}

// Dictionary returns the entries of the story's main dictionary, in the
// order they are stored. A dictionary that runs out of the story file ends
// the list early.
func (m *Machine) Dictionary() (entries []DictEntry) {
	defer func() {
		if r := recover(); r != nil {
			m.out.capture = nil
		}
	}()
	dict := m.story.dictionary
	nsep := uint32(m.rb(dict))
	entryLen := uint32(m.rb(dict + 1 + nsep))
	count := int32(int16(m.rw(dict + 2 + nsep)))
	if count < 0 { // an unsorted dictionary
		count = -count
	}
	textLen := uint32(4)
	if m.story.version >= 4 {
		textLen = 6
	}
	start := dict + 4 + nsep
	for i := uint32(0); i < uint32(count); i++ {
		a := start + i*entryLen
		var word string
		if entryLen >= textLen {
			word = m.capture(func() { m.decodeZString(a, true) })
		}
		var data []byte
		for j := textLen; j < entryLen; j++ {
			data = append(data, m.rb(a+j))
		}
		entries = append(entries, DictEntry{Addr: a, Word: word, Data: data})
	}
	return entries
}

// LookupWord returns the address of word's entry in the main dictionary,
// or 0 if the dictionary lacks it. The word is encoded as the game's parser
// encodes what the player types: in lower case, cut to the dictionary's
// length.
func (m *Machine) LookupWord(word string) (addr uint32) {
	defer func() {
		if recover() != nil {
			addr = 0
		}
	}()
	var zs []uint16
	for _, r := range word {
		c := m.runeToZSCII(unicode.ToLower(r))
		if c == 0 {
			c = '?'
		}
		zs = append(zs, c)
	}
	return m.lookup(m.story.dictionary, zs)
}
