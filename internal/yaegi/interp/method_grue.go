package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): a method value
// evaluates its receiver where it is made, as Go does.

import "reflect"

// boundRecv returns the receiver that the method value of method def
// made from r keeps: for a value receiver a copy of the value (of *r when
// r is a pointer), for a pointer receiver the pointer (&r when r is an
// addressable value). Upstream kept the receiver's expression and read it
// when the method value was called, so v := V{1}; h := v.Get; v.N = 2;
// h() returned 2 where Go's returns 1 (the spec's "the expression x is
// evaluated and saved during the evaluation of the method value").
func boundRecv(def *node, r reflect.Value) reflect.Value {
	numRet := len(def.typ.ret)
	if !r.IsValid() || len(def.types) <= numRet {
		return r
	}
	for {
		vi, ok := r.Interface().(valueInterface)
		if !ok {
			break
		}
		r = vi.value
	}
	dest := def.types[numRet]
	switch {
	case dest.Kind() == reflect.Ptr && r.Kind() == reflect.Ptr:
		return r
	case dest.Kind() == reflect.Ptr:
		if r.CanAddr() {
			return r.Addr()
		}
		p := reflect.New(r.Type())
		p.Elem().Set(r)
		return p
	case r.Kind() == reflect.Ptr:
		if r.IsNil() {
			// Go panics at the method value; the call will panic here
			// as a nil dereference too.
			return r
		}
		r = r.Elem()
	}
	c := reflect.New(r.Type()).Elem()
	c.Set(r)
	return c
}

// wrappedConcrete returns the value that the wrapper of an interpreted
// value v of category tc, made for a compiled interface, holds and calls
// the methods of. Upstream's getConcreteValue looks for an emulated
// interface's value in the last set field of a struct without methods,
// which is every struct type the interpreter declares: error(NotFound{"x"})
// held the string "x", so errors.As(err, &nf) and a type switch's case
// NotFound on it did not match. A struct value is held as it is.
func wrappedConcrete(v reflect.Value, tc tcat) reflect.Value {
	if tc == structT {
		return valueInterfaceValue(v)
	}
	return getConcreteValue(v)
}
