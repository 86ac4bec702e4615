package repl

import (
	"context"
	"errors"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
)

// A value of a type that a cell declared shows as fmt prints it: by its
// Error method, else its String method. The interpreter makes the types
// that cells declare with reflect, which gives them no methods, so the
// display (compiled code) sees a Temp as its float64 and a Point as a
// struct; the interpreter knows their methods. So when a cell ends in an
// expression that can be evaluated again without effect (a variable, a
// field, an index, a conversion to a cell's type, a composite literal),
// and cells have declared a String or Error method, the session asks the
// interpreter for the value's text.

// methodText returns the text of v, the value of the expression that
// unit u is, by its Error or String method; false when it has neither,
// when no cell declared either, or when u cannot be evaluated again.
func (s *Session) methodText(ctx context.Context, u unit, v reflect.Value) (string, bool) {
	if len(s.ptrRecv) == 0 {
		return "", false // no cell declared a method
	}
	v = deref(v)
	if !v.IsValid() {
		return "", false
	}
	if _, ok := special(v); ok {
		return "", false // compiled code calls its methods itself
	}
	stmt, ok := parseStmt(u.text).(*ast.ExprStmt)
	if !ok || !s.replayable(stmt.X) {
		return "", false
	}
	for _, m := range []struct{ method, prefix string }{{"Error", "error: "}, {"String", ""}} {
		if !s.hasMethod(v.Type(), m.method) {
			continue
		}
		// The interpreter's type switches and assertions do not see its
		// own types' methods, but its assignments do: an assignment to
		// an interface that the value's type lacks does not compile, and
		// then nothing ran.
		vals, err := s.EvalValues(ctx, "func() string { var v interface{ "+m.method+"() string } = ("+u.text+"); return v."+m.method+"() }()")
		if err == nil && len(vals) == 1 && vals[0].Kind() == reflect.String {
			return Fold(m.prefix+vals[0].String(), s.opts.Width), true
		}
		if err != nil && !errors.Is(err, ErrPanic) {
			continue // no such method: it did not compile
		}
		break // the method panicked (as Error does on a nil pointer): fmt would not try String
	}
	if s.holdsMethods(v.Type()) && v.Len() <= maxMethodElems {
		// A slice, array or map of such values (or keyed by them) shows
		// as the interpreter's fmt prints it, by their methods, cut after
		// as many lines as a table shows.
		vals, err := s.EvalValues(ctx, "fmt.Sprint("+u.text+")")
		if err == nil && len(vals) == 1 && vals[0].Kind() == reflect.String {
			text := Fold(vals[0].String(), s.opts.Width)
			if lines := strings.Split(text, "\n"); len(lines) > maxTableRows {
				return firstLines(lines, maxTableRows), true
			}
			return text, true
		}
	}
	return "", false // the value shows as it is
}

// maxMethodElems is the longest slice, array or map that shows by its
// elements' methods; a longer one shows as the display shows any other,
// by their values, cut short, without calling a method for each.
const maxMethodElems = 10000

// holdsMethods reports whether t is a slice, an array or a map whose
// elements (or keys) may be of a type that a cell declared with a String
// or Error method.
func (s *Session) holdsMethods(t reflect.Type) bool {
	var inner []reflect.Type
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		inner = []reflect.Type{t.Elem()}
	case reflect.Map:
		inner = []reflect.Type{t.Key(), t.Elem()}
	}
	for _, e := range inner {
		if s.hasMethod(e, "String") || s.hasMethod(e, "Error") {
			return true
		}
	}
	return false
}

// hasMethod reports whether a type that a cell declared may be t and
// have the method name in its method set: a pointer has the methods of
// both receivers, a value only those of value receivers, as in Go (the
// interpreter would call a pointer method on a value). Several declared
// types can be one reflect.Type (Temp and Celsius both float64): the
// interpreter, which knows the expression's type, has the last word.
func (s *Session) hasMethod(t reflect.Type, name string) bool {
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	for key, ptrRecv := range s.ptrRecv {
		typ, method, _ := strings.Cut(key, ".")
		if method == name && (ptr || !ptrRecv) && s.declaredType(typ) == t {
			return true
		}
	}
	return false
}

// replayable reports whether evaluating e again does nothing but give its
// value again: no call but a conversion to a type a cell declared, no
// receive, no function literal.
func (s *Session) replayable(e ast.Expr) bool {
	switch e := e.(type) {
	case nil:
		return true // an omitted slice index
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return s.replayable(e.X)
	case *ast.SelectorExpr:
		return s.replayable(e.X)
	case *ast.StarExpr:
		return s.replayable(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && s.replayable(e.X)
	case *ast.BinaryExpr:
		return s.replayable(e.X) && s.replayable(e.Y)
	case *ast.IndexExpr:
		return s.replayable(e.X) && s.replayable(e.Index)
	case *ast.SliceExpr:
		return s.replayable(e.X) && s.replayable(e.Low) && s.replayable(e.High) && s.replayable(e.Max)
	case *ast.TypeAssertExpr:
		return s.replayable(e.X)
	case *ast.KeyValueExpr:
		return s.replayable(e.Key) && s.replayable(e.Value)
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if !s.replayable(el) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		fn, ok := ast.Unparen(e.Fun).(*ast.Ident)
		return ok && s.decls[fn.Name] == "type" && len(e.Args) == 1 && !e.Ellipsis.IsValid() && s.replayable(e.Args[0])
	}
	return false
}
