package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): interface values
// that hold interpreted values compare, and key maps, by the values they
// hold, as in Go.

import "reflect"

// ifaceEq is == of two operands of an interface type (op.go's equal and
// notEqual): an interpreted value held in a valueInterface or a wrapper
// is compared by the value it holds (two wrappers, which hold funcs,
// made == panic). Upstream compared the valueInterface structs
// themselves, node and reflect.Value, so var a any = x; var b any = x;
// a == b was false, as was a map[any]... lookup of such a key.
func ifaceEq(i0, i1 interface{}) bool {
	return heldOf(i0) == heldOf(i1)
}

// heldOf returns the value that a valueInterface i, or a wrapper made
// for a compiled interface (fmt.Stringer, error), holds (nil for a nil
// interface), or i itself.
func heldOf(i interface{}) interface{} {
	for {
		vi, ok := i.(valueInterface)
		if !ok {
			if h, ok := heldValue(reflect.ValueOf(i)); ok && h.CanInterface() {
				return h.Interface()
			}
			return i
		}
		if vi.node == nil || vi.node.kind == basicLit && vi.node.typ != nil && vi.node.typ.cat == nilT || !vi.value.IsValid() {
			return nil
		}
		if !vi.value.CanInterface() {
			return i
		}
		i = vi.value.Interface()
	}
}

// mapKeyValue returns key, the key of an index of a map of type t, as
// the map holds it: when t's keys are of an interface type that reflect
// sees as one (interface{}, error), an interpreted value that key gives
// in a valueInterface is given as the value it holds, so that m[x] and
// m[any(x)] are one entry, as in Go (the valueInterface structs of two
// equal values differ).
func mapKeyValue(t *itype, key func(*frame) reflect.Value) func(*frame) reflect.Value {
	rt := t.TypeOf()
	for rt != nil && rt.Kind() == reflect.Ptr {
		rt = rt.Elem()
	}
	if rt == nil || rt.Kind() != reflect.Map || rt.Key().Kind() != reflect.Interface {
		return key
	}
	return func(f *frame) reflect.Value {
		k := key(f)
		if !k.IsValid() || !k.CanInterface() {
			return k
		}
		vi, ok := k.Interface().(valueInterface)
		if !ok {
			return k
		}
		h := heldOf(vi)
		if h == nil {
			return reflect.Zero(rt.Key())
		}
		return reflect.ValueOf(h)
	}
}

// constMapKey returns the value of c, a constant index of a map of type
// t, as a key of that map. A typed constant of a named type (North of
// type Dir, declared with iota) kept its value as a constant.Value, and
// m[North] panicked in reflect.MapIndex ("value of type constant.Value
// is not assignable to type int").
func constMapKey(c *node, t *itype) reflect.Value {
	convertConstantValue(c)
	k := c.rval
	rt := t.TypeOf()
	for rt != nil && rt.Kind() == reflect.Ptr {
		rt = rt.Elem()
	}
	if rt == nil || rt.Kind() != reflect.Map || !k.IsValid() {
		return k
	}
	if kt := rt.Key(); kt.Kind() != reflect.Interface && k.Type() != kt && k.Type().ConvertibleTo(kt) {
		k = k.Convert(kt)
	}
	return k
}
