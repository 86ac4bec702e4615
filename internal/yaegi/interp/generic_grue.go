package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): the inference of
// a generic call's type parameters (generic.go's inferTypesFromCall).

import (
	"reflect"
	"strconv"
)

// typeParamOrder returns the types inferred for the type parameters of
// the generic function ftn, in the order it declares them, which is the
// order genAST takes them in; nil when one of them was not inferred.
// Upstream listed the types in the order the parameters' types met
// them, so func Map[T, U any](xs []T, f func(T) U) instantiated U as T
// (T met twice), and it paired each group of parameters with the
// argument of the group's index (a, b T, c U paired c with b's
// argument); a variadic parameter (xs ...T) inferred nothing.
func typeParamOrder(ftn *node, inferred map[string]*itype) []*itype {
	var types []*itype
	for _, c := range ftn.child[0].child {
		for _, cc := range c.child[:len(c.child)-1] {
			t := inferred[cc.ident]
			if t == nil {
				return nil
			}
			types = append(types, t)
		}
	}
	return types
}

// defaultType is t, or the default type of t when t is an untyped
// constant's (int, float64, rune, complex128, string, bool): the type a
// type parameter is inferred as from such an argument, as in Go
// (Max(1.5, 0.5) is Max[float64]; upstream took "untyped float", which
// no constraint admits).
func defaultType(sc *scope, t *itype) *itype {
	if t == nil || !t.untyped {
		return t
	}
	name := ""
	switch t.cat {
	case intT, int64T:
		name = "int"
	case float32T, float64T:
		name = "float64"
	case int32T:
		name = "rune"
	case complex64T, complex128T:
		name = "complex128"
	case stringT:
		name = "string"
	case boolT:
		name = "bool"
	default:
		return sc.fixType(t)
	}
	return sc.getType(name)
}

// compiledShape is the argument type input as inference walks it: a
// compiled type (valueT) of kind func, slice, array, map, pointer or
// chan becomes the interpreter's type of that shape, its elements
// compiled types again, or the interpreter's own predeclared type for an
// unnamed basic one (string, int). Upstream walked only the
// interpreter's types, so a compiled argument inferred nothing:
// slices.Collect(strings.SplitSeq(s, ",")), whose argument is an
// iter.Seq[string], failed with "undefined type for E".
func compiledShape(sc *scope, input *itype) *itype {
	if input == nil || input.cat != valueT || input.rtype == nil {
		return input
	}
	elem := func(rt reflect.Type) *itype {
		if rt.PkgPath() == "" && rt.Name() != "" && rt.Name() == rt.Kind().String() {
			if t := sc.getType(rt.Name()); t != nil {
				return t
			}
		}
		return valueTOf(rt)
	}
	rt := input.rtype
	switch rt.Kind() {
	case reflect.Func:
		var args, rets []*itype
		for i := 0; i < rt.NumIn(); i++ {
			args = append(args, elem(rt.In(i)))
		}
		for i := 0; i < rt.NumOut(); i++ {
			rets = append(rets, elem(rt.Out(i)))
		}
		return funcOf(args, rets)
	case reflect.Slice:
		return sliceOf(elem(rt.Elem()))
	case reflect.Array:
		return &itype{cat: arrayT, val: elem(rt.Elem()), length: rt.Len(), str: rt.String()}
	case reflect.Map:
		return mapOf(elem(rt.Key()), elem(rt.Elem()))
	case reflect.Pointer:
		return &itype{cat: ptrT, val: elem(rt.Elem()), str: rt.String()}
	case reflect.Chan:
		return &itype{cat: chanT, val: elem(rt.Elem()), str: rt.String()}
	}
	return input
}

// spreadCall reports whether args are the arguments of a call that
// spreads a slice into its variadic parameter (Sum(xs...)): the slice's
// element, not the slice, is what the parameter's ...T infers T from
// (upstream inferred T as []int: "[]int does not implement Number").
func spreadCall(args []*node) bool {
	return len(args) > 0 && args[0].anc != nil && args[0].anc.action == aCallSlice
}

// instanceKey is the key under which genAST keeps the instance name
// (Keys[string,int]) of the generic declaration root: the name qualified
// by the declaration's node. Upstream's key was the name alone, so two
// generic functions of one name in different packages (a cell's own
// Keys and the session's maps.Keys), or two generic types' methods of
// one name, shared the first one's instance: slices.Sorted(maps.Keys(m))
// after a cell's Keys(m) failed ("undefined type for E"), and a
// redeclared generic function kept running its first body.
func instanceKey(root *node, name string) string {
	return strconv.FormatInt(root.index, 10) + ":" + name
}

// typeArgIdent reports whether n is the name of a compiled type that
// genAST put in place of a type parameter (Int in N[Int ...](n Int)
// instantiated as time.Duration is an ident "time.Duration" of that
// type), which scopes do not know by that name: Int(x) was taken for a
// call, not a conversion ("NumIn of non-func type time.Duration").
func typeArgIdent(n *node) bool {
	return n.typ != nil && n.typ.cat == valueT && n.typ.rtype != nil && n.ident != "" && n.ident == n.typ.id()
}
