package zmachine

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Output: the four output streams (Standard §7) and the two windows of
// versions 3 to 5, 7 and 8 (§8). The lower window is a stream of text, handed
// back by each Step; the upper window is a grid of characters that
// UpperWindow reads. Styles, colours and fonts do not change the text and are
// accepted without effect.

// memStream is one open output stream 3: text goes to the table at addr.
type memStream struct {
	addr  uint32
	count uint16
}

// maxStepOutput bounds the text one Start or Step may print: a broken
// story can print far more per instruction than the instruction budget
// suggests (a string of abbreviations, say), and must fail, not exhaust
// memory.
const maxStepOutput = 4 << 20

type output struct {
	m *Machine

	lower        []byte // lower-window text since the Step began (UTF-8)
	printed      int    // characters sent to the lower window this Step
	transcript   []byte // stream 2
	transcriptOn bool
	record       []byte // stream 4: the player's input, a line each
	recordOn     bool
	screenOff    bool // stream 1 deselected

	mem      [16]memStream // stream 3, nested
	memDepth int

	// capture, while non-nil, receives all printed text instead of the
	// streams (used to read object names for the status line).
	capture *[]byte

	window      int // 0 lower, 1 upper
	upperHeight int
	upper       [][]rune // rows of the upper window, Width runes each
	// written marks the upper window's rows where visible text changed
	// since UpperChanges last looked (display state, not game state).
	written  []bool
	row, col int // upper-window cursor, 0-based
	font     uint16
	style    uint16 // set_text_style: 1 reverse, 2 bold, 4 italic, 8 fixed

	// dfrotz makes the lower window behave as dfrotz 2.54's screen does
	// where that loses text: bold and italic characters are left out, and
	// a restart or erase_window -1 or -2 wipes what the step printed
	// before it. Only the
	// differential tests set it, to compare with dfrotz's transcripts;
	// grue itself keeps all the text.
	dfrotz bool
	// keyRow is, in dfrotz mode, the lower window's text since its last
	// newline: dfrotz shows that row again, with what follows it, when it
	// next reads a line after a key.
	keyRow []byte
}

func (o *output) init(m *Machine) {
	o.m = m
	o.lower = make([]byte, 0, 4096)
}

// reset returns the screen to its start-up state (for New and restart).
func (o *output) reset() {
	o.screenOff = false
	o.memDepth = 0
	o.window = 0
	o.upperHeight = 0
	o.upper = o.upper[:0]
	o.written = o.written[:0]
	o.row, o.col = 0, 0
	o.font = 1
	o.style = 0
}

func (o *output) beginStep() {
	o.lower = o.lower[:0]
	o.printed = 0
}

func (o *output) endStep() string {
	if o.dfrotz {
		if i := strings.LastIndexByte(string(o.lower), '\n'); i >= 0 {
			o.keyRow = append(o.keyRow[:0], o.lower[i+1:]...)
		} else {
			o.keyRow = append(o.keyRow, o.lower...)
		}
	}
	return string(o.lower)
}

func (o *output) write(s string) { o.lower = append(o.lower, s...) }

// zscii sends one ZSCII character to the selected output streams. ZSCII 0
// prints nothing, not even to stream 3 (Standard §3.8.2.1).
func (o *output) zscii(c uint16) {
	if c == 0 {
		return
	}
	if o.capture != nil {
		if r := o.m.zsciiToRune(c); r != 0 {
			*o.capture = utf8.AppendRune(*o.capture, r)
		}
		return
	}
	if o.memDepth > 0 {
		s := &o.mem[o.memDepth-1]
		if c == 10 {
			c = 13
		}
		o.m.wb(s.addr+2+uint32(s.count), byte(c))
		s.count++
		return
	}
	if r := o.m.zsciiToRune(c); r != 0 {
		o.screen(r)
	}
}

// unicode sends a Unicode character (print_unicode) to the streams.
func (o *output) unicode(r rune) {
	if o.capture != nil {
		*o.capture = utf8.AppendRune(*o.capture, r)
		return
	}
	if o.memDepth > 0 {
		c := o.m.runeToZSCII(r)
		if c == 0 {
			c = '?'
		}
		o.zscii(c)
		return
	}
	if r == 13 || r == 10 {
		r = '\n'
	}
	if r < 32 && r != '\n' {
		return
	}
	o.screen(r)
}

// text prints a Go string (interpreter messages such as file prompts).
func (o *output) text(s string) {
	for _, r := range s {
		if r == '\n' {
			o.zscii(13)
		} else {
			o.unicode(r)
		}
	}
}

// screen sends a printable character to streams 1 and 2.
func (o *output) screen(r rune) {
	if o.window == 1 {
		if !o.screenOff {
			o.putUpper(r)
		}
		return
	}
	if o.dfrotz && o.style&6 != 0 && r != '\n' {
		return
	}
	o.m.left-- // printing is work the budget bounds too
	if o.printed++; o.printed > maxStepOutput {
		fail("the story printed more than %d characters in one step", maxStepOutput)
	}
	if !o.screenOff {
		o.lower = utf8.AppendRune(o.lower, r)
	}
	if o.transcriptOn {
		o.transcript = utf8.AppendRune(o.transcript, r)
	}
}

func (o *output) putUpper(r rune) {
	if r == '\n' {
		o.row++
		o.col = 0
		return
	}
	if o.row >= o.upperHeight || o.col >= o.m.opts.Width {
		return
	}
	o.growUpper()
	if o.style&styleHidden != 0 {
		// dfrotz shows reverse, bold and italic text in the upper window
		// as blanks; the character is kept for UpperWindow.
		r |= hiddenRune
	} else if r != ' ' && o.upper[o.row][o.col] != r {
		// Like dfrotz, a row counts as written when a visible character
		// changes: drawing the same status line again shows nothing.
		o.written[o.row] = true
	}
	o.upper[o.row][o.col] = r
	o.col++
}

// styleHidden are the styles dfrotz does not show in the upper window:
// reverse, bold and italic.
const styleHidden = 7

// hiddenRune marks an upper-window character printed in a style in
// styleHidden (beyond every Unicode code point).
const hiddenRune = 1 << 30

// growUpper makes sure the grid has upperHeight rows.
func (o *output) growUpper() {
	for len(o.upper) < o.upperHeight {
		row := make([]rune, o.m.opts.Width)
		for i := range row {
			row[i] = ' '
		}
		o.upper = append(o.upper, row)
	}
	for len(o.written) < len(o.upper) {
		o.written = append(o.written, false)
	}
}

func (o *output) splitWindow(n int) {
	if n < 0 {
		n = 0
	}
	if n > o.m.opts.Height {
		n = o.m.opts.Height
	}
	o.upperHeight = n
	if len(o.upper) > n {
		o.upper = o.upper[:n]
	}
	if len(o.written) > n {
		o.written = o.written[:n]
	}
	if o.m.story.version == 3 {
		o.eraseUpper()
	}
	if o.row >= n {
		o.row, o.col = 0, 0
	}
	if n == 0 {
		o.window = 0
	}
}

func (o *output) setWindow(w int) {
	o.window = w
	if w == 1 {
		o.row, o.col = 0, 0
	}
}

func (o *output) eraseUpper() {
	for _, row := range o.upper {
		for i := range row {
			row[i] = ' '
		}
	}
}

func (o *output) eraseWindow(w int16) {
	if o.dfrotz && w < 0 {
		// dfrotz clears its screen before it shows what this step
		// printed so far.
		o.lower = o.lower[:0]
		o.keyRow = o.keyRow[:0]
	}
	switch w {
	case -1:
		o.splitWindow(0)
		o.eraseUpper()
		o.window = 0
	case -2:
		o.eraseUpper()
	case 1:
		o.eraseUpper()
	}
}

func (o *output) setCursor(line, col int) {
	if o.window != 1 {
		return
	}
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	o.row, o.col = line-1, col-1
}

func (o *output) eraseLine() {
	if o.window != 1 || o.row >= len(o.upper) {
		return
	}
	row := o.upper[o.row]
	for i := o.col; i < len(row); i++ {
		row[i] = ' '
	}
}

// selectStream implements output_stream (Standard §7.1).
func (o *output) selectStream(n int16, table uint32) {
	switch n {
	case 1:
		o.screenOff = false
	case -1:
		o.screenOff = true
	case 2:
		o.transcriptOn = true
		o.m.dyn[0x11] |= 1
	case -2:
		o.transcriptOn = false
		o.m.dyn[0x11] &^= 1
	case 3:
		if o.memDepth == len(o.mem) {
			fail("output stream 3 opened more than %d deep", len(o.mem))
		}
		o.mem[o.memDepth] = memStream{addr: table}
		o.memDepth++
	case -3:
		if o.memDepth == 0 {
			return
		}
		o.memDepth--
		s := o.mem[o.memDepth]
		o.m.ww(s.addr, s.count)
	case 4:
		o.recordOn = true
	case -4:
		o.recordOn = false
	case 0:
	default:
		fail("output_stream %d does not exist", n)
	}
}

// upperText returns the upper window as text.
func (o *output) upperText() string {
	var sb strings.Builder
	n := len(o.upper)
	for n > 0 && strings.TrimRight(rowText(o.upper[n-1], false), " ") == "" {
		n--
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(strings.TrimRight(rowText(o.upper[i], false), " "))
	}
	return sb.String()
}

// rowText is one upper-window row as text; with dfrotz set, characters
// printed in a hidden style are blanks, as dfrotz shows them.
func rowText(row []rune, dfrotz bool) string {
	var sb strings.Builder
	for _, r := range row {
		if r&hiddenRune != 0 {
			r &^= hiddenRune
			if dfrotz {
				r = ' '
			}
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// UpperChanges returns the rows of the upper window where the game changed
// visible text since the last call, as dfrotz shows them when it waits
// for input: from the first such row to the last, a single row left alone
// between two written ones shown too and a longer run of them as one empty
// line; text in reverse, bold or italic as blanks; trailing spaces removed;
// each row ending in a newline. It returns "" when nothing was written.
// Menus, title screens and box quotes live in the upper window: a plain
// transcript (grue play --plain) prints this before each reply.
func (m *Machine) UpperChanges() string {
	o := &m.out
	first, last := -1, -1
	for r, w := range o.written {
		if w && r < len(o.upper) {
			if first < 0 {
				first = r
			}
			last = r
		}
	}
	if first < 0 {
		return ""
	}
	changed := func(r int) bool { return r < len(o.written) && o.written[r] }
	var sb strings.Builder
	for r := first; r <= last; r++ {
		if changed(r) || changed(r+1) {
			sb.WriteString(strings.TrimRight(rowText(o.upper[r], true), " "))
		} else {
			for !changed(r + 1) {
				r++
			}
		}
		sb.WriteByte('\n')
	}
	for i := range o.written {
		o.written[i] = false
	}
	return sb.String()
}

// capture runs f with everything it prints collected into a string.
func (m *Machine) capture(f func()) string {
	var buf []byte
	saved := m.out.capture
	m.out.capture = &buf
	defer func() { m.out.capture = saved }()
	f()
	return string(buf)
}

// statusLineV3 builds the version 3 status line from the globals: the name
// of the location in global 0, then the score and moves (globals 1 and 2),
// or the time for games that set bit 1 of Flags 1.
func (m *Machine) statusLineV3() (line string) {
	defer func() {
		if recover() != nil {
			line = ""
		}
	}()
	room := m.capture(func() { m.printObj(m.Global(0)) })
	var right string
	if m.dyn[0x01]&0x02 != 0 {
		h, min := int(m.Global(1)), int(m.Global(2))
		ampm := "AM"
		if h >= 12 {
			ampm = "PM"
		}
		if h%12 == 0 {
			h += 12
		}
		right = fmt.Sprintf("Time: %d:%02d %s", (h-1)%12+1, min, ampm)
	} else {
		right = fmt.Sprintf("Score: %d  Moves: %d", int16(m.Global(1)), m.Global(2))
	}
	pad := m.opts.Width - utf8.RuneCountInString(room) - len(right) - 2
	if pad < 1 {
		pad = 1
	}
	return room + strings.Repeat(" ", pad) + right
}

// cursor returns the cursor position (1-based) for get_cursor. The lower
// window has no grid here; its cursor is reported on the bottom line.
func (o *output) cursor() (row, col int) {
	if o.window == 1 {
		return o.row + 1, o.col + 1
	}
	return o.m.opts.Height, 1
}

// setStyle implements set_text_style: 0 is roman, other styles combine.
func (o *output) setStyle(s uint16) {
	if s == 0 {
		o.style = 0
		return
	}
	o.style |= s & 0x0f
}

// setFont implements set_font: font 1 (normal) and 4 (fixed pitch) exist;
// 0 asks for the current font. It returns the previous font, or 0 if the
// font asked for is unavailable.
func (o *output) setFont(f uint16) uint16 {
	prev := o.font
	switch f {
	case 0:
		return prev
	case 1, 4:
		o.font = f
		return prev
	}
	return 0
}
