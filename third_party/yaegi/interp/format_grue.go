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
	"reflect"
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
// (values) are of an interpreted type with a method that fmt calls,
// passed to compiled fmt (a function with mapTypes, getMapType), how to
// give fmt a copy with each element wrapped ([]any, map[K]any): fmt saw
// []Dir{North} as []int and printed [0], not [N]. It returns nil for
// anything else.
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
	default:
		return nil
	}
	elem := t.val
	if !srcMethods(elem) {
		return nil
	}
	rt := getMapType(elem)
	if rt == nil {
		return nil
	}
	value := genValue(c)
	wrapElem := slotWrapper(c, elem, rt)
	return func(f *frame) reflect.Value {
		v := value(f)
		wrap := func(x reflect.Value) reflect.Value { return wrapElem(f, x) }
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice && v.IsNil() {
				return v
			}
			out := make([]interface{}, v.Len())
			for i := range out {
				out[i] = wrap(v.Index(i)).Interface()
			}
			return reflect.ValueOf(out)
		case reflect.Map:
			if v.IsNil() {
				return v
			}
			out := reflect.MakeMapWithSize(reflect.MapOf(v.Type().Key(), emptyInterfaceType), v.Len())
			for it := v.MapRange(); it.Next(); {
				out.SetMapIndex(it.Key(), wrap(it.Value()))
			}
			return out
		}
		return v
	}
}
