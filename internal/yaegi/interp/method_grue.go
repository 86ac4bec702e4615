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

// directMethod returns, for the call n of an interpreted method with its
// receiver (v.Get(), p.Add(i): c0 is the selector, made by getMethod),
// the method's declaration and the receiver's value, so that call runs
// the method in a frame of its own as it runs a function, the receiver
// in the frame's first parameter slot. Upstream made a method value at
// every call (getMethod: a copy of the method's node, a wrapper made by
// genFunctionWrapper, reflect.MakeFunc) and called it through
// reflect.Value.Call: about 6 µs a call, against 2 µs for a function. It
// returns nil for calls it does not take: deferred, go statements, and
// methods without a body.
func directMethod(n, c0 *node) (*node, func(*frame) reflect.Value) {
	if n.anc.kind == deferStmt || n.anc.kind == goStmt || c0.action != aGetMethod || c0.recv == nil || c0.gen == nil ||
		reflect.ValueOf(c0.gen).Pointer() != reflect.ValueOf(getMethod).Pointer() {
		return nil, nil
	}
	def, ok := c0.val.(*node)
	if !ok || def.kind != funcDecl || len(def.child) < 4 || def.child[3] == nil || def.child[3].start == nil {
		return nil, nil
	}
	if len(def.types) <= len(def.typ.ret) {
		return nil, nil
	}
	rcvr := genValueRecv(c0)
	c0.gen = nop // the method value is not made
	return def, rcvr
}

// setRecv sets dest, a method's receiver slot, to the receiver src, as
// genFunctionWrapper does: through valueInterfaces, dereferenced for a
// value receiver (a copy, as Go's call makes) or addressed for a pointer
// one.
func setRecv(dest, src reflect.Value) {
	for {
		vs, ok := src.Interface().(valueInterface)
		if !ok {
			break
		}
		src = vs.value
	}
	sk, dk := src.Kind(), dest.Kind()
	switch {
	case sk == reflect.Ptr && dk != reflect.Ptr:
		dest.Set(src.Elem())
	case sk != reflect.Ptr && dk == reflect.Ptr:
		dest.Set(src.Addr())
	default:
		dest.Set(src)
	}
}

// wrappedArgs says, for each parameter of types args, whether an
// interpreted function called through reflect (a func literal's or a
// method value's wrapper) keeps its argument in a valueInterface: a
// parameter of an interpreted non-empty interface type. Upstream worked
// it out again at every call, with a TypeOf that builds a map each time:
// a third of the cost of calling a func literal.
func wrappedArgs(args []*itype) []bool {
	wrap := make([]bool, len(args))
	for i, typ := range args {
		wrap[i] = !isEmptyInterface(typ) && typ.TypeOf() != valueInterfaceType && isInterfaceSrc(typ)
	}
	return wrap
}
