package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): the inference of
// a generic call's type parameters (generic.go's inferTypesFromCall).

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
