package interp

// grue's change to yaegi v0.16.1 (see README.grue.md at the root of this
// copy): an interpreted value kept in an interface{} (var x any = v,
// []any{v}, map[string]any{"k": v}, an any field) is held in a
// valueInterface, and compiled code that received one saw the wrapper:
// encoding/json wrote {} and fmt printed its pointers. A valueInterface
// now formats and marshals as the value it holds, wherever compiled code
// meets it, and gives that value to code that asks (grue's REPL display).

import (
	"encoding"
	"encoding/json"
	"fmt"
	"go/constant"
	"go/token"
	"reflect"
)

// InterpValue returns the value that v holds, unwrapped.
func (v valueInterface) InterpValue() reflect.Value { return valueInterfaceValue(v.value) }

// Format formats the value that v holds with the verb and flags fmt gives,
// through its Error or String method when it has one and the verb is one
// that fmt calls them for (%v, %s, %q, %x, %X; not %#v).
func (v valueInterface) Format(f fmt.State, verb rune) {
	x := v.InterpValue()
	if !x.IsValid() || !x.CanInterface() {
		fmt.Fprintf(f, fmt.FormatString(f, verb), nil)
		return
	}
	if w, ok := v.printer(verb, f.Flag('#')); ok {
		fmt.Fprintf(f, fmt.FormatString(f, verb), w.Interface())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), x.Interface())
}

var (
	errorType    = reflect.TypeOf((*error)(nil)).Elem()
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()

	jsonMarshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// Printer returns the value v holds as an error or a fmt.Stringer, when
// its interpreted type has the Error or String method that fmt calls for
// %v: for compiled code that shows values as fmt would (grue's REPL).
func (v valueInterface) Printer() (any, bool) {
	w, ok := v.printer('v', false)
	if !ok || !w.CanInterface() {
		return nil, false
	}
	return w.Interface(), true
}

// printer returns v's value as an error or a fmt.Stringer, when its
// interpreted type has the method fmt would call for verb (and the #
// flag, sharp).
func (v valueInterface) printer(verb rune, sharp bool) (w reflect.Value, ok bool) {
	switch verb {
	case 'v', 's', 'q', 'x', 'X':
	default:
		return w, false
	}
	if verb == 'v' && sharp {
		return w, false
	}
	if w, ok := v.as(errorType, "Error", "func() string"); ok {
		return w, true
	}
	return v.as(stringerType, "String", "func() string")
}

// as returns the value v holds as a value of t, a compiled interface of
// one method, name, when v's interpreted type has that method with the
// signature sig (as the interpreter's methodSet writes it).
func (v valueInterface) as(t reflect.Type, name, sig string) (w reflect.Value, ok bool) {
	if v.node == nil || v.node.typ == nil || v.node.typ.cat == valueT || v.node.interp == nil {
		return w, false
	}
	if v.node.typ.methods()[name] != sig {
		return w, false
	}
	defer func() {
		if recover() != nil {
			ok = false // no wrapper to be had: use the value as it is
		}
	}()
	w = wrapperOf(v.node.interp.frame, v, t)
	return w, w.IsValid() && w.Type().Implements(t)
}

// MarshalJSON writes the value that v holds as encoding/json writes it:
// by its interpreted type's MarshalJSON or MarshalText method when it
// has one.
func (v valueInterface) MarshalJSON() ([]byte, error) {
	x := v.InterpValue()
	if !x.IsValid() || !x.CanInterface() {
		return []byte("null"), nil
	}
	if w, ok := v.as(jsonMarshalerType, "MarshalJSON", "func() ([]uint8, error)"); ok {
		return json.Marshal(w.Interface())
	}
	if w, ok := v.as(textMarshalerType, "MarshalText", "func() ([]uint8, error)"); ok {
		return json.Marshal(w.Interface())
	}
	return json.Marshal(x.Interface())
}

// setAsserted stores in dst the result of a type assertion to an
// interpreted interface: val, the asserted value as the frame held it, or
// v, the valueInterface it held, when val's type (interface{}, for an
// operand of type any) cannot be stored in dst (a valueInterface).
// Upstream stored val, which panicked ("reflect.Set: value of type
// interface {} is not assignable to type interp.valueInterface") on
// s, ok := x.(Shape) inside a function.
func setAsserted(dst, val reflect.Value, v valueInterface) {
	if !val.Type().AssignableTo(dst.Type()) {
		val = reflect.ValueOf(v)
	}
	dst.Set(val)
}

// caseMatch decides whether a type switch's case typ holds the
// interpreted value that vi holds, when typ is an interface: an
// interpreted one, or a compiled one (fmt.Stringer, error) and vi's value
// is of an interpreted type; decided is false otherwise, and the case is
// decided as upstream does. Upstream matched a case of an interpreted
// interface on any valueInterface (its check compared reflect type
// names, and an interpreted interface's is valueInterface's) or, when the
// switch assigned nothing, on the same type only; and a case of a
// compiled interface never on an interpreted value.
func caseMatch(vi valueInterface, typ *itype) (match, decided bool) {
	switch {
	case isInterfaceSrc(typ):
		return hasMethods(vi, typ), true
	case isInterfaceBin(typ) && vi.node != nil && vi.node.typ != nil && vi.node.typ.cat != valueT:
		return hasMethods(vi, typ), true
	}
	return false, false
}

// caseValue is what a type switch's variable gets in the case typ that
// matched vi: for a compiled interface, a wrapper that compiled code can
// call the methods of; else held, the value as the switch had it.
func caseValue(f *frame, vi valueInterface, typ *itype, held reflect.Value) reflect.Value {
	if isInterfaceBin(typ) {
		return wrapperOf(f, vi, typ.TypeOf())
	}
	return held
}

// wrapperOf returns the value that vi holds as a value of typ, a compiled
// interface: genInterfaceWrapper's wrapper, made of the value itself.
// Upstream's genInterfaceWrapper(vi.node, typ)(f) reads the value from
// frame f, which need not be the frame vi.node was evaluated in: x.(error)
// of a *MyErr made in another function panicked.
func wrapperOf(f *frame, vi valueInterface, typ reflect.Type) reflect.Value {
	n := *vi.node
	n.rval = vi.value
	return genInterfaceWrapper(&n, typ)(f)
}

// hasMethods reports whether the interpreted value that vi holds has the
// methods of the interface typ (typeAssert's check).
func hasMethods(vi valueInterface, typ *itype) bool {
	if vi.node == nil || vi.node.typ == nil {
		return false
	}
	if vi.node.typ.id() == typ.id() {
		return true
	}
	m0 := vi.node.typ.methods()
	for name, meth1 := range typ.methods() {
		meth0, ok := m0[name]
		if !ok {
			return false
		}
		if meth0 == meth1 {
			continue
		}
		if lookupFieldOrMethod(vi.node.typ, name) == nil {
			return false
		}
		if stripped, err := stripReceiverFromArgs(meth0); err != nil || stripped != meth1 {
			return false
		}
	}
	return true
}

// srcMethods reports whether t is a type the interpreter declared with
// methods, or a pointer to one. Upstream wrapped a value put into an
// interface{} in a valueInterface, which keeps its type and so its
// methods, only when t itself declared methods, and assigned a composite
// literal straight into the interface: var a any = Sq{1}, a = &Sq{1} and
// var a any = p (p a *Sq) lost Sq's String method, and fmt printed {1}.
func srcMethods(t *itype) bool {
	if t == nil || t.cat == valueT {
		return false
	}
	if len(t.method) > 0 {
		return true
	}
	return t.cat == ptrT && t.val != nil && t.val.cat != valueT && len(t.val.method) > 0
}

// convertKeepsType reports whether the conversion of a value of type src
// to the interface dst must make a value of dst (convertInterface)
// rather than leave the value as it is: src is an interpreted concrete
// type with methods, or dst a compiled interface (error, fmt.Stringer).
// Upstream converted by doing nothing, so any(Sq{1}) lost Sq's methods
// and error(&MyErr{}) panicked (reflect.Set: value of type *struct{...}
// is not assignable to type error) when assigned.
func convertKeepsType(dst, src *itype) bool {
	if src == nil || src.cat == valueT || src.cat == nilT || isInterface(src) {
		return false
	}
	return srcMethods(src) || isInterfaceBin(dst)
}

// convertInterface converts n.child[1] to the interface type
// n.child[0], as assigning it to a variable of that type does.
func convertInterface(n *node) {
	dest := genValue(n)
	t, c := n.child[0].typ, n.child[1]
	var value func(*frame) reflect.Value
	if isInterfaceBin(t) {
		value = genInterfaceWrapper(c, t.TypeOf())
	} else {
		value = genDestValue(t, c)
	}
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f))
		return next
	}
}

// embeddedFields returns the indexes of the fields that t, a struct type
// or a pointer to one, embeds. The struct types that yaegi builds with
// reflect do not mark them Anonymous, so a method of an interface that a
// struct embeds (type Service struct{ Logger }; s.Log(...)) was not
// found: "invalid interface value".
func embeddedFields(t *itype) map[int]bool {
	for t != nil && (t.cat == ptrT || t.cat == linkedT) {
		t = t.val
	}
	if t == nil || t.cat != structT {
		return nil
	}
	m := map[int]bool{}
	for i, f := range t.field {
		if f.embed {
			m[i] = true
		}
	}
	return m
}

// fixReflect gives the interpreter's reflect package TypeOf, ValueOf and
// DeepEqual that see the value a valueInterface or a wrapper holds:
// reflect.TypeOf(v) of an any holding a *Sq said struct (the
// valueInterface), and reflect.ValueOf(v).Field(0) was its node.
func fixReflect(interp *Interpreter) {
	p := interp.binPkg["reflect"]
	if p == nil {
		return
	}
	p["TypeOf"] = reflect.ValueOf(func(i interface{}) reflect.Type { return reflect.TypeOf(heldOf(i)) })
	p["ValueOf"] = reflect.ValueOf(func(i interface{}) reflect.Value { return reflect.ValueOf(heldOf(i)) })
	p["DeepEqual"] = reflect.ValueOf(func(x, y interface{}) bool { return reflect.DeepEqual(heldOf(x), heldOf(y)) })
}

// nilStaysNil reports whether a nil value v, of a source of type category
// tc, becomes the nil interface when converted to an interface type: only
// when it is itself an interface or the untyped nil. A nil pointer (map,
// slice, func, chan) of a concrete type makes a non-nil interface that
// holds it, as in Go: `var p *MyErr; return p` from a func returning error
// is not nil.
func nilStaysNil(v reflect.Value, tc tcat) bool {
	return v.Kind() == reflect.Interface || tc == nilT || tc == interfaceT
}

// embedAnonymous reports whether a field that embeds t (whose reflect
// type is rt) can be marked Anonymous in the struct type reflect builds,
// when the struct has other fields: reflect.StructOf panics for an
// embedded type with methods of its own (golang/go#15924), so upstream
// marked none, and encoding/json, which promotes the fields of an
// anonymous struct field, wrote {"Base":{"Name":"rex"}} for a Dog
// embedding Base where Go writes {"Name":"rex"}. The types reflect builds
// for interpreted structs have no methods (the interpreter keeps them),
// so a struct the interpreter declared, or a pointer to one, is safe
// unless it embeds a field of its own that could bring methods; compiled
// types and interfaces (held in valueInterface, which has methods) are
// not.
func embedAnonymous(t *itype, rt reflect.Type) bool {
	if t != nil && t.cat == ptrT {
		t = t.val
	}
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil || t.cat != structT || rt == nil {
		return false
	}
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct || rt.NumMethod() > 0 || reflect.PointerTo(rt).NumMethod() > 0 {
		return false
	}
	for i := 0; i < rt.NumField(); i++ {
		if rt.Field(i).Anonymous {
			return false
		}
	}
	return true
}

// constOverflow reports the compile-time error Go gives when arithmetic
// on typed integer constants leaves the type: uint8(200) + uint8(100)
// is "constant 300 overflows uint8" in Go, and was 44 in the interpreter,
// which computes such an operation on the typed values with wraparound.
// n is a binary expression whose operands are both constants and whose
// result constOp has just computed.
func constOverflow(n *node) error {
	switch n.action {
	case aAdd, aSub, aMul, aShl:
	default:
		return nil
	}
	if !n.rval.IsValid() || n.typ == nil || n.typ.untyped {
		return nil
	}
	t := n.typ.TypeOf()
	if t == nil || !isInt(t) {
		return nil
	}
	if c, ok := n.rval.Interface().(constant.Value); ok {
		// The result kept as an exact constant of a typed expression.
		if representableConst(c, t) {
			return nil
		}
		return n.cfgErrorf("constant %s overflows %s", c.ExactString(), n.typ.id())
	}
	exact := func(v reflect.Value) (constant.Value, bool) {
		if !v.IsValid() {
			return nil, false
		}
		if c, ok := v.Interface().(constant.Value); ok {
			return c, true
		}
		switch {
		case isUint(v.Type()):
			return constant.MakeUint64(vUint(v)), true
		case isInt(v.Type()):
			return constant.MakeInt64(vInt(v)), true
		}
		return nil, false
	}
	x, ok0 := exact(n.child[0].rval)
	y, ok1 := exact(n.child[1].rval)
	if !ok0 || !ok1 {
		return nil
	}
	var c constant.Value
	switch n.action {
	case aAdd:
		c = constant.BinaryOp(x, token.ADD, y)
	case aSub:
		c = constant.BinaryOp(x, token.SUB, y)
	case aMul:
		c = constant.BinaryOp(x, token.MUL, y)
	case aShl:
		s, ok := constant.Uint64Val(y)
		if !ok {
			return nil
		}
		c = constant.Shift(x, token.SHL, uint(s))
	}
	if c == nil || representableConst(c, t) {
		return nil
	}
	return n.cfgErrorf("constant %s overflows %s", c.ExactString(), n.typ.id())
}
