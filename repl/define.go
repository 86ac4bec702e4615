package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
)

// Top-level variable declarations are where yaegi v0.16.1 is weakest
// (its issue #1437): "p := s[0]", "b := strings.Split(x, " ")[1]",
// "v, ok := m[k]", and any "var x = expr" that names a variable fail to
// compile with "definition loop" or "nil type", and some leave a
// half-made variable behind. A declaration is safe inside a function,
// though, so the session evaluates such a declaration's right-hand side
// once, in a function literal, and declares the variables from the
// values:
//
//	var x T = expr      becomes  var x T, then the statement x = expr
//	x, y := a, b[i]     evaluates a and b[i] once in a func literal and
//	var x, y = a, b[i]  declares each variable by its value's dynamic type
//
// A value whose type the interpreter made (a struct declared in a cell)
// or a nil one cannot be declared from compiled code by its type; such
// a declaration is evaluated as written instead, its right-hand side
// running a second time.

// declSplit is a top-level variable declaration taken apart.
type declSplit struct {
	names []string // the variables, "_" included
	typ   string   // the declared type's source, "" for none
	rhs   string   // the right-hand side's source, "" for none
	line  int      // the line of the right-hand side in the cell
	// assert is T's source in "v, ok := x.(T)" (or var v, ok = x.(T)),
	// whose variables' types are known without evaluating anything: T
	// and bool.
	assert string
}

// splitDecl takes apart a unit that declares variables: a short variable
// declaration, or a var declaration of one spec. It reports false for
// other units and for declarations that yaegi handles as written.
func splitDecl(u unit, generic func(string) bool) (declSplit, bool) {
	if strings.Contains(u.text, privatePkg+".") {
		return declSplit{}, false // the session's own definitions
	}
	switch u.first {
	case token.VAR:
		const head = "package main;"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", head+u.text, parser.SkipObjectResolution)
		if err != nil || len(f.Decls) != 1 {
			return declSplit{}, false
		}
		gd, ok := f.Decls[0].(*ast.GenDecl)
		if !ok || len(gd.Specs) != 1 {
			return declSplit{}, false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) == 0 || !needsHelp(vs.Values, true, generic) {
			return declSplit{}, false
		}
		src := func(n ast.Node) string {
			return u.text[fset.Position(n.Pos()).Offset-len(head) : fset.Position(n.End()).Offset-len(head)]
		}
		d := declSplit{rhs: src(listNode(vs.Values)), line: u.line + fset.Position(vs.Values[0].Pos()).Line - 1}
		for _, n := range vs.Names {
			d.names = append(d.names, n.Name)
		}
		if vs.Type != nil {
			d.typ = src(vs.Type)
		} else if t := assertedType(d.names, vs.Values); t != nil {
			d.assert = src(t)
		}
		return d, true
	case token.IDENT:
		fset := token.NewFileSet()
		const head = "package main; func main() {"
		f, err := parser.ParseFile(fset, "", head+u.text+"\n}", parser.SkipObjectResolution)
		if err != nil {
			return declSplit{}, false
		}
		body := f.Decls[0].(*ast.FuncDecl).Body.List
		if len(body) != 1 {
			return declSplit{}, false
		}
		as, ok := body[0].(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || !needsHelp(as.Rhs, false, generic) {
			return declSplit{}, false
		}
		first, last := as.Rhs[0], as.Rhs[len(as.Rhs)-1]
		start, end := fset.Position(first.Pos()).Offset-len(head), fset.Position(last.End()).Offset-len(head)
		d := declSplit{rhs: u.text[start:end], line: u.line + fset.Position(first.Pos()).Line - 1}
		for _, e := range as.Lhs {
			id, ok := e.(*ast.Ident)
			if !ok {
				return declSplit{}, false
			}
			d.names = append(d.names, id.Name)
		}
		if t := assertedType(d.names, as.Rhs); t != nil {
			d.assert = u.text[fset.Position(t.Pos()).Offset-len(head) : fset.Position(t.End()).Offset-len(head)]
		}
		return d, true
	}
	return declSplit{}, false
}

// assertedType returns T when names and rhs are "v, ok" and "x.(T)":
// the comma-ok form of a type assertion; nil otherwise.
func assertedType(names []string, rhs []ast.Expr) ast.Expr {
	if len(names) != 2 || len(rhs) != 1 {
		return nil
	}
	if ta, ok := rhs[0].(*ast.TypeAssertExpr); ok {
		return ta.Type // nil in a type switch's x.(type), which is no declaration
	}
	return nil
}

// listNode spans a list of expressions, from the first's start to the
// last's end.
func listNode(es []ast.Expr) ast.Node { return span{es[0].Pos(), es[len(es)-1].End()} }

type span struct{ pos, end token.Pos }

func (s span) Pos() token.Pos { return s.pos }
func (s span) End() token.Pos { return s.end }

// needsHelp reports whether a declaration's right-hand side is one that
// yaegi mishandles at top level: any that names something, for a var
// declaration (isVar), or one with an index, slice, type assertion or
// operator (3 * time.Second panics) or call of a generic function (min,
// max, slices.Sort and the others the session adds, a cell's own: generic
// reports which), for a short one.
func needsHelp(rhs []ast.Expr, isVar bool, generic func(string) bool) bool {
	found := false
	for _, e := range rhs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return isVar // a func literal's body runs later
			case *ast.IndexExpr, *ast.SliceExpr, *ast.TypeAssertExpr, *ast.BinaryExpr:
				found = true
			case *ast.Ident:
				found = found || (isVar && n.Name != "nil" && n.Name != "true" && n.Name != "false")
			case *ast.CallExpr:
				fun := n.Fun
				if ix, ok := fun.(*ast.IndexExpr); ok {
					fun = ix.X // an explicit instantiation
				} else if ix, ok := fun.(*ast.IndexListExpr); ok {
					fun = ix.X
				}
				switch f := fun.(type) {
				case *ast.Ident:
					found = found || isVar || f.Name == "min" || f.Name == "max" || (generic != nil && generic(f.Name))
				case *ast.SelectorExpr:
					id, ok := f.X.(*ast.Ident)
					found = found || isVar || (ok && strings.HasPrefix(id.Name, privatePkg+"_"))
				default:
					found = found || isVar
				}
			case *ast.SelectorExpr:
				found = found || isVar
			}
			return !found
		})
	}
	return found
}

// evalDecl evaluates a variable declaration that splitDecl took apart.
func (s *Session) evalDecl(ctx context.Context, u unit, d declSplit, loc source) error {
	pad := strings.Repeat("\n", u.line)
	if d.assert != "" {
		// v, ok := x.(T): yaegi cannot declare v from its value when a
		// cell declared T ("nil type"), but T is written there: declare
		// v as a T and ok as a bool, then assign them in a statement.
		for i, typ := range []string{d.assert, "bool"} {
			if d.names[i] == "_" {
				continue
			}
			decl := unit{text: fmt.Sprintf("var %s %s", d.names[i], typ), line: u.line, first: token.VAR}
			if _, err := s.evalRetry(ctx, pad+decl.text, decl, loc); err != nil {
				return err
			}
		}
		assign := unit{text: strings.Join(d.names, ", ") + " = " + d.rhs, line: u.line, first: token.IDENT}
		_, err := s.evalRetry(ctx, pad+assign.text, assign, loc)
		return s.explainPanic(err)
	}
	if d.typ != "" {
		// var x T = expr: declare x, then assign it in a statement, where
		// the interpreter evaluates expr as it would in a function.
		decl := unit{text: fmt.Sprintf("var %s %s", strings.Join(d.names, ", "), d.typ), line: u.line, first: token.VAR}
		if _, err := s.evalRetry(ctx, pad+decl.text, decl, loc); err != nil {
			return err
		}
		assign := unit{text: strings.Join(d.names, ", ") + " = " + d.rhs, line: u.line, first: token.IDENT}
		_, err := s.evalRetry(ctx, pad+assign.text, assign, loc)
		return s.explainPanic(err)
	}
	tmp := make([]string, len(d.names))
	for i := range tmp {
		tmp[i] = fmt.Sprintf("%s_v%d", privatePkg, i)
	}
	vars := strings.Join(tmp, ", ")
	// The right-hand side keeps its lines: it starts on the unit's line.
	src := fmt.Sprintf("%s%sfunc() []interface{} { %s := %s\nreturn %s.Pack(%s) }()%s",
		exprOpen, strings.Repeat("\n", d.line), vars, d.rhs, privatePkg, vars, exprClose)
	res, err := s.evalRetry(ctx, src, u, loc)
	if isCompileError(err) {
		// Nothing ran: the declaration as written has the error to show.
		return s.evalAsWritten(ctx, u, loc)
	}
	if err != nil {
		return s.explainPanic(err)
	}
	vals := s.unpack(res)
	if len(vals) != 1 || vals[0].Kind() != reflect.Slice || vals[0].Len() != len(d.names) {
		return s.evalAsWritten(ctx, u, loc)
	}
	for i, name := range d.names {
		if name == "_" {
			continue
		}
		if v := deref(vals[0].Index(i)); !v.IsValid() || !compiledType(v.Type()) {
			return s.evalAsWritten(ctx, u, loc)
		}
	}
	for i, name := range d.names {
		if name == "_" {
			continue
		}
		v := deref(vals[0].Index(i))
		if err := s.defineValue(name, v.Type(), v.Interface()); err != nil {
			return &Error{Kind: KindError, File: loc.label, Line: u.line, Msg: err.Error(), Err: err}
		}
	}
	return nil
}

// evalAsWritten evaluates a unit as it is, for a declaration whose values
// cannot be declared by their types.
func (s *Session) evalAsWritten(ctx context.Context, u unit, loc source) error {
	_, err := s.evalRetry(ctx, strings.Repeat("\n", u.line)+u.text, u, loc)
	return s.explainPanic(err)
}

// explainPanic rewords the interpreter's panics that read as its own
// bugs: an index out of range shows as reflect's.
func (s *Session) explainPanic(err error) error {
	e, ok := err.(*Error)
	if !ok || e.Kind != KindPanic {
		return err
	}
	switch {
	case strings.Contains(e.Msg, "slice index out of range"), strings.Contains(e.Msg, "reflect: array index out of range"):
		e.Msg = "runtime error: index out of range"
	case strings.Contains(e.Msg, "string index out of range"):
		e.Msg = "runtime error: string index out of range"
	}
	return err
}

// compiledType reports whether t can be named from compiled code: built
// of predeclared types and named types of compiled packages, not of
// types that the interpreter made for a cell's declarations.
func compiledType(t reflect.Type) bool {
	if t.Name() != "" {
		return t.PkgPath() != "" || t.Kind() != reflect.Struct
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return compiledType(t.Elem())
	case reflect.Map:
		return compiledType(t.Key()) && compiledType(t.Elem())
	case reflect.Func:
		for i := 0; i < t.NumIn(); i++ {
			if !compiledType(t.In(i)) {
				return false
			}
		}
		for i := 0; i < t.NumOut(); i++ {
			if !compiledType(t.Out(i)) {
				return false
			}
		}
		return true
	case reflect.Struct, reflect.Interface:
		return t.Kind() == reflect.Interface && t.NumMethod() == 0
	}
	return true
}
