package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): errors.Is,
// errors.As and errors.Unwrap of the errors that interpreted code
// declares.
//
// An interpreted value that becomes an error is wrapped in _error, whose
// only method is Error: compiled code (errors.Unwrap, errors.Is, fmt's
// %w) did not see an interpreted type's Unwrap, Is or As method, so a
// chain through an interpreted wrapper ended there. errors.As panicked on
// a target of an interpreted type ("*target must be interface or
// implement error": reflect sees no methods on the struct type yaegi
// builds), and errors.Is never found an interpreted sentinel (the two
// wrappers it compared hold funcs, so are not comparable).
//
// The wrappers below give compiled code the methods an interpreted error
// type has (getWrapper picks the first whose methods it has, most first),
// and fixErrors replaces errors.Is and errors.As in the interpreter with
// versions that compare the values the wrappers hold.

import (
	"errors"
	"reflect"
	"slices"
)

type _errorUIA struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WIs     func(error) bool
	WAs     func(interface{}) bool
}

func (w _errorUIA) Error() string         { return w.WError() }
func (w _errorUIA) Unwrap() error         { return w.WUnwrap() }
func (w _errorUIA) Is(e error) bool       { return w.WIs(e) }
func (w _errorUIA) As(t interface{}) bool { return w.WAs(t) }

type _errorMIA struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	WIs     func(error) bool
	WAs     func(interface{}) bool
}

func (w _errorMIA) Error() string         { return w.WError() }
func (w _errorMIA) Unwrap() []error       { return w.WUnwrap() }
func (w _errorMIA) Is(e error) bool       { return w.WIs(e) }
func (w _errorMIA) As(t interface{}) bool { return w.WAs(t) }

type _errorUI struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WIs     func(error) bool
}

func (w _errorUI) Error() string   { return w.WError() }
func (w _errorUI) Unwrap() error   { return w.WUnwrap() }
func (w _errorUI) Is(e error) bool { return w.WIs(e) }

type _errorUA struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WAs     func(interface{}) bool
}

func (w _errorUA) Error() string         { return w.WError() }
func (w _errorUA) Unwrap() error         { return w.WUnwrap() }
func (w _errorUA) As(t interface{}) bool { return w.WAs(t) }

type _errorMI struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	WIs     func(error) bool
}

func (w _errorMI) Error() string   { return w.WError() }
func (w _errorMI) Unwrap() []error { return w.WUnwrap() }
func (w _errorMI) Is(e error) bool { return w.WIs(e) }

type _errorMA struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	WAs     func(interface{}) bool
}

func (w _errorMA) Error() string         { return w.WError() }
func (w _errorMA) Unwrap() []error       { return w.WUnwrap() }
func (w _errorMA) As(t interface{}) bool { return w.WAs(t) }

type _errorIA struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
	WAs    func(interface{}) bool
}

func (w _errorIA) Error() string         { return w.WError() }
func (w _errorIA) Is(e error) bool       { return w.WIs(e) }
func (w _errorIA) As(t interface{}) bool { return w.WAs(t) }

type _errorU struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
}

func (w _errorU) Error() string { return w.WError() }
func (w _errorU) Unwrap() error { return w.WUnwrap() }

type _errorM struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
}

func (w _errorM) Error() string   { return w.WError() }
func (w _errorM) Unwrap() []error { return w.WUnwrap() }

type _errorI struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
}

func (w _errorI) Error() string   { return w.WError() }
func (w _errorI) Is(e error) bool { return w.WIs(e) }

type _errorA struct {
	IValue interface{}
	WError func() string
	WAs    func(interface{}) bool
}

func (w _errorA) Error() string         { return w.WError() }
func (w _errorA) As(t interface{}) bool { return w.WAs(t) }

// errorWrappers returns the interpreter's first mapTypes: the wrappers of
// error that have more methods than _error, most methods first.
func errorWrappers() map[reflect.Value][]reflect.Type {
	return map[reflect.Value][]reflect.Type{
		reflect.ValueOf((*_error)(nil)): {
			reflect.TypeOf(_errorUIA{}), reflect.TypeOf(_errorMIA{}),
			reflect.TypeOf(_errorUI{}), reflect.TypeOf(_errorUA{}),
			reflect.TypeOf(_errorMI{}), reflect.TypeOf(_errorMA{}),
			reflect.TypeOf(_errorIA{}),
			reflect.TypeOf(_errorU{}), reflect.TypeOf(_errorM{}),
			reflect.TypeOf(_errorI{}), reflect.TypeOf(_errorA{}),
		},
	}
}

// fixErrors gives the interpreter's errors package grue's Is and As,
// and fmt the wrappers of format_grue.go.
func fixErrors(interp *Interpreter) {
	useStringer(interp)
	if p := interp.binPkg["errors"]; p != nil {
		p["Is"] = reflect.ValueOf(errorsIs)
		p["As"] = reflect.ValueOf(errorsAs)
	}

	// The functions that print as fmt does (fmt's and log's) wrap an
	// interpreted argument in the first of their mapTypes it implements:
	// upstream listed fmt.Formatter and fmt.Stringer, so an interpreted
	// error printed as its fields. fmt calls Error before String.
	for k, list := range interp.mapTypes {
		if i := slices.Index(list, stringerType); i >= 0 && !slices.Contains(list, errorType) {
			interp.mapTypes[k] = slices.Insert(slices.Clone(list), i, errorType)
		}
	}
}

// heldValue returns the value a wrapper of an interpreted value holds (a
// struct whose first field is IValue, as every yaegi wrapper is), or
// false when v is not one.
func heldValue(v reflect.Value) (reflect.Value, bool) {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || v.NumField() == 0 || v.Type().Field(0).Name != "IValue" {
		return v, false
	}
	held := v.Field(0)
	for held.Kind() == reflect.Interface && !held.IsNil() {
		held = held.Elem()
	}
	if vi, ok := held.Interface().(valueInterface); ok {
		held = valueInterfaceValue(vi.value)
	}
	return held, held.IsValid()
}

// sameError reports whether err is target as errors.Is compares them:
// equal values of one comparable type, looking through wrappers.
func sameError(err, target error) bool {
	a, b := reflect.ValueOf(err), reflect.ValueOf(target)
	if ha, ok := heldValue(a); ok {
		a = ha
	}
	if hb, ok := heldValue(b); ok {
		b = hb
	}
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() || !a.Type().Comparable() {
		return false
	}
	return a.Interface() == b.Interface()
}

// errorsIs is errors.Is, with sameError for ==.
func errorsIs(err, target error) bool {
	if err == nil || target == nil {
		return err == target
	}
	return errorsIsIn(err, target)
}

func errorsIsIn(err, target error) bool {
	for {
		if sameError(err, target) {
			return true
		}
		if x, ok := err.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
			if err == nil {
				return false
			}
		case interface{ Unwrap() []error }:
			for _, err := range x.Unwrap() {
				if err != nil && errorsIsIn(err, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// errorsAs is errors.As, which also finds an error of a type the
// interpreter declared: reflect sees no methods on the type yaegi builds
// for it (a struct type, or the underlying type of type Code int), so
// errors.As refused it as a target. A target that is neither an
// interface nor implements error is matched by the type of the value a
// wrapper holds, and errorsAs returns false where errors.As would panic
// on a compiled type that is not an error.
func errorsAs(err error, target interface{}) bool {
	val := reflect.ValueOf(target)
	if target == nil || val.Kind() != reflect.Ptr || val.IsNil() {
		return errors.As(err, target) // panics as Go's does
	}
	t := val.Type().Elem()
	if t.Kind() == reflect.Interface || t.Implements(errorType) {
		return errors.As(err, target)
	}
	return errorsAsIn(err, val, t)
}

func errorsAsIn(err error, target reflect.Value, t reflect.Type) bool {
	for err != nil {
		if held, ok := heldValue(reflect.ValueOf(err)); ok && held.Type() == t {
			target.Elem().Set(held)
			return true
		}
		if x, ok := err.(interface{ As(interface{}) bool }); ok && x.As(target.Interface()) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, err := range x.Unwrap() {
				if errorsAsIn(err, target, t) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// heldMatch reports whether v, a value of a compiled interface (error),
// holds in a wrapper a value of typ, an interpreted concrete type, and
// returns that value: a type switch's case *MyErr on an error matched
// only a type assertion's way (err.(*MyErr)) before.
func heldMatch(v reflect.Value, typ *itype) (reflect.Value, bool) {
	if typ == nil || isInterface(typ) || typ.cat == valueT {
		return reflect.Value{}, false
	}
	held, ok := heldValue(v)
	if !ok {
		return held, false
	}
	rt := typ.TypeOf()
	return held, rt != nil && held.Type() == rt
}

// noteWrapped records n, a node whose interpreted value genInterfaceWrapper
// wraps for a compiled interface (error), under the value's reflect type:
// the wrapper keeps the value but not its interpreted type, whose methods
// errors.As into an interpreted interface must know (errorsAsIface).
func (interp *Interpreter) noteWrapped(n *node) {
	if n.typ == nil || n.typ.cat == valueT || isInterface(n.typ) {
		return
	}
	rt := n.typ.TypeOf()
	if rt == nil {
		return
	}
	interp.wrappedMu.Lock()
	defer interp.wrappedMu.Unlock()
	if interp.wrapped == nil {
		interp.wrapped = map[reflect.Type][]*node{}
	}
	for _, m := range interp.wrapped[rt] {
		if m.typ.id() == n.typ.id() {
			return
		}
	}
	interp.wrapped[rt] = append(interp.wrapped[rt], n)
}

// errorsAsIface returns, for n a call errors.As(err, &t) whose t is of an
// interface type the interpreter declared (type Temporary interface{
// Temporary() bool }), the value of an errors.As that finds in err's
// chain an interpreted value whose type has the interface's methods;
// value itself for other calls. Upstream's target was a
// *valueInterface, which reflect takes for a struct that nothing
// implements: errors.As gave false.
func errorsAsIface(n *node, value func(*frame) reflect.Value) func(*frame) reflect.Value {
	c0 := n.child[0]
	if len(n.child) != 3 || !c0.rval.IsValid() || c0.rval.Kind() != reflect.Func ||
		c0.rval.Pointer() != reflect.ValueOf(errorsAs).Pointer() {
		return value
	}
	pt := n.child[2].typ
	if pt == nil || pt.cat != ptrT || pt.val == nil || !isInterfaceSrc(pt.val) || isEmptyInterface(pt.val) {
		return value
	}
	iface := pt.val
	interp := n.interp
	as := func(err error, target interface{}) bool {
		vp, ok := target.(*valueInterface)
		if !ok || vp == nil {
			return errorsAs(err, target)
		}
		return interp.asIfaceIn(err, vp, iface)
	}
	fn := reflect.ValueOf(as)
	return func(*frame) reflect.Value { return fn }
}

// asIfaceIn is errors.As into *vp, of the interpreted interface iface:
// the first error in err's chain that holds an interpreted value of a type
// with iface's methods, or that has a method As that says so.
func (interp *Interpreter) asIfaceIn(err error, vp *valueInterface, iface *itype) bool {
	for err != nil {
		if held, ok := heldValue(reflect.ValueOf(err)); ok {
			if nod := interp.wrappedNode(held.Type(), iface); nod != nil {
				*vp = valueInterface{node: nod, value: held}
				return true
			}
		}
		if x, ok := err.(interface{ As(interface{}) bool }); ok && x.As(vp) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, err := range x.Unwrap() {
				if interp.asIfaceIn(err, vp, iface) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// wrappedNode returns a node noted for values of reflect type rt whose
// interpreted type has the methods of iface, when every type noted for
// rt agrees on it (types of one shape share a reflect type); nil
// otherwise.
func (interp *Interpreter) wrappedNode(rt reflect.Type, iface *itype) *node {
	interp.wrappedMu.Lock()
	nodes := slices.Clone(interp.wrapped[rt])
	interp.wrappedMu.Unlock()
	var found *node
	for _, m := range nodes {
		if !hasMethods(valueInterface{node: m}, iface) {
			return nil // a type of this shape lacks the methods: which one err holds is unknown
		}
		if found == nil {
			found = m
		}
	}
	return found
}
