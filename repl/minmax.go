package repl

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strings"
)

// min and max of constants. In Go, min and max of constant arguments are
// a constant, of the kind of the "largest" argument: max(1, 2.5) is the
// untyped float 2.5, min(2.5, 1.5) + 1 the untyped float 2.5. The
// session's min and max are generic functions (see builtins.go), and
// yaegi infers their type parameter from the first untyped constant:
// max(1, 2.5) gave the int 2, and min(2.5, 1.5) + 1 panicked ("nil
// reflect type"). So a call of min or max whose arguments are all
// literal constants (or constant expressions of them, min and max
// included) is replaced by the argument it chooses, made of the result's
// kind:
//
//	max(1, 2.5)       ->  (2.5)
//	min(1, 2.5)       ->  (1 + 0.0)
//	min(2.5, 1.5) + 1 ->  (1.5) + 1
//
// A call with a variable or a named constant among its arguments is left
// to the generic function, which infers its type from its first
// argument: such a call that begins with a constant has its arguments
// reordered, the others first (see typedFirst).

// constMinMax returns text with its calls of min and max over constants
// replaced by their values, or text itself when it has none. shadowed
// reports whether a cell declared its own function of the name.
func constMinMax(text string, shadowed func(name string) bool) string {
	// A pass replaces the outermost calls over constants; one under a
	// minus (-min(1, 2)) makes its caller's arguments constants for the
	// next.
	for range 4 {
		next := constMinMaxPass(text, shadowed)
		if next == text {
			break
		}
		text = next
	}
	return text
}

// constMinMaxPass replaces the outermost calls of min and max over
// constants in text.
func constMinMaxPass(text string, shadowed func(name string) bool) string {
	if !strings.Contains(text, "min(") && !strings.Contains(text, "max(") {
		return text
	}
	return rewriteCalls(text, func(u *unitEdit, call *ast.CallExpr) bool {
		if !isMinMax(call, shadowed) {
			return true
		}
		if v, ok := constValue(call, shadowed); ok {
			u.replace(call, v.source(u.src))
			return false
		}
		if text, ok := typedFirst(call, shadowed, u.src); ok {
			u.replace(call, text)
			return false // the next pass looks inside
		}
		return true // its arguments may still hold a call over constants
	})
}

// typedFirst returns a call of min or max that begins with a constant
// and has another argument written with that one first: the generic
// function takes its type from its first argument, and an untyped
// constant there gave it the constant's default type (min(2.5, x) with
// x a float64: "untyped float does not implement" the constraint). min
// and max do not depend on their arguments' order, and the others keep
// theirs, so what the call does is the same; constants have no effects.
func typedFirst(call *ast.CallExpr, shadowed func(string) bool, src func(ast.Node) string) (string, bool) {
	if _, ok := constValue(call.Args[0], shadowed); !ok {
		return "", false
	}
	var typed, consts []string
	for _, a := range call.Args {
		if _, ok := constValue(a, shadowed); ok {
			consts = append(consts, src(a))
		} else {
			typed = append(typed, src(a))
		}
	}
	if len(typed) == 0 {
		return "", false
	}
	return src(call.Fun) + "(" + strings.Join(append(typed, consts...), ", ") + ")", true
}

// isMinMax reports whether call calls the builtin min or max: by its
// name, not declared in the unit (Obj is set for a name the parser
// resolved there) nor by a cell.
func isMinMax(call *ast.CallExpr, shadowed func(string) bool) bool {
	id, ok := call.Fun.(*ast.Ident)
	return ok && (id.Name == "min" || id.Name == "max") && id.Obj == nil && !shadowed(id.Name) &&
		len(call.Args) > 0 && !call.Ellipsis.IsValid()
}

// constExpr is a constant expression's value, the literal (or negated
// literal) it came from (for a call of min or max, the one it chose) and
// whether it is of kind rune (go/constant knows runes as integers), with
// the kind the literal itself has (fromKind, fromRune).
type constExpr struct {
	val      constant.Value
	from     ast.Expr
	rune     bool
	fromKind constant.Kind
	fromRune bool
}

// source is the Go source of c as a constant of its kind: the expression
// it came from, converted when the kind grew (an integer chosen among
// floats, or among runes).
func (c constExpr) source(src func(ast.Node) string) string {
	s := src(c.from)
	switch {
	case c.val.Kind() == constant.Float && c.fromKind == constant.Int:
		return "(" + s + " + 0.0)"
	case c.rune && !c.fromRune:
		return "(" + s + " + '\\x00')"
	}
	return "(" + s + ")"
}

// constValue evaluates e when it is a constant expression of literals:
// numbers, runes and strings, the operators on them, and min and max of
// such expressions.
func constValue(e ast.Expr, shadowed func(string) bool) (constExpr, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		switch v.Kind() {
		case constant.Int, constant.Float, constant.String:
			return constExpr{val: v, from: e, rune: e.Kind == token.CHAR, fromKind: v.Kind(), fromRune: e.Kind == token.CHAR}, true
		}
		return constExpr{}, false // not ordered: an imaginary literal
	case *ast.ParenExpr:
		return constValue(e.X, shadowed) // from the literal inside
	case *ast.UnaryExpr:
		if _, call := ast.Unparen(e.X).(*ast.CallExpr); call || (e.Op != token.SUB && e.Op != token.ADD) {
			return constExpr{}, false // -min(...) would be written with the call in it
		}
		c, ok := constValue(e.X, shadowed)
		if !ok || c.val.Kind() == constant.String {
			return constExpr{}, false
		}
		return constExpr{val: constant.UnaryOp(e.Op, c.val, 0), from: e, rune: c.rune, fromKind: c.fromKind, fromRune: c.fromRune}, true
	case *ast.CallExpr:
		if !isMinMax(e, shadowed) {
			return constExpr{}, false
		}
		var best constExpr
		kind, isRune := constant.Int, false
		for i, a := range e.Args {
			c, ok := constValue(a, shadowed)
			if !ok || (i > 0 && (c.val.Kind() == constant.String) != (best.val.Kind() == constant.String)) {
				return constExpr{}, false
			}
			if c.val.Kind() > kind {
				kind = c.val.Kind()
			}
			isRune = isRune || c.rune
			op := token.LSS
			if e.Fun.(*ast.Ident).Name == "max" {
				op = token.GTR
			}
			if i == 0 || constant.Compare(c.val, op, best.val) {
				best = c // from the literal chosen, a call's among them
			}
		}
		if kind == constant.Float && best.val.Kind() == constant.Int {
			best.val = constant.ToFloat(best.val)
		}
		best.rune = isRune && kind == constant.Int
		return best, true
	}
	return constExpr{}, false
}
