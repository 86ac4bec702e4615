package agent

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The arguments a model writes are JSON more often than not, but not
// always: single quotes, bare keys, trailing commas, Python's True and None,
// curly quotes, or an object cut short when the reply ran out of tokens.
// parseLoose reads all of these and says which liberties it took, so that
// the step can record them as repairs.

// maxLooseDepth bounds the nesting parseLoose follows, so that a hostile
// reply cannot exhaust the stack.
const maxLooseDepth = 32

// looseFix is one liberty parseLoose took: a repair kind and what it did.
type looseFix struct {
	kind   string // RepairSingleQuotes or RepairJSON
	detail string
}

// parseLoose parses s, which should hold one JSON value, as forgivingly as
// it can. It returns the value, the liberties taken (none for valid JSON),
// and ok false when s is not a value at all. Text after the value is
// ignored, and recorded.
func parseLoose(s string) (v any, fixes []looseFix, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil, false
	}
	if json.Valid([]byte(s)) {
		var out any
		if err := json.Unmarshal([]byte(s), &out); err == nil {
			return out, nil, true
		}
	}
	p := &looseParser{s: s}
	v, ok = p.value(0)
	if !ok {
		return nil, nil, false
	}
	p.space()
	if p.i < len(p.s) {
		p.fix(RepairJSON, "ignored text after the JSON value: "+clip(p.s[p.i:], 40))
	}
	return v, p.fixes, true
}

type looseParser struct {
	s     string
	i     int
	fixes []looseFix
	seen  map[string]bool
}

// fix records a liberty once per kind and detail.
func (p *looseParser) fix(kind, detail string) {
	key := kind + "\x00" + detail
	if p.seen[key] {
		return
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[key] = true
	p.fixes = append(p.fixes, looseFix{kind, detail})
}

func (p *looseParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peekRune returns the rune at the cursor and its size (0 at the end).
func (p *looseParser) peekRune() (rune, int) {
	if p.i >= len(p.s) {
		return 0, 0
	}
	return utf8.DecodeRuneInString(p.s[p.i:])
}

// openQuote reports whether r opens a string, and the rune that closes it.
func openQuote(r rune) (rune, bool) {
	switch r {
	case '"':
		return '"', true
	case '\'':
		return '\'', true
	case '\u201c', '\u201d': // “ ”
		return '\u201d', true
	case '\u2018', '\u2019': // ‘ ’
		return '\u2019', true
	}
	return 0, false
}

func (p *looseParser) value(depth int) (any, bool) {
	if depth > maxLooseDepth {
		return nil, false
	}
	p.space()
	r, size := p.peekRune()
	switch {
	case size == 0:
		return nil, false
	case r == '{':
		return p.object(depth)
	case r == '[':
		return p.array(depth)
	}
	if _, ok := openQuote(r); ok {
		return p.str()
	}
	if r == '-' || r == '+' || r == '.' || (r >= '0' && r <= '9') {
		if v, ok := p.number(); ok {
			return v, true
		}
	}
	word := p.word()
	switch word {
	case "":
		return nil, false
	case "true", "false", "null":
		return map[string]any{"true": true, "false": false, "null": nil}[word], true
	case "True", "False", "None", "TRUE", "FALSE", "NULL", "nil":
		p.fix(RepairJSON, "read "+word+" as JSON")
		switch strings.ToLower(word) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		return nil, true
	}
	// A bare word where a value belongs: the model meant a string.
	p.fix(RepairJSON, "quoted a bare word")
	return word, true
}

// word reads a run of letters, digits and '_', '-', '.'.
func (p *looseParser) word() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *looseParser) number() (any, bool) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[p.i]) >= 0 {
		p.i++
	}
	f, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		p.i = start
		return nil, false
	}
	return f, true
}

func (p *looseParser) str() (any, bool) {
	open, size := p.peekRune()
	closeQ, _ := openQuote(open)
	switch open {
	case '\'':
		p.fix(RepairSingleQuotes, "read single-quoted strings")
	case '"':
	default:
		p.fix(RepairJSON, "read curly quotes as straight quotes")
	}
	p.i += size
	var b strings.Builder
	for {
		r, size := p.peekRune()
		if size == 0 {
			p.fix(RepairJSON, "closed an unterminated string")
			return b.String(), true
		}
		p.i += size
		if r == closeQ || (open == '\u201c' && r == '\u201c') || (open == '\u2018' && r == '\u2018') {
			return b.String(), true
		}
		if r != '\\' {
			b.WriteRune(r)
			continue
		}
		e, size := p.peekRune()
		if size == 0 {
			continue
		}
		p.i += size
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if p.i+4 <= len(p.s) {
				if n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32); err == nil {
					b.WriteRune(rune(n))
					p.i += 4
					continue
				}
			}
			b.WriteRune(e)
		default: // \" \' \\ \/ and anything else: the character itself
			b.WriteRune(e)
		}
	}
}

func (p *looseParser) object(depth int) (any, bool) {
	p.i++ // {
	obj := map[string]any{}
	for {
		p.space()
		if p.i >= len(p.s) {
			p.fix(RepairJSON, "closed an unterminated object")
			return obj, true
		}
		switch p.s[p.i] {
		case '}':
			p.i++
			return obj, true
		case ',':
			p.i++
			continue
		}
		var key string
		r, _ := p.peekRune()
		if _, ok := openQuote(r); ok {
			k, _ := p.str()
			key, _ = k.(string)
		} else {
			key = p.word()
			if key == "" {
				// Something that is no key: give up on the rest.
				p.fix(RepairJSON, "ignored what followed an unreadable key")
				p.i = len(p.s)
				return obj, true
			}
			p.fix(RepairJSON, "quoted a bare key")
		}
		p.space()
		if p.i < len(p.s) && (p.s[p.i] == ':' || p.s[p.i] == '=') {
			if p.s[p.i] == '=' {
				p.fix(RepairJSON, "read = as :")
			}
			p.i++
		} else {
			p.fix(RepairJSON, "added a missing colon")
		}
		v, ok := p.value(depth + 1)
		if !ok {
			p.fix(RepairJSON, "a key with no value")
			obj[key] = nil
			if depth+1 > maxLooseDepth {
				p.i = len(p.s)
			}
			continue
		}
		obj[key] = v
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.fix(RepairJSON, "dropped a trailing comma")
			}
		}
	}
}

func (p *looseParser) array(depth int) (any, bool) {
	p.i++ // [
	arr := []any{}
	for {
		p.space()
		if p.i >= len(p.s) {
			p.fix(RepairJSON, "closed an unterminated array")
			return arr, true
		}
		switch p.s[p.i] {
		case ']':
			p.i++
			return arr, true
		case ',':
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.fix(RepairJSON, "dropped a trailing comma")
			}
			continue
		}
		v, ok := p.value(depth + 1)
		if !ok {
			p.fix(RepairJSON, "ignored what followed an unreadable array element")
			p.i = len(p.s)
			return arr, true
		}
		arr = append(arr, v)
	}
}

// clip shortens s to at most n runes for a repair's detail.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}
