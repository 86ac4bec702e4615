package glk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

type funcEntry struct {
	sel   uint32
	name  string
	proto string
}

// A parsed prototype: the arguments of one Glk function.
type protoArg struct {
	ref, passin, passout, nullok, array, retained, ret bool
	typ                                                byte // 'I', 'C', 'Q', 'S', 'U', '['
	sub                                                byte // 'u', 's', 'n', or the class letter
	fields                                             []protoArg
}

type function struct {
	sel    uint32
	name   string
	args   []protoArg // without the return value
	ret    *protoArg
	nvargs int // the Glulx arguments wanted
	impl   func(g *Glk, a []garg) (uint32, error)
}

// garg is one Glk argument, parsed: a plain value, an object id, a
// reference (null or not, its value in and out), an array (address and
// length), a structure (its fields), a string.
type garg struct {
	null   bool     // a reference, array or structure passed as 0
	u      uint32   // the value (in and out), an object id
	addr   uint32   // the address of a reference, array or structure
	n      uint32   // an array's length
	fields []uint32 // a structure's fields
	s      []byte   // an S string
	us     []uint32 // a U string
}

var funcBySel = map[uint32]*function{}

func init() {
	for _, e := range functions {
		f, err := parseProto(e)
		if err != nil {
			// The table is ours; a prototype that does not parse is
			// left out and calls to it refused.
			continue
		}
		funcBySel[e.sel] = f
	}
}

func parseProto(e funcEntry) (*function, error) {
	p := e.proto
	n := 0
	i := 0
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		n = n*10 + int(p[i]-'0')
		i++
	}
	if i == 0 {
		return nil, fmt.Errorf("prototype %q has no count", p)
	}
	f := &function{sel: e.sel, name: e.name}
	for k := 0; k < n; k++ {
		a, j, err := parseArg(p, i)
		if err != nil {
			return nil, err
		}
		i = j
		if a.ret {
			ra := a
			f.ret = &ra
			continue
		}
		f.args = append(f.args, a)
		if a.array {
			f.nvargs += 2
		} else {
			f.nvargs++
		}
	}
	if i < len(p) && p[i] == ':' {
		i++
	}
	if i != len(p) {
		return nil, fmt.Errorf("prototype %q: junk at the end", p)
	}
	return f, nil
}

func parseArg(p string, i int) (protoArg, int, error) {
	a := protoArg{nullok: true}
	for ; i < len(p); i++ {
		switch p[i] {
		case '<':
			a.ref, a.passout = true, true
			continue
		case '>':
			a.ref, a.passin = true, true
			continue
		case '&':
			a.ref, a.passin, a.passout = true, true, true
			continue
		case '+':
			a.nullok = false
			continue
		case ':':
			a.ref, a.passout, a.nullok, a.ret = true, true, false, true
			continue
		case '#':
			a.array = true
			continue
		case '!':
			a.retained = true
			continue
		}
		break
	}
	if i >= len(p) {
		return a, i, errors.New("prototype ends in an argument's prefix")
	}
	a.typ = p[i]
	i++
	switch a.typ {
	case 'I', 'C', 'Q':
		if i >= len(p) {
			return a, i, errors.New("prototype ends in a type")
		}
		a.sub = p[i]
		i++
	case 'S', 'U':
	case '[':
		n := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			n = n*10 + int(p[i]-'0')
			i++
		}
		for k := 0; k < n; k++ {
			fa, j, err := parseArg(p, i)
			if err != nil {
				return a, j, err
			}
			a.fields = append(a.fields, fa)
			i = j
		}
		if i >= len(p) || p[i] != ']' {
			return a, i, errors.New("structure without ]")
		}
		i++
	default:
		return a, i, fmt.Errorf("unknown type %q", a.typ)
	}
	return a, i, nil
}

func funcName(sel uint32) string {
	if f, ok := funcBySel[sel]; ok {
		return "glk_" + f.name
	}
	return fmt.Sprintf("glk function 0x%X", sel)
}

// Bounds of what a call may ask of memory.
const (
	maxString = 1 << 20 // characters of an S or U argument
)

func (g *Glk) call(sel uint32, vargs []uint32) (uint32, error) {
	if g.st.exited {
		return 0, fmt.Errorf("glk: %s: called after glk_exit", funcName(sel))
	}
	if r, err, ok := g.fastCall(sel, vargs); ok {
		return r, err
	}
	f, ok := funcBySel[sel]
	if !ok || f.impl == nil {
		return 0, fmt.Errorf("glk: unknown Glk function 0x%X", sel)
	}
	if len(vargs) != f.nvargs {
		return 0, fmt.Errorf("glk: glk_%s: wrong number of arguments (%d, wants %d)", f.name, len(vargs), f.nvargs)
	}
	a, err := g.parseArgs(f, vargs)
	if err != nil {
		return 0, fmt.Errorf("glk: glk_%s: %w", f.name, err)
	}
	g.calling = f.name
	ret, err := f.impl(g, a)
	g.calling = ""
	if err != nil {
		if errors.Is(err, ErrWait) || errors.Is(err, ErrExit) {
			return 0, err
		}
		return 0, fmt.Errorf("glk: glk_%s: %w", f.name, err)
	}
	if err := g.unparseArgs(f, a); err != nil {
		return 0, fmt.Errorf("glk: glk_%s: %w", f.name, err)
	}
	return ret, nil
}

// fastCall runs the functions glulxe's perform_glk runs without the
// prototypes (the commonest: printing a character, the current stream),
// as it runs them: a stream id that names no stream is a null stream
// (cheapglk's warning), not a fault. ok is false for the others.
func (g *Glk) fastCall(sel uint32, a []uint32) (r uint32, err error, ok bool) {
	want := -1
	switch sel {
	case 0x47, 0x80, 0xA0, 0xA1, 0x128: // stream_set_current, put_char, char_to_lower/upper, put_char_uni
		want = 1
	case 0x48: // stream_get_current
		want = 0
	case 0x81, 0x12B: // put_char_stream, put_char_stream_uni
		want = 2
	default:
		return 0, nil, false
	}
	if len(a) != want {
		return 0, fmt.Errorf("glk: %s: wrong number of arguments (%d, wants %d)", funcName(sel), len(a), want), true
	}
	switch sel {
	case 0x47:
		g.st.current = g.st.streams[a[0]]
	case 0x48:
		r = g.CurrentStream()
	case 0x80:
		err = g.putChar(g.st.current, a[0]&0xFF, false)
	case 0x128:
		err = g.putChar(g.st.current, a[0], true)
	case 0xA0:
		r = uint32(latin1Lower(byte(a[0])))
	case 0xA1:
		r = uint32(latin1Upper(byte(a[0])))
	case 0x81, 0x12B:
		s := g.st.streams[a[0]]
		if s == nil {
			return 0, g.warn("put_char_stream: invalid ref"), true
		}
		err = g.putChar(s, a[1], sel == 0x12B)
	}
	if err != nil {
		err = fmt.Errorf("glk: %s: %w", funcName(sel), err)
	}
	return r, err, true
}

func (g *Glk) memSize() (uint32, bool) {
	if s, ok := g.mem.(Sizer); ok {
		return s.MemSize(), true
	}
	return 0, false
}

// readRef and writeRef read and write a reference argument: a word of
// memory, or of the stack for 0xFFFFFFFF (a read pops, a write pushes).
func (g *Glk) readRef(addr uint32) (uint32, error) { return g.readField(addr, 0) }

func (g *Glk) writeRef(addr, v uint32) error { return g.writeField(addr, 0, v) }

func (g *Glk) parseArgs(f *function, vargs []uint32) ([]garg, error) {
	out := make([]garg, len(f.args))
	vi := 0
	for k := range f.args {
		pa := &f.args[k]
		a := &out[k]
		v := vargs[vi]
		vi++
		if pa.array {
			a.addr, a.n = v, vargs[vi]
			vi++
		}
		if pa.ref && v == 0 {
			if !pa.nullok {
				return nil, fmt.Errorf("argument %d: zero passed invalidly", k+1)
			}
			a.null = true
			continue
		}
		switch {
		case pa.typ == '[':
			a.addr = v
			a.fields = make([]uint32, len(pa.fields))
			if pa.passin {
				for i := range a.fields {
					x, err := g.readField(v, i)
					if err != nil {
						return nil, fmt.Errorf("argument %d: %w", k+1, err)
					}
					a.fields[i] = x
				}
			}
		case pa.array:
			if err := g.checkArray(pa, a); err != nil {
				return nil, fmt.Errorf("argument %d: %w", k+1, err)
			}
		default:
			x := v
			if pa.ref {
				a.addr = v
				x = 0
				if pa.passin {
					var err error
					if x, err = g.readRef(v); err != nil {
						return nil, fmt.Errorf("argument %d: %w", k+1, err)
					}
				}
			}
			switch pa.typ {
			case 'I':
				a.u = x
			case 'C':
				a.u = x & 0xFF
				if pa.sub == 's' {
					a.u = uint32(int32(int8(x)))
				}
			case 'Q':
				if x != 0 && !g.exists(pa.sub, x) {
					return nil, fmt.Errorf("argument %d: reference to nonexistent Glk object %d", k+1, x)
				}
				a.u = x
			case 'S':
				s, err := g.cString(x)
				if err != nil {
					return nil, fmt.Errorf("argument %d: %w", k+1, err)
				}
				a.s = s
			case 'U':
				s, err := g.uString(x)
				if err != nil {
					return nil, fmt.Errorf("argument %d: %w", k+1, err)
				}
				a.us = s
			}
		}
	}
	return out, nil
}

func (g *Glk) readField(addr uint32, i int) (uint32, error) {
	if addr == 0xFFFFFFFF {
		return g.mem.Pop()
	}
	return g.mem.Load32(addr + uint32(i)*4)
}

func (g *Glk) writeField(addr uint32, i int, v uint32) error {
	if addr == 0xFFFFFFFF {
		return g.mem.Push(v)
	}
	return g.mem.Store32(addr+uint32(i)*4, v)
}

// checkArray checks an array against the end of memory, when the VM
// tells it, as glulxe's parse_glk_args does: a character or integer
// array that runs past the end is cut there with glulxe's warning (its
// 32-bit arithmetic and all), then verify_array_addresses refuses what
// still falls outside memory.
func (g *Glk) checkArray(pa *protoArg, a *garg) error {
	end, ok := g.memSize()
	if !ok {
		return nil
	}
	size := uint32(4)
	long := false
	switch pa.typ {
	case 'C':
		size = 1
		long = a.n > end || a.addr+a.n > end
	case 'I':
		long = a.n > end/4 || a.n > (end-a.addr)/4
	}
	if long {
		if err := g.PrintError("Glulxe warning: Memory access was much too long -- perhaps a print_to_array call with only one argument (" + hexnum(int32(a.n)) + ")\n"); err != nil {
			return err
		}
		a.n = (end - a.addr) / size
	}
	// verify_array_addresses
	if a.addr >= end {
		return fmt.Errorf("memory access out of range (array at 0x%X)", a.addr)
	}
	if a.n == 0 {
		return nil
	}
	bytes := a.n * size
	switch {
	case bytes < a.n:
		return fmt.Errorf("memory access way too long (array at 0x%X)", a.addr)
	case bytes > end || a.addr+bytes < a.addr:
		return fmt.Errorf("memory access much too long (array at 0x%X)", a.addr)
	case a.addr+bytes > end:
		return fmt.Errorf("memory access too long (array at 0x%X)", a.addr)
	}
	return nil
}

// hexnum writes a number as glulxe's stream_hexnum does: signed,
// upper-case hexadecimal, no prefix.
func hexnum(v int32) string {
	if v < 0 {
		return "-" + strings.ToUpper(strconv.FormatUint(uint64(-int64(v)), 16))
	}
	return strings.ToUpper(strconv.FormatUint(uint64(v), 16))
}

func (g *Glk) cString(addr uint32) ([]byte, error) {
	b, err := g.mem.Load8(addr)
	if err != nil {
		return nil, err
	}
	if b != 0xE0 {
		return nil, fmt.Errorf("string argument at 0x%X must be unencoded (type 0xE0, not 0x%02X)", addr, b)
	}
	var s []byte
	for a := addr + 1; ; a++ {
		c, err := g.mem.Load8(a)
		if err != nil {
			return nil, err
		}
		if c == 0 {
			return s, nil
		}
		if len(s) >= maxString {
			return nil, fmt.Errorf("string argument at 0x%X is longer than %d", addr, maxString)
		}
		s = append(s, c)
	}
}

func (g *Glk) uString(addr uint32) ([]uint32, error) {
	b, err := g.mem.Load8(addr)
	if err != nil {
		return nil, err
	}
	if b != 0xE2 {
		return nil, fmt.Errorf("a Unicode string argument at 0x%X must be unencoded (type 0xE2, not 0x%02X)", addr, b)
	}
	var s []uint32
	for a := addr + 4; ; a += 4 {
		c, err := g.mem.Load32(a)
		if err != nil {
			return nil, err
		}
		if c == 0 {
			return s, nil
		}
		if len(s) >= maxString {
			return nil, fmt.Errorf("a Unicode string argument at 0x%X is longer than %d", addr, maxString)
		}
		s = append(s, c)
	}
}

func (g *Glk) unparseArgs(f *function, a []garg) error {
	for k := range f.args {
		pa := &f.args[k]
		x := &a[k]
		if x.null || pa.array || !pa.passout {
			continue
		}
		if pa.typ == '[' {
			for i, v := range x.fields {
				if err := g.writeField(x.addr, i, v); err != nil {
					return fmt.Errorf("argument %d: %w", k+1, err)
				}
			}
			continue
		}
		if pa.ref {
			if err := g.writeRef(x.addr, x.u); err != nil {
				return fmt.Errorf("argument %d: %w", k+1, err)
			}
		}
	}
	return nil
}
