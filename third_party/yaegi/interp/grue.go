package interp

// grue's change to yaegi v0.16.1 (see README.grue.md at the root of this
// copy): an interpreted value kept in an interface{} (var x any = v,
// []any{v}, map[string]any{"k": v}, an any field) is held in a
// valueInterface, and compiled code that received one saw the wrapper:
// encoding/json wrote {} and fmt printed its pointers. A valueInterface
// now formats and marshals as the value it holds, wherever compiled code
// meets it, and gives that value to code that asks (grue's REPL display).

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// InterpValue returns the value that v holds, unwrapped.
func (v valueInterface) InterpValue() reflect.Value { return valueInterfaceValue(v.value) }

// Format formats the value that v holds with the verb and flags fmt gives.
func (v valueInterface) Format(f fmt.State, verb rune) {
	x := v.InterpValue()
	if !x.IsValid() || !x.CanInterface() {
		fmt.Fprintf(f, fmt.FormatString(f, verb), nil)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), x.Interface())
}

// MarshalJSON writes the value that v holds as encoding/json writes it.
func (v valueInterface) MarshalJSON() ([]byte, error) {
	x := v.InterpValue()
	if !x.IsValid() || !x.CanInterface() {
		return []byte("null"), nil
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
