package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): fmt's verbs on the
// wrappers of interpreted values.
//
// To print an interpreted value by its String or Error method, yaegi
// hands fmt a wrapper (fmt's _Stringer, interp's _error) whose method
// calls the interpreted one. fmt calls String and Error only for %v, %s,
// %q, %x and %X; for any other verb it printed the wrapper's own fields:
// fmt.Printf("%d", North), North of an iota type with a String method,
// printed {0 5358240} where Go prints 0. The wrappers here have a Format
// method that gives fmt the method's text for those verbs and the value
// itself for the others.

import (
	"fmt"
	"go/token"
	"io"
	"math"
	"reflect"
	"sort"
)

// formatHeld formats for fmt.Formatter: text() (the String or Error
// method's result) for the verbs that fmt would call it for, held (the
// interpreted value) for the others.
func formatHeld(f fmt.State, verb rune, held interface{}, text func() string) {
	switch verb {
	case 'v', 's', 'q', 'x', 'X':
		if !(verb == 'v' && f.Flag('#')) && text != nil {
			s, ok := heldText(held, text)
			if !ok {
				fmt.Fprint(f, "<nil>") // as fmt's catchPanic: no width, no flags
				return
			}
			fmt.Fprintf(f, fmt.FormatString(f, verb), s)
			return
		}
	}
	if vi, ok := held.(valueInterface); ok {
		vi.Format(f, verb)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), held)
}

// heldText is text(), the held value's String or Error method. As fmt
// does for a compiled value, a method that panics on a nil pointer gives
// ok false, for "<nil>"; any other panic goes on to fmt, which reports it.
func heldText(held interface{}, text func() string) (s string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			v := reflect.ValueOf(held)
			if vi, isVI := held.(valueInterface); isVI {
				v = vi.value
			}
			if v.Kind() == reflect.Pointer && v.IsNil() {
				s, ok = "", false
				return
			}
			panic(r)
		}
	}()
	return text(), true
}

// _stringer is fmt.Stringer's wrapper with fmt's verbs (see formatHeld);
// fixErrors makes it the first choice over fmt's _Stringer.
type _stringer struct {
	IValue  interface{}
	WString func() string
}

func (w _stringer) String() string                { return w.WString() }
func (w _stringer) Format(f fmt.State, verb rune) { formatHeld(f, verb, w.IValue, w.WString) }
func (w _error) Format(f fmt.State, verb rune)    { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorUIA) Format(f fmt.State, verb rune) { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorMIA) Format(f fmt.State, verb rune) { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorUI) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorUA) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorMI) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorMA) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorIA) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorU) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorM) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorI) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorA) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }

// useStringer makes _stringer the wrapper that fmt.Stringer's values get.
func useStringer(interp *Interpreter) {
	if w, ok := interp.binPkg["fmt"]["_Stringer"]; ok {
		interp.mapTypes[w] = append([]reflect.Type{reflect.TypeOf(_stringer{})}, interp.mapTypes[w]...)
	}
}

// resultWrapper returns how to pass v, a result of type t of an
// interpreted call, straight to compiled fmt (a function with mapTypes,
// getMapType) when t has methods that fmt calls: wrapped as a value of
// t would be (fmt.Println(d.Turn()) printed the int, not its String).
// It returns nil when the result needs no wrapper.
func resultWrapper(call *node, t *itype, getMapType func(*itype) reflect.Type) func(*frame, reflect.Value) reflect.Value {
	if getMapType == nil || !srcMethods(t) {
		return nil
	}
	rt := getMapType(t)
	if rt == nil {
		return nil
	}
	wrap := slotWrapper(call, t, rt)
	return func(f *frame, v reflect.Value) reflect.Value {
		if !v.IsValid() {
			return v
		}
		return wrap(f, v)
	}
}

// slotWrapper returns how to make a value of t, an interpreted type, a
// value of rt, a compiled interface, for code at node at: each value is
// held in a frame of its own, which the wrapper's methods read it from
// when they run, so the wrapper's generator is made once, not once a
// value.
func slotWrapper(at *node, t *itype, rt reflect.Type) func(*frame, reflect.Value) reflect.Value {
	slot := &node{typ: t, interp: at.interp, pos: at.pos, findex: 0, level: 0}
	gen := genInterfaceWrapper(slot, rt)
	ft := t.frameType()
	return func(f *frame, x reflect.Value) reflect.Value {
		fr := newFrame(f, 1, f.runid())
		fr.data[0] = reflect.New(ft).Elem()
		fr.data[0].Set(x)
		return gen(fr)
	}
}

// fmtContainer returns, for c, a slice, an array or a map whose elements
// (values, or a map's keys) are of an interpreted type with a method that
// fmt calls, passed to compiled fmt (a function with mapTypes,
// getMapType), how to give fmt a copy with each of them wrapped ([]any,
// map[K]any, map[any]V): fmt saw []Dir{North} as []int and printed [0],
// not [N], and map[Dir]int{East: 5} as map[1:5], not map[E:5]. fmt sorts
// wrapped keys by the value they hold, as it sorts the originals. It
// returns nil for anything else.
func fmtContainer(c *node, getMapType func(*itype) reflect.Type) func(*frame) reflect.Value {
	if getMapType == nil || c.typ == nil {
		return nil
	}
	t := c.typ
	if t.cat == linkedT && t.val != nil {
		t = t.val
	}
	switch t.cat {
	case sliceT, arrayT, mapT:
	case structT:
		return fmtStructArg(c, t, false, getMapType)
	case ptrT:
		if t.val != nil && t.val.cat == structT && getMapType(t) == nil {
			return fmtStructArg(c, t.val, true, getMapType)
		}
		return nil
	default:
		return nil
	}
	conv := containerConv(c, t, getMapType, 0)
	if conv == nil {
		return nil
	}
	value := genValue(c)
	return func(f *frame) reflect.Value { return conv(f, value(f)) }
}

// containerConv returns how to convert a value of t, a slice, an array or
// a map, for fmt's printing (see fmtContainer), or nil when none of its
// elements or keys needs it. depth bounds the recursion through struct
// and container types that contain themselves.
func containerConv(c *node, t *itype, getMapType func(*itype) reflect.Type, depth int) func(*frame, reflect.Value) reflect.Value {
	for t != nil && t.cat == linkedT && t.val != nil {
		t = t.val
	}
	if t == nil || depth > 4 {
		return nil
	}
	switch t.cat {
	case sliceT, arrayT, mapT:
	default:
		return nil
	}
	wrapper := func(st *itype) func(*frame, reflect.Value) reflect.Value {
		if st == nil {
			return nil
		}
		if !srcMethods(st) {
			if build := structFields(c, st, getMapType, depth+1); build != nil {
				return func(f *frame, x reflect.Value) reflect.Value {
					if x.Kind() != reflect.Struct {
						return x
					}
					return reflect.ValueOf(build(f, x))
				}
			}
			return nil
		}
		rt := getMapType(st)
		if rt == nil {
			return nil
		}
		return slotWrapper(c, st, rt)
	}
	wrapElem := wrapper(t.val)
	var wrapKey func(*frame, reflect.Value) reflect.Value
	if t.cat == mapT {
		wrapKey = wrapper(t.key)
	}
	if wrapElem == nil && wrapKey == nil {
		return nil
	}
	return func(f *frame, v reflect.Value) reflect.Value {
		wrap := func(w func(*frame, reflect.Value) reflect.Value, x reflect.Value) reflect.Value {
			if w == nil {
				return x
			}
			return w(f, x)
		}
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice && v.IsNil() {
				return v
			}
			out := make([]interface{}, v.Len())
			for i := range out {
				out[i] = wrap(wrapElem, v.Index(i)).Interface()
			}
			return reflect.ValueOf(out)
		case reflect.Map:
			if v.IsNil() {
				return v
			}
			if wrapKey != nil {
				// The wrappers hold funcs and cannot be map keys: fmt
				// gets a Formatter that prints the map as it would.
				m := fmtMap{orig: v}
				for it := v.MapRange(); it.Next(); {
					m.keys = append(m.keys, it.Key())
					m.vals = append(m.vals, it.Value())
				}
				sort.Sort(m)
				m.wrapped = make([][2]interface{}, len(m.keys))
				for i := range m.keys {
					m.wrapped[i] = [2]interface{}{wrap(wrapKey, m.keys[i]).Interface(), wrap(wrapElem, m.vals[i]).Interface()}
				}
				return reflect.ValueOf(m)
			}
			out := reflect.MakeMapWithSize(reflect.MapOf(v.Type().Key(), emptyInterfaceType), v.Len())
			for it := v.MapRange(); it.Next(); {
				out.SetMapIndex(it.Key(), wrap(wrapElem, it.Value()))
			}
			return out
		}
		return v
	}
}

// fmtMap is a map whose keys are of an interpreted type with a method
// that fmt calls, as fmt gets it: its entries sorted by key as fmt sorts
// a map's keys (numbers by value, strings, false before true), each key
// and value wrapped, printed as fmt prints a map, "map[k:v k:v]", with
// the verb and flags applied to each. %#v prints the map itself.
type fmtMap struct {
	orig       reflect.Value
	keys, vals []reflect.Value
	wrapped    [][2]interface{}
}

func (m fmtMap) Len() int { return len(m.keys) }
func (m fmtMap) Swap(i, j int) {
	m.keys[i], m.keys[j] = m.keys[j], m.keys[i]
	m.vals[i], m.vals[j] = m.vals[j], m.vals[i]
}
func (m fmtMap) Less(i, j int) bool {
	a, b := m.keys[i], m.keys[j]
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() < b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() < b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() < b.Float() || math.IsNaN(a.Float()) && !math.IsNaN(b.Float())
	case reflect.String:
		return a.String() < b.String()
	case reflect.Bool:
		return !a.Bool() && b.Bool()
	}
	return fmt.Sprint(a.Interface()) < fmt.Sprint(b.Interface())
}

func (m fmtMap) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprintf(f, "%#v", m.orig.Interface())
		return
	}
	elem := fmt.FormatString(f, verb)
	io.WriteString(f, "map[")
	for i, kv := range m.wrapped {
		if i > 0 {
			io.WriteString(f, " ")
		}
		fmt.Fprintf(f, elem, kv[0])
		io.WriteString(f, ":")
		fmt.Fprintf(f, elem, kv[1])
	}
	io.WriteString(f, "]")
}

// fmtStructArg returns, for c, a struct (or, ptr set, a pointer to one)
// of an interpreted type whose exported fields include values of a type
// with a method that fmt calls, or which has unexported fields, passed to
// compiled fmt, how to give fmt an fmtStruct: fmt saw struct{ L Level
// }{2} as {2} and printed it so, where Go prints {high}, and %+v named
// an unexported field k by the exported name reflect needs, Xk. It
// returns nil for anything else, a struct type with a String method of
// its own included.
func fmtStructArg(c *node, t *itype, ptr bool, getMapType func(*itype) reflect.Type) func(*frame) reflect.Value {
	if getMapType(t) != nil {
		return nil // the struct's own method: the usual wrapper
	}
	build := structFields(c, t, getMapType, 0)
	if build == nil {
		return nil
	}
	value := genValue(c)
	return func(f *frame) reflect.Value {
		v := value(f)
		if ptr {
			if v.Kind() != reflect.Pointer || v.IsNil() {
				return v
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return v
		}
		s := build(f, v)
		s.ptr = ptr
		return reflect.ValueOf(s)
	}
}

// structFields returns how to make the fmtStruct of a value of t, or nil
// when no field of t, or of a struct field of t, needs a wrapper. As in
// Go, only exported fields show by their methods.
func structFields(c *node, t *itype, getMapType func(*itype) reflect.Type, depth int) func(*frame, reflect.Value) fmtStruct {
	if t.cat == linkedT && t.val != nil {
		t = t.val
	}
	if t.cat != structT || depth > 4 {
		return nil
	}
	n := len(t.field)
	wrap := make([]func(*frame, reflect.Value) reflect.Value, n)
	nested := make([]func(*frame, reflect.Value) fmtStruct, n)
	names := make([]string, n)
	any := false
	for i, fld := range t.field {
		names[i] = fld.name
		ft := fld.typ
		if !token.IsExported(fld.name) {
			any = true // %+v must name it as declared, not as reflect's exported X-name
			continue
		}
		if ft == nil {
			continue
		}
		if srcMethods(ft) {
			if rt := getMapType(ft); rt != nil {
				wrap[i] = slotWrapper(c, ft, rt)
				any = true
			}
			continue
		}
		if conv := containerConv(c, ft, getMapType, depth+1); conv != nil {
			wrap[i] = conv
			any = true
			continue
		}
		if nested[i] = structFields(c, ft, getMapType, depth+1); nested[i] != nil {
			any = true
		}
	}
	if !any {
		return nil
	}
	return func(f *frame, v reflect.Value) fmtStruct {
		s := fmtStruct{orig: v, names: names, fields: make([]interface{}, n)}
		for i := 0; i < n && i < v.NumField(); i++ {
			fv := v.Field(i)
			switch {
			case wrap[i] != nil:
				s.fields[i] = wrap[i](f, fv).Interface()
			case nested[i] != nil && fv.Kind() == reflect.Struct:
				s.fields[i] = nested[i](f, fv)
			case fv.CanInterface():
				s.fields[i] = fv.Interface()
			default:
				s.fields[i] = fv.String()
			}
		}
		return s
	}
}

// fmtStruct is a struct as fmt gets it when some of its fields show by
// their methods: printed as fmt prints a struct, "{a b}", "{A:a B:b}"
// with %+v and "&{...}" for a pointer, the verb and flags applied to each
// field. %#v prints the struct itself.
type fmtStruct struct {
	orig   reflect.Value
	ptr    bool
	names  []string
	fields []interface{}
}

func (s fmtStruct) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprintf(f, "%#v", s.orig.Interface())
		return
	}
	plus := verb == 'v' && f.Flag('+')
	elem := fmt.FormatString(f, verb)
	if s.ptr {
		io.WriteString(f, "&")
	}
	io.WriteString(f, "{")
	for i, x := range s.fields {
		if i > 0 {
			io.WriteString(f, " ")
		}
		if plus {
			io.WriteString(f, s.names[i]+":")
		}
		fmt.Fprintf(f, elem, x)
	}
	io.WriteString(f, "}")
}

// genMappedInterface gives a value of an interpreted interface type (a
// Shape holding a *Circle) passed to a compiled function with mapTypes
// (fmt's printing, log, encoding/json and xml) as that function needs it:
// the valueInterface itself when the value's own type has a method the
// function calls (String, Error, Format, MarshalJSON...), which
// getBinValue then wraps (or, for an Unmarshaler, a pointer to its
// wrapper: see unmarshalTarget), else the value it holds, as upstream did
// for every value. Upstream always passed the value it holds, so
// fmt.Println(s) printed &{1} where Go calls String.
func genMappedInterface(n *node, getMapType func(*itype) reflect.Type) func(*frame) reflect.Value {
	value := genValue(n)
	held := genValueInterfaceValue(n)
	return func(f *frame) reflect.Value {
		if v := value(f); v.IsValid() && v.CanInterface() {
			if vi, ok := v.Interface().(valueInterface); ok && vi.node != nil && vi.node.typ != nil {
				if rt := getMapType(vi.node.typ); rt != nil {
					if isUnmarshaler(rt) && vi.value.Kind() == reflect.Pointer {
						return addrOf(wrapperOf(f, vi, rt))
					}
					return v
				}
			}
		}
		return held(f)
	}
}

// isUnmarshaler reports whether t, the interface a compiled function's
// mapTypes chose for an argument, is one that decodes into its value:
// json.Unmarshaler, xml.Unmarshaler, encoding.TextUnmarshaler.
func isUnmarshaler(t reflect.Type) bool {
	if t == nil || t.Kind() != reflect.Interface {
		return false
	}
	for _, m := range []string{"UnmarshalJSON", "UnmarshalXML", "UnmarshalText"} {
		if _, ok := t.MethodByName(m); ok {
			return true
		}
	}
	return false
}

// unmarshalTarget passes the wrapper that makes a pointer to a value of
// an interpreted type with an UnmarshalJSON (XML, Text) method a
// json.Unmarshaler as a pointer to it: json.Unmarshal(data, &b) refused
// the wrapper, a struct, with "Unmarshal(non-pointer ...)". The wrapper's
// method calls the interpreted one on the original pointer.
func unmarshalTarget(value func(*frame) reflect.Value) func(*frame) reflect.Value {
	return func(f *frame) reflect.Value { return addrOf(value(f)) }
}

// addrOf returns a pointer to a copy of v, a wrapper struct; any other
// value as it is.
func addrOf(v reflect.Value) reflect.Value {
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return v
	}
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	return p
}

// anyParam reports whether argument i of a compiled function of type ft
// goes to a parameter of type interface{}: one of the values fmt.Println
// or fmt.Fprintf prints (their ...any), the value json.Marshal encodes,
// but not Fprintf's io.Writer or its format, nor a slice passed whole to
// the variadic parameter. Only such arguments are rewritten for the
// methods fmt and json call (fmtContainer, genMappedInterface).
func anyParam(ft reflect.Type, variadic, i int, callSlice bool) bool {
	var t reflect.Type
	switch {
	case variadic >= 0 && i >= variadic:
		if callSlice {
			return false
		}
		t = ft.In(variadic).Elem()
	case i < ft.NumIn():
		t = ft.In(i)
	default:
		return false
	}
	return t.Kind() == reflect.Interface && t.NumMethod() == 0
}
