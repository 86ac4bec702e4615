package glk

import (
	"errors"
	"fmt"
	"io/fs"
	"unicode/utf8"
)

// Bounds of output: the main window's untaken text, and the depth of
// echo streams (a window echoing into itself would otherwise never end).
const (
	maxOutput    = 16 << 20
	maxEchoDepth = 8
)

// File modes and seek modes.
const (
	filemodeWrite       = 1
	filemodeRead        = 2
	filemodeReadWrite   = 3
	filemodeWriteAppend = 5

	seekmodeStart   = 0
	seekmodeCurrent = 1
	seekmodeEnd     = 2
)

func (g *Glk) newStream(typ int, readable, writable bool, rock uint32) (*stream, error) {
	id, err := g.newID(classStream)
	if err != nil {
		return nil, err
	}
	s := &stream{id: id, rock: rock, typ: typ, readable: readable, writable: writable}
	g.st.streams[id] = s
	g.st.strOrder = append(g.st.strOrder, id)
	return s, nil
}

// deleteStream closes s: a Unicode memory stream's array goes back to
// memory, a file's bytes to the file store.
func (g *Glk) deleteStream(s *stream) error {
	var err error
	if g.st.current == s {
		g.st.current = nil
	}
	for _, w := range g.st.windows {
		if w.echo == s.id {
			w.echo = 0
		}
	}
	switch s.typ {
	case strMemory:
		if s.unicode && s.ubuf != nil {
			for i, v := range s.ubuf {
				if e := g.mem.Store32(s.bufAddr+uint32(i)*4, v); e != nil {
					err = e
					break
				}
			}
		}
	case strFile:
		err = g.flushFile(s)
	}
	delete(g.st.streams, s.id)
	g.st.strOrder = removeID(g.st.strOrder, s.id)
	return err
}

func (g *Glk) flushFile(s *stream) error {
	if s.typ != strFile || !s.dirty {
		return nil
	}
	s.dirty = false
	return g.opts.Files.WriteFile(s.fileName, s.data)
}

// flushFiles writes every file stream's bytes to the store (when the
// story waits for input, so that a transcript left open is readable).
func (g *Glk) flushFiles() error {
	for _, id := range g.st.strOrder {
		if err := g.flushFile(g.st.streams[id]); err != nil {
			return err
		}
	}
	return nil
}

func (g *Glk) openFile(f *fileref, fmode uint32, rock uint32, uni bool) (uint32, error) {
	switch fmode {
	case filemodeWrite, filemodeRead, filemodeReadWrite, filemodeWriteAppend:
	default:
		return 0, fmt.Errorf("illegal file mode %d", fmode)
	}
	if f.unusable {
		if fmode == filemodeRead {
			return 0, nil
		}
		return 0, g.warn("stream_open_file: unable to open file.")
	}
	var data []byte
	if fmode != filemodeWrite {
		b, err := g.opts.Files.ReadFile(f.name)
		switch {
		case err == nil:
			data = b
		case errors.Is(err, fs.ErrNotExist):
			if fmode == filemodeRead {
				return 0, nil // cheapglk: a missing file opens as nothing
			}
		default:
			return 0, err
		}
	}
	s, err := g.newStream(strFile, fmode == filemodeRead || fmode == filemodeReadWrite, fmode != filemodeRead, rock)
	if err != nil {
		return 0, err
	}
	s.binary = !f.textmode
	s.unicode = uni
	s.fileName = f.name
	s.data = data
	if fmode == filemodeWriteAppend {
		s.dpos = len(data)
	}
	if fmode != filemodeRead {
		// fopen creates (or truncates) the file at once
		s.dirty = true
		if err := g.flushFile(s); err != nil {
			g.deleteStream(s)
			return 0, err
		}
	}
	return s.id, nil
}

func (g *Glk) outputRune(c uint32) error {
	if g.st.out.Len() >= maxOutput {
		return fmt.Errorf("the main window's text is over %d bytes and nobody takes it", maxOutput)
	}
	if c < utf8.RuneSelf {
		g.st.out.WriteByte(byte(c))
	} else {
		g.st.out.WriteRune(rune(c))
	}
	return nil
}

func (s *stream) fileWrite(b ...byte) error {
	if len(s.data)+len(b) > MaxFileSize && s.dpos+len(b) > len(s.data) {
		return fmt.Errorf("file %q would be over %d bytes", s.fileName, MaxFileSize)
	}
	if s.dpos > len(s.data) {
		// written past the end after a seek: the gap reads as zeros
		s.data = append(s.data, make([]byte, s.dpos-len(s.data))...)
	}
	for _, c := range b {
		if s.dpos < len(s.data) {
			s.data[s.dpos] = c
		} else {
			s.data = append(s.data, c)
		}
		s.dpos++
	}
	s.dirty = true
	return nil
}

func utf8Bytes(c uint32) []byte {
	switch {
	case c < 0x80:
		return []byte{byte(c)}
	case c < 0x800:
		return []byte{0xC0 | byte((c&0x7C0)>>6), 0x80 | byte(c&0x3F)}
	case c < 0x10000:
		return []byte{0xE0 | byte((c&0xF000)>>12), 0x80 | byte((c&0xFC0)>>6), 0x80 | byte(c&0x3F)}
	case c < 0x200000:
		return []byte{0xF0 | byte((c&0x1C0000)>>18), 0x80 | byte((c&0x3F000)>>12), 0x80 | byte((c&0xFC0)>>6), 0x80 | byte(c&0x3F)}
	}
	return []byte{'?'}
}

// putChar writes c to s as glk_put_char_stream (uni false, c a byte) or
// glk_put_char_stream_uni (uni true) do in cheapglk.
func (g *Glk) putChar(s *stream, c uint32, uni bool) error {
	return g.putCharDepth(s, c, uni, 0)
}

func (g *Glk) putCharDepth(s *stream, c uint32, uni bool, depth int) error {
	if s == nil || !s.writable {
		return nil
	}
	if !uni {
		c &= 0xFF
	}
	s.writecnt++
	switch s.typ {
	case strMemory:
		if s.unicode {
			if s.pos < uint32(len(s.ubuf)) {
				s.ubuf[s.pos] = c
				s.pos++
				s.eof = max(s.eof, s.pos)
			}
			return nil
		}
		if c >= 0x100 {
			c = '?'
		}
		if s.pos < s.bufLen {
			if err := g.mem.Store8(s.bufAddr+s.pos, byte(c)); err != nil {
				return err
			}
			s.pos++
			s.eof = max(s.eof, s.pos)
		}
	case strWindow:
		w := g.st.windows[s.win]
		if w == nil {
			return nil
		}
		if w.lineReq {
			// cheapglk prints nothing to a window awaiting a line, but says so
			msg := "put_char: window has pending line request"
			if uni {
				msg = "put_char_uni: window has pending line request"
			}
			return g.warn(msg)
		}
		switch w.typ {
		case wintypeTextBuffer:
			if w.id == g.st.mainWin {
				if err := g.outputRune(c); err != nil {
					return err
				}
			}
		case wintypeTextGrid:
			w.gridPut(c)
		}
		if w.echo != 0 && depth < maxEchoDepth {
			if e := g.st.streams[w.echo]; e != nil {
				return g.putCharDepth(e, c, uni, depth+1)
			}
		}
	case strFile:
		switch {
		case !s.unicode:
			if c >= 0x100 {
				c = '?'
			}
			return s.fileWrite(byte(c))
		case !s.binary:
			return s.fileWrite(utf8Bytes(c)...)
		default:
			return s.fileWrite(byte(c>>24), byte(c>>16), byte(c>>8), byte(c))
		}
	}
	return nil
}

// nextByte reads the next byte of a file or resource stream.
func (s *stream) nextByte() (byte, bool) {
	if s.dpos < 0 || s.dpos >= len(s.data) {
		return 0, false
	}
	b := s.data[s.dpos]
	s.dpos++
	return b, true
}

func (s *stream) decodeUTF8() (uint32, bool) {
	v0, ok := s.nextByte()
	if !ok {
		return 0, false
	}
	if v0 < 0x80 {
		return uint32(v0), true
	}
	v1, ok := s.nextByte()
	if !ok || v1&0xC0 != 0x80 {
		return 0, false
	}
	if v0&0xE0 == 0xC0 {
		return uint32(v0&0x1F)<<6 | uint32(v1&0x3F), true
	}
	v2, ok := s.nextByte()
	if !ok || v2&0xC0 != 0x80 {
		return 0, false
	}
	if v0&0xF0 == 0xE0 {
		return uint32(v0&0xF)<<12 | uint32(v1&0x3F)<<6 | uint32(v2&0x3F), true
	}
	if v0&0xF0 != 0xF0 {
		return 0, false
	}
	v3, ok := s.nextByte()
	if !ok || v3&0xC0 != 0x80 {
		return 0, false
	}
	return uint32(v0&0x7)<<18 | uint32(v1&0x3F)<<12 | uint32(v2&0x3F)<<6 | uint32(v3&0x3F), true
}

func (s *stream) decodeBE() (uint32, bool) {
	var c uint32
	for i := 0; i < 4; i++ {
		b, ok := s.nextByte()
		if !ok {
			return 0, false
		}
		c = c<<8 | uint32(b)
	}
	return c, true
}

// getChar reads one character of s as cheapglk's gli_get_char does;
// ok is false at the end (-1).
func (g *Glk) getChar(s *stream, wantUni bool) (uint32, bool, error) {
	if s == nil || !s.readable {
		return 0, false, nil
	}
	var c uint32
	switch s.typ {
	case strResource, strFile:
		var ok bool
		switch {
		case s.typ == strResource && !s.unicode, !s.unicode:
			var b byte
			b, ok = s.nextByte()
			c = uint32(b)
		case s.binary:
			c, ok = s.decodeBE()
		default:
			c, ok = s.decodeUTF8()
		}
		if !ok {
			return 0, false, nil
		}
	case strMemory:
		if s.unicode {
			if s.pos >= uint32(len(s.ubuf)) {
				return 0, false, nil
			}
			c = s.ubuf[s.pos]
		} else {
			if s.pos >= s.bufLen {
				return 0, false, nil
			}
			b, err := g.mem.Load8(s.bufAddr + s.pos)
			if err != nil {
				return 0, false, err
			}
			c = uint32(b)
		}
		s.pos++
	default:
		return 0, false, nil
	}
	s.readcount++
	if !wantUni && c >= 0x100 {
		c = '?'
	}
	return c, true, nil
}

// elemWriter writes the characters a get function reads into an array of
// bytes or of words.
type elemWriter struct {
	g    *Glk
	addr uint32
	uni  bool
}

func (w elemWriter) put(i uint32, c uint32) error {
	if w.uni {
		return w.g.mem.Store32(w.addr+i*4, c)
	}
	if c >= 0x100 {
		c = '?'
	}
	return w.g.mem.Store8(w.addr+i, byte(c))
}

// memAvail cuts n to what a memory stream holds after its position (its
// whole buffer, not only up to its end of data, as cheapglk reads).
func (s *stream) memAvail(n uint32) uint32 {
	size := s.bufLen
	if s.unicode {
		size = uint32(len(s.ubuf))
	}
	if s.pos >= size {
		return 0
	}
	return min(n, size-s.pos)
}

// getBuffer reads up to n characters into the array at addr.
func (g *Glk) getBuffer(s *stream, addr, n uint32, uni bool) (uint32, error) {
	if s == nil || !s.readable {
		return 0, nil
	}
	w := elemWriter{g, addr, uni}
	var count uint32
	if s.typ == strMemory {
		n = s.memAvail(n)
		for ; count < n; count++ {
			c, _, err := g.getChar(s, true)
			if err != nil {
				return count, err
			}
			s.readcount-- // counted below, as cheapglk counts
			if err := w.put(count, c); err != nil {
				return count, err
			}
		}
		s.eof = max(s.eof, s.pos)
		s.readcount += count
		return count, nil
	}
	for ; count < n; count++ {
		c, ok, err := g.getChar(s, true)
		if err != nil || !ok {
			return count, err
		}
		if err := w.put(count, c); err != nil {
			return count, err
		}
	}
	return count, nil
}

// getLine reads a line (up to n-1 characters, the newline included) into
// the array at addr, and a terminating zero after it.
func (g *Glk) getLine(s *stream, addr, n uint32, uni bool) (uint32, error) {
	if s == nil || !s.readable || n == 0 {
		return 0, nil
	}
	w := elemWriter{g, addr, uni}
	n--
	var count uint32
	if s.typ == strMemory {
		n = s.memAvail(n)
	}
	byteFgets := s.typ == strFile && !s.unicode && !uni
	nul := false
	for count < n {
		c, ok, err := g.getChar(s, true)
		if err != nil {
			return count, err
		}
		if !ok {
			break
		}
		if byteFgets && c == 0 && !nul {
			nul = true
		}
		if err := w.put(count, c); err != nil {
			return count, err
		}
		count++
		if c == '\n' {
			break
		}
	}
	if byteFgets && count == 0 {
		return 0, nil // fgets at the end writes nothing
	}
	if err := w.put(count, 0); err != nil {
		return count, err
	}
	if byteFgets && nul {
		// cheapglk answers strlen of what fgets read
		for i := uint32(0); i < count; i++ {
			b, _ := g.mem.Load8(addr + i)
			if b == 0 {
				return i, nil
			}
		}
	}
	return count, nil
}

func (g *Glk) setPosition(s *stream, pos int32, mode uint32) {
	switch s.typ {
	case strMemory:
		p := int64(pos)
		switch mode {
		case seekmodeCurrent:
			p += int64(s.pos)
		case seekmodeEnd:
			p += int64(s.eof)
		}
		p = max(p, 0)
		p = min(p, int64(s.eof))
		s.pos = uint32(p)
	case strResource:
		p := int64(pos)
		switch mode {
		case seekmodeCurrent:
			p += int64(s.dpos)
		case seekmodeEnd:
			p += int64(len(s.data))
		}
		p = max(p, 0)
		p = min(p, int64(len(s.data)))
		s.dpos = int(p)
	case strFile:
		p := int64(pos)
		if s.unicode {
			p *= 4
		}
		switch mode {
		case seekmodeCurrent:
			p += int64(s.dpos)
		case seekmodeEnd:
			p += int64(len(s.data))
		}
		if p < 0 || p > MaxFileSize {
			return // fseek fails, the position stays
		}
		s.dpos = int(p)
	}
}

func (g *Glk) getPosition(s *stream) uint32 {
	switch s.typ {
	case strMemory:
		return s.pos
	case strResource:
		return uint32(s.dpos)
	case strFile:
		if s.unicode {
			return uint32(s.dpos / 4)
		}
		return uint32(s.dpos)
	}
	return 0
}
