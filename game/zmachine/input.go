package zmachine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Input: reading lines and keys, the lexical analysis of a line against a
// dictionary (Standard §13), and the prompts for save and restore files.

// inputRequest records what the machine stopped to wait for.
type inputRequest struct {
	kind State
	// Line input: the text and parse buffers of the read instruction.
	text, parse uint32
	// File input: what the name is for, and for auxiliary saves the table
	// and its length.
	file      fileOp
	table     uint32
	tableLen  uint16
	name      string // the file name given, while confirming an overwrite
	overwrite bool   // the next line answers "Overwrite existing file?"
}

type fileOp int

const (
	fileSave fileOp = iota + 1
	fileRestore
	fileSaveAux
	fileRestoreAux
)

// beginRead stops the machine for a line of input (sread/aread). The
// program counter is left on the store byte (version 5 and later), which
// finishRead consumes.
func (m *Machine) beginRead() {
	m.in = inputRequest{kind: WaitLine, text: uint32(m.ops[0])}
	if m.nops > 1 {
		m.in.parse = uint32(m.ops[1])
	}
	if m.story.version <= 4 && m.in.parse == 0 {
		fail("read without a parse buffer")
	}
	m.state = WaitLine
}

// supply hands the waiting machine its input and completes the
// instruction that asked for it.
// It runs inside run, so a fault here (a broken buffer address) becomes
// an *Error like any other.
func (m *Machine) supply(input string) {
	switch m.in.kind {
	case WaitLine:
		if m.out.recordOn {
			m.out.record = append(append(m.out.record, input...), '\n')
		}
		m.finishRead(input)
	case WaitKey:
		if m.out.recordOn {
			m.out.record = append(append(m.out.record, input...), '\n')
		}
		m.store(m.keyCode(input))
	case WaitFile:
		m.finishFile(input)
		return
	}
	m.state = running
}

// keyCode is the ZSCII code read_char stores for a line of input: its first
// character, '?' when that has no ZSCII code, and newline (13) for an empty
// line.
func (m *Machine) keyCode(input string) uint16 {
	if input == "" {
		return 13
	}
	r, _ := utf8.DecodeRuneInString(input)
	if c := m.runeToZSCII(r); c != 0 {
		return c
	}
	return '?'
}

// finishRead stores a line of input in the text buffer, tokenises it into
// the parse buffer and, in version 5 and later, stores the terminator.
func (m *Machine) finishRead(input string) {
	text := m.in.text
	max := int(m.rb(text))
	if m.story.version <= 4 {
		max--
	}
	if max < 0 {
		max = 0
	}
	input = strings.TrimRight(input, "\r\n")
	var n int
	start := text + 1
	if m.story.version >= 5 {
		start = text + 2
	}
	for _, r := range input {
		if n >= max {
			break
		}
		c := m.runeToZSCII(unicode.ToLower(r))
		if c == 0 || c == 13 {
			c = '?'
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		m.wb(start+uint32(n), byte(c))
		n++
	}
	if m.story.version <= 4 {
		m.wb(start+uint32(n), 0)
	} else {
		m.wb(text+1, byte(n))
	}
	if m.in.parse != 0 {
		m.tokenise(text, m.in.parse, 0, false)
	}
	if m.story.version >= 5 {
		m.store(13)
	}
}

// tokenise splits the text buffer into words, looks each up in the
// dictionary (the story's own when dict is 0) and fills the parse buffer.
// With skipUnknown set, entries of words not in the dictionary are left as
// they were.
func (m *Machine) tokenise(text, parse, dict uint32, skipUnknown bool) {
	if dict == 0 {
		dict = m.story.dictionary
	}
	var start, length uint32
	if m.story.version <= 4 {
		start = text + 1
		for length = 0; m.rb(start+length) != 0; length++ {
		}
	} else {
		start = text + 2
		length = uint32(m.rb(text + 1))
	}
	m.charge(int(length) * int(m.rb(dict)))
	nsep := uint32(m.rb(dict))
	isSep := func(c byte) bool {
		for i := uint32(0); i < nsep; i++ {
			if m.rb(dict+1+i) == c {
				return true
			}
		}
		return false
	}
	maxWords := int(m.rb(parse))
	words := 0
	var word [64]uint16
	i := uint32(0)
	for i < length && words < maxWords {
		c := m.rb(start + i)
		if c == ' ' {
			i++
			continue
		}
		wstart := i
		if isSep(c) {
			i++
		} else {
			for i < length {
				c = m.rb(start + i)
				if c == ' ' || isSep(c) {
					break
				}
				i++
			}
		}
		n := 0
		for j := wstart; j < i && n < len(word); j++ {
			word[n] = uint16(m.rb(start + j))
			n++
		}
		entry := m.lookup(dict, word[:n])
		slot := parse + 2 + 4*uint32(words)
		if entry != 0 || !skipUnknown {
			m.ww(slot, uint16(entry))
			m.wb(slot+2, byte(i-wstart))
			m.wb(slot+3, byte(wstart+start-text))
		}
		words++
	}
	m.wb(parse+1, byte(words))
}

// lookup finds the encoded word in dictionary dict and returns the
// address of its entry, or 0.
func (m *Machine) lookup(dict uint32, word []uint16) uint32 {
	var key [6]byte
	n := uint32(m.encodeWord(word, &key))
	nsep := uint32(m.rb(dict))
	entryLen := uint32(m.rb(dict + 1 + nsep))
	count := int16(m.rw(dict + 2 + nsep))
	base := dict + 4 + nsep
	cmp := func(a uint32) int {
		for i := uint32(0); i < n; i++ {
			b := m.rb(a + i)
			if b != key[i] {
				if b < key[i] {
					return -1
				}
				return 1
			}
		}
		return 0
	}
	if entryLen < n {
		return 0
	}
	if count < 0 { // unsorted: linear search
		m.charge(int(-int32(count)) * int(entryLen))
		for i := uint32(0); i < uint32(-int32(count)); i++ {
			if cmp(base+i*entryLen) == 0 {
				return base + i*entryLen
			}
		}
		return 0
	}
	lo, hi := 0, int(count)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		a := base + uint32(mid)*entryLen
		switch cmp(a) {
		case 0:
			return a
		case -1:
			lo = mid + 1
		default:
			hi = mid - 1
		}
	}
	return 0
}

// encodeText implements encode_text: the dictionary encoding of length
// ZSCII characters at text+from, written to coded.
func (m *Machine) encodeText(text uint32, length int, from, coded uint32) {
	var word [64]uint16
	n := 0
	for i := 0; i < length && n < len(word); i++ {
		word[n] = uint16(m.rb(text + from + uint32(i)))
		n++
	}
	var key [6]byte
	k := m.encodeWord(word[:n], &key)
	for i := 0; i < k; i++ {
		m.wb(coded+uint32(i), key[i])
	}
}

// askFile stops the machine for a file name, as Frotz's prompt does. The
// program counter stays on the save or restore instruction's branch or
// store byte, which finishFile consumes.
func (m *Machine) askFile(op fileOp, table uint32, n uint16) {
	def := m.lastFile
	if op == fileSaveAux || op == fileRestoreAux {
		def = m.opts.Name + ".aux"
	}
	m.in = inputRequest{kind: WaitFile, file: op, table: table, tableLen: n, name: def}
	m.out.text("Please enter a filename [" + def + "]: ")
	m.state = WaitFile
}

// finishFile takes the file name (or the answer to "Overwrite existing
// file?"), saves or restores, and stores or branches on the result.
func (m *Machine) finishFile(input string) {
	req := m.in
	name := strings.TrimSpace(input)
	m.state = running
	if req.overwrite {
		if !strings.HasPrefix(strings.ToLower(name), "y") {
			m.fileResult(false, 0)
			return
		}
		name = req.name
	} else {
		if name == "" {
			name = req.name
		}
		if req.file == fileSave || req.file == fileSaveAux {
			if _, err := m.files.ReadFile(name); err == nil {
				m.in.overwrite = true
				m.in.name = name
				m.out.text("Overwrite existing file? ")
				m.state = WaitFile
				return
			}
		}
	}
	switch req.file {
	case fileSave:
		m.lastFile = name
		err := m.files.WriteFile(name, m.saveQuetzal(m.pc))
		m.fileResult(err == nil, 1)
	case fileRestore:
		m.lastFile = name
		data, err := m.files.ReadFile(name)
		if err != nil {
			m.fileResult(false, 0)
			return
		}
		keep := m.dyn[0x11] & 0x03
		pc, err := m.loadQuetzal(data)
		if err != nil {
			m.fileResult(false, 0)
			return
		}
		m.pc = pc
		m.setHeader()
		m.dyn[0x11] = m.dyn[0x11]&^0x03 | keep
		m.fileResult(true, 2)
	case fileSaveAux:
		buf := make([]byte, req.tableLen)
		for i := range buf {
			buf[i] = m.rb(req.table + uint32(i))
		}
		err := m.files.WriteFile(name, buf)
		m.fileResult(err == nil, 1)
	case fileRestoreAux:
		data, err := m.files.ReadFile(name)
		if err != nil {
			m.fileResult(false, 0)
			return
		}
		n := min(len(data), int(req.tableLen))
		for i := 0; i < n; i++ {
			m.wb(req.table+uint32(i), data[i])
		}
		m.store(uint16(n))
	}
}

// fileResult completes a save or restore: version 3 branches on success,
// later versions store the result (1 saved, 2 restored, 0 failed).
func (m *Machine) fileResult(ok bool, value uint16) {
	if m.story.version <= 3 {
		m.branch(ok)
		return
	}
	if !ok {
		value = 0
	}
	m.store(value)
}
