package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Redefinition. Iterating on a function, a method or a type is the point
// of a session, and yaegi v0.16.1 takes it badly: a function declared
// again is the new one only for the code compiled after it (a function
// declared earlier still calls the old one), a method declared again is
// silently the old one, and a type declared again is refused.
//
// So a function declared again is declared as written, and then so are
// the functions and methods that cells declared before and that call it
// (and, in turn, those that call them): each is compiled again from its
// source, and calls the new one. A line says what was redefined, and
// which callers came along.
//
// A method is a trampoline: the declaration the interpreter sees calls a
// session variable that holds the body, as a func literal,
//
//	var _grue_f1_Name func(*B, string) string                         (once)
//	func (b *B) Name(s string) string { return _grue_f1_Name(b, s) }  (once)
//	_grue_f1_Name = func(b *B, s string) string { BODY }              (each time)
//
// and declaring it again with the same signature only assigns the
// variable: every value of the type, every interface holding one sees the
// new body at once. With another signature it is refused. (A call through
// the variable costs yaegi some microseconds more than a direct one: a
// method called in a tight loop runs slower than a function.)
//
// A type declared again with the same definition is left as it is; with
// another definition, the session declares a new type under a hidden name
// (B__v2) and cells from then on mean it when they say B: values made
// before keep the old type and its methods, and work as they did.
// Generic functions and methods of generic types are declared as written.

// trampolined is what the session knows of a function it declared as a
// trampoline: its variable and signature.
type trampolined struct {
	variable string
	sig      string // parameters and results, as written, receiver first
}

// redefineDecl evaluates a declaration unit that declares functions,
// methods or types the way this file says, and reports whether it did;
// false leaves the unit to be evaluated as written. It prints a line for
// what it redefined.
//
// orig is the unit as the cell wrote it, u as the session rewrote it (the
// types declared again renamed, loops over functions made calls).
func (s *Session) redefineDecl(ctx context.Context, orig, u unit, loc source) (bool, error) {
	f, _, src := parseDecl(orig)
	if f == nil || len(f.Decls) != 1 {
		return false, nil
	}
	switch d := f.Decls[0].(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return false, nil // declared as written; see redeclareCallers
		}
		f, fset, src := parseDecl(u)
		if f == nil || len(f.Decls) != 1 {
			return false, nil
		}
		d, ok := f.Decls[0].(*ast.FuncDecl)
		if !ok {
			return false, nil
		}
		if d.Body == nil || d.Type.TypeParams != nil || (d.Recv != nil && isGenericRecv(d.Recv.List[0].Type)) || (d.Recv == nil && d.Name.Name == "main") {
			return false, nil
		}
		return true, s.trampoline(ctx, u, loc, d, fset, src)
	case *ast.GenDecl:
		if d.Tok != token.TYPE {
			return false, nil
		}
		return s.redeclareTypes(ctx, orig, loc, d, src)
	}
	return false, nil
}

// parseDecl parses a declaration unit, with a function giving a node's
// source; nil when it does not parse.
func parseDecl(u unit) (*ast.File, *token.FileSet, func(ast.Node) string) {
	fset := token.NewFileSet()
	const head = "package main;"
	f, err := parser.ParseFile(fset, "", head+u.text, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil
	}
	return f, fset, func(n ast.Node) string {
		return u.text[fset.Position(n.Pos()).Offset-len(head) : fset.Position(n.End()).Offset-len(head)]
	}
}

// isGenericRecv reports whether a receiver's type has type parameters.
func isGenericRecv(e ast.Expr) bool {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	switch e.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// signature is a method's signature taken apart for its trampoline.
type signature struct {
	params      []string // name and type of each parameter, receiver first
	types       []string // the type of each parameter
	args        []string // what the trampoline passes on
	results     string   // the results as written, after a blank; "" for none
	resultTypes string   // the results' types alone, in parentheses
}

// signatureOf takes d's signature apart, naming the parameters that have
// no name (or _) so that the trampoline can pass them on.
func signatureOf(d *ast.FuncDecl, src func(ast.Node) string) signature {
	var sg signature
	n := 0
	for _, fl := range []*ast.FieldList{d.Recv, d.Type.Params} {
		if fl == nil {
			continue
		}
		for _, fld := range fl.List {
			typ := src(fld.Type)
			names := fld.Names
			if len(names) == 0 {
				names = []*ast.Ident{{Name: "_"}}
			}
			for _, id := range names {
				pn := id.Name
				if pn == "_" {
					pn = fmt.Sprintf("%s_p%d", privatePkg, n)
				}
				n++
				sg.params = append(sg.params, pn+" "+typ)
				sg.types = append(sg.types, typ)
				arg := pn
				if _, variadic := fld.Type.(*ast.Ellipsis); variadic {
					arg += "..."
				}
				sg.args = append(sg.args, arg)
			}
		}
	}
	if rs := d.Type.Results; rs != nil {
		sg.results = " " + src(rs)
		var ts []string
		for _, fld := range rs.List {
			for range max(len(fld.Names), 1) {
				ts = append(ts, src(fld.Type))
			}
		}
		sg.resultTypes = " (" + strings.Join(ts, ", ") + ")"
	}
	return sg
}

// trampoline declares, or declares again, the method d.
func (s *Session) trampoline(ctx context.Context, u unit, loc source, d *ast.FuncDecl, fset *token.FileSet, src func(ast.Node) string) error {
	name := d.Name.Name
	key := recvName(d.Recv.List[0].Type) + "." + name
	sg := signatureOf(d, src)
	params, types, args, results, resultTypes := sg.params, sg.types, sg.args, sg.results, sg.resultTypes
	sig := "(" + strings.Join(params, ", ") + ")" + results
	// The literal keeps the body's lines: its header goes on the
	// declaration's first line, and the lines the header took follow the
	// brace.
	bodyStart := fset.Position(d.Body.Lbrace).Offset - len("package main;")
	headerLines := strings.Count(u.text[:bodyStart], "\n")
	body := "{" + strings.Repeat("\n", headerLines) + u.text[bodyStart+1:]
	prev, declared := s.trampolines[key]
	what := "method " + key
	if declared && prev.sig != sig {
		return &Error{Kind: KindError, File: loc.label, Line: u.line, Msg: fmt.Sprintf(
			"method %s is declared already, as func%s: the interpreter cannot change a method's signature; declare the type again (then its methods), or :reset", key, prev.sig)}
	}
	if declared && !s.recompiling {
		defer fmt.Fprintf(s.out, "redefined %s\n", what)
	}
	v := prev.variable
	if !declared {
		s.nTramp++
		v = fmt.Sprintf("%s_f%d_%s", privatePkg, s.nTramp, name)
		call := v + "(" + strings.Join(args, ", ") + ")"
		if results != "" {
			call = "return " + call
		}
		tramp := fmt.Sprintf("func (%s) %s(%s)%s { %s }", params[0], name, strings.Join(params[1:], ", "), results, call)
		// The variable's type names no parameters: yaegi takes a name
		// there for the session's variable of that name.
		for _, text := range []string{"var " + v + " func(" + strings.Join(types, ", ") + ")" + resultTypes, tramp} {
			tu := unit{text: text, line: u.line, first: token.VAR}
			if _, err := s.evalRetry(ctx, strings.Repeat("\n", u.line)+text, tu, loc); err != nil {
				return err
			}
		}
		s.trampolines[key] = trampolined{variable: v, sig: sig}
	}
	assign := v + " = func" + sig + " " + body
	au := unit{text: assign, line: u.line, first: token.IDENT}
	if _, err := s.evalRetry(ctx, strings.Repeat("\n", u.line)+assign, au, loc); err != nil {
		if !declared {
			// The function is declared, but has no body: calling it
			// says so.
			stub := fmt.Sprintf("%s = func%s { panic(%q) }", v, sig, what+" has no body: the cell that declared it failed")
			_, _ = s.evalRetry(ctx, stub, unit{text: stub, line: 1, first: token.IDENT}, loc)
		}
		return err
	}
	return nil
}

// funcDecl is the source of a function or method that a cell declared,
// as the session evaluated it, to compile it again when a function it
// calls is declared again.
type funcDecl struct {
	key   string // "f", "T.M"
	u     unit
	label string
}

// noteFunc records the declaration of the function or method key, and
// reports whether it declared one that cells had declared before.
func (s *Session) noteFunc(key string, u unit, label string) bool {
	for i, d := range s.funcDecls {
		if d.key == key {
			s.funcDecls[i] = funcDecl{key, u, label}
			return true
		}
	}
	s.funcDecls = append(s.funcDecls, funcDecl{key, u, label})
	return false
}

// redeclareCallers compiles again, from their sources, the functions and
// methods that call name (declared again), and those that call them, in
// the order cells declared them, and returns their keys. A caller that no
// longer compiles (the new name takes other arguments) keeps calling the
// old one, and the line says so.
func (s *Session) redeclareCallers(ctx context.Context, name string) []string {
	done := map[string]bool{name: true}
	var out []string
	changed := []string{name}
	s.recompiling = true
	defer func() { s.recompiling = false }()
	for len(changed) > 0 {
		n := changed[0]
		changed = changed[1:]
		for _, d := range s.funcDecls {
			if done[d.key] || !strings.Contains(d.u.text, n) || !usesName(d.u, n) {
				continue
			}
			done[d.key] = true
			if _, _, err := s.evalUnit(ctx, d.u, d.label); err != nil {
				out = append(out, d.key+" (which no longer compiles, and calls the old "+name+": "+ownNames(err.Error())+")")
				continue
			}
			out = append(out, d.key)
			if !strings.Contains(d.key, ".") {
				changed = append(changed, d.key)
			}
		}
	}
	return out
}

// usesName reports whether the declaration u refers to name, outside
// selectors' right-hand sides.
func usesName(u unit, name string) bool {
	f, _, _ := parseUnitAt(u)
	if f == nil {
		return false
	}
	found := false
	skip := map[*ast.Ident]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			skip[fd.Name] = true
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.Ident:
			found = found || (n.Name == name && !skip[n])
		}
		return !found
	})
	return found
}

// redeclareTypes evaluates a type declaration that declares again a type
// that cells declared: unchanged, it is left out; changed, its types get
// new hidden names (see renameTypes). false when no type in it was
// declared before.
func (s *Session) redeclareTypes(ctx context.Context, u unit, loc source, d *ast.GenDecl, src func(ast.Node) string) (bool, error) {
	again, changed := false, false
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		name := ts.Name.Name
		if s.decls[name] != "type" {
			continue
		}
		again = true
		if s.typeSrc[name] != normalize(src(ts.Type)) {
			changed = true
		}
	}
	if !again {
		return false, nil
	}
	if !changed {
		return true, nil // the same type: nothing to do
	}
	var names []string
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		name := ts.Name.Name
		if s.decls[name] == "type" {
			s.typeVersion[name]++
			s.renames[name] = fmt.Sprintf("%s__v%d", name, s.typeVersion[name]+1)
			names = append(names, name)
		}
	}
	ru := u
	ru.text = s.renameTypes(u)
	if _, err := s.evalRetry(ctx, strings.Repeat("\n", u.line)+ru.text, ru, loc); err != nil {
		return true, err
	}
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		s.typeSrc[ts.Name.Name] = normalize(src(ts.Type))
		s.decls[ts.Name.Name] = "type"
	}
	for _, name := range names {
		fmt.Fprintf(s.out, "redefined type %s: values made before keep the old type and its methods; declare the methods again\n", name)
	}
	return true, nil
}

// normalize is a type's source without its layout, to compare two.
func normalize(src string) string { return strings.Join(strings.Fields(src), " ") }

// renameTypes writes the unit with the types that were declared again
// under their current hidden names: the names that the unit does not
// declare itself as a local (a type's name as a field, a selector or a
// composite literal's key is not one).
func (s *Session) renameTypes(u unit) string {
	if len(s.renames) == 0 {
		return u.text
	}
	hit := false
	for name := range s.renames {
		if strings.Contains(u.text, name) {
			hit = true
		}
	}
	if !hit {
		return u.text
	}
	f, fset, head := parseUnitAt(u)
	if f == nil {
		return u.text
	}
	var offs []int
	var olds []string
	skip := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				skip[id] = true
			}
		case *ast.Field:
			for _, id := range n.Names {
				skip[id] = true
			}
		case *ast.Ident:
			if _, ok := s.renames[n.Name]; !ok || skip[n] {
				return true
			}
			if n.Obj != nil && n.Obj.Kind != ast.Typ {
				return true // a local of that name
			}
			offs = append(offs, fset.Position(n.Pos()).Offset-head)
			olds = append(olds, n.Name)
		}
		return true
	})
	text := u.text
	for i := len(offs) - 1; i >= 0; i-- {
		text = text[:offs[i]] + s.renames[olds[i]] + text[offs[i]+len(olds[i]):]
	}
	return text
}

// hiddenName matches a type's hidden name in a message: B__v2.
var hiddenName = lazyregexp.New(`\b([A-Za-z_]\w*?)__v\d+\b`)

// ownNames puts back the names that the session's rewriting replaced in
// a message: _grue_slices.Sort is slices.Sort to the cell, B__v2 is B.
func ownNames(msg string) string {
	for name, stand := range genericStand {
		msg = strings.ReplaceAll(msg, stand.name+".", name+".")
	}
	return hiddenName.ReplaceAllString(msg, "$1")
}
