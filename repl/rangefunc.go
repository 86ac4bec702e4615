package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
)

// Ranging over a function (Go 1.23's iterators: iter.Seq, maps.Keys,
// slices.Values, a func(yield func(K, V) bool) of a cell's own) is what
// the loop means anyway, a call of the function with the loop's body as
// its yield function, and yaegi v0.16.1 runs the call:
//
//	for k, v := range seq {         seq(func(k K, v V) bool {
//		if k == 0 { continue }          if k == 0 { return true }
//		if v > 9 { break }              if v > 9 { return false }
//		use(k, v)                       use(k, v)
//	}                               ; return true })
//
// A return in the body sets the results aside, stops the iteration, and
// returns them after the call. Each piece stays on its line, so errors and
// panics keep the cell's line numbers. The closure's parameters need the
// types the function yields: those of a local declared with its type (a
// parameter seq iter.Seq[int]), or of the value the session has for an
// operand without calls (a top-level loop's operand is evaluated first,
// into a variable, by evalUnit when it has calls). A labelled break or
// continue out of the body is left alone, and the interpreter's refusal
// explained (gapRangeFunc).

// iterParams returns the types of what x yields, when x is an iterator:
// a function of one func parameter that returns bool, and no results.
func (rw *rewriter) iterParams(x ast.Expr) ([]string, bool) {
	if id, ok := x.(*ast.Ident); ok {
		if ps, ok := rw.funcs[id.Name]; ok {
			return ps, ps != nil
		}
		if _, local := rw.types[id.Name]; local {
			return nil, false // a local of another type: not the session's
		}
	}
	if call, ok := x.(*ast.CallExpr); ok {
		if ps, ok := rw.iterCallParams(call); ok {
			return ps, true
		}
		return rw.compiledCallParams(call)
	}
	if !pureExpr(x) {
		return nil, false
	}
	vals, err := rw.s.EvalValues(rw.ctx, rw.src(x))
	if err != nil || len(vals) != 1 || !vals[0].IsValid() || vals[0].Kind() != reflect.Func {
		return nil, false
	}
	return rw.yields(vals[0].Type())
}

// yields returns the types of what an iterator of type t yields: t is a
// function of one func parameter that returns bool, and no results.
func (rw *rewriter) yields(t reflect.Type) ([]string, bool) {
	if t.Kind() != reflect.Func || t.NumIn() != 1 || t.NumOut() != 0 || t.IsVariadic() {
		return nil, false
	}
	y := t.In(0)
	if y.Kind() != reflect.Func || y.NumOut() != 1 || y.Out(0).Kind() != reflect.Bool || y.NumIn() > 2 {
		return nil, false
	}
	names := rw.s.cellTypeNames()
	var ps []string
	for i := 0; i < y.NumIn(); i++ {
		ps = append(ps, typeString(y.In(i), names))
	}
	return ps, true
}

// compiledCallParams returns the types that a call of a compiled
// function yields when the function returns an iterator: the standard
// library's strings.Lines, strings.SplitSeq, bytes.FieldsSeq (Go 1.24)
// and the like, whose result type (iter.Seq[string]) the function's
// value tells.
func (rw *rewriter) compiledCallParams(call *ast.CallExpr) ([]string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || rw.types[pkg.Name] != nil || rw.funcs[pkg.Name] != nil {
		return nil, false // a local's method, whose type no table tells
	}
	// The package a cell imported under that name, or (a script's,
	// which runs after its rewrites) the one bound package of the name.
	path, ok := rw.s.imports[pkg.Name]
	if !ok {
		if _, declared := rw.s.decls[pkg.Name]; declared {
			return nil, false
		}
		if path, ok = rw.s.packages.named(pkg.Name); !ok {
			return nil, false
		}
	}
	bp, ok := rw.s.packages.lookup(path)
	if !ok {
		return nil, false
	}
	v := bp.Symbols[sel.Sel.Name]
	if !v.IsValid() || v.Kind() != reflect.Func || v.Type().NumOut() != 1 {
		return nil, false
	}
	return rw.yields(v.Type().Out(0))
}

// iterCallParams returns the types that a call of one of the iterator
// functions of slices and maps yields (maps.Keys(m), slices.All(xs)),
// from the type of its argument: a local declared with its type, or an
// expression without calls that the session evaluates.
func (rw *rewriter) iterCallParams(call *ast.CallExpr) ([]string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil, false
	}
	fn := strings.TrimPrefix(strings.TrimPrefix(pkg.Name, privatePkg+"_"), "") + "." + sel.Sel.Name
	var key, elem string
	arg := call.Args[0]
	if id, ok := arg.(*ast.Ident); ok && rw.types[id.Name] != nil {
		switch t := rw.types[id.Name].(type) {
		case *ast.MapType:
			key, elem = rw.src(t.Key), rw.src(t.Value)
		case *ast.ArrayType:
			key, elem = "int", rw.src(t.Elt)
		}
	} else if pureExpr(arg) {
		vals, err := rw.s.EvalValues(rw.ctx, rw.src(arg))
		if err != nil || len(vals) != 1 || !vals[0].IsValid() {
			return nil, false
		}
		names := rw.s.cellTypeNames()
		switch t := vals[0].Type(); t.Kind() {
		case reflect.Map:
			key, elem = typeString(t.Key(), names), typeString(t.Elem(), names)
		case reflect.Slice, reflect.Array:
			key, elem = "int", typeString(t.Elem(), names)
		}
	}
	if key == "" {
		return nil, false
	}
	switch fn {
	case "maps.Keys":
		return []string{key}, true
	case "maps.Values", "slices.Values":
		return []string{elem}, true
	case "maps.All", "slices.All", "slices.Backward":
		return []string{key, elem}, true
	}
	return nil, false
}

// rangeFunc rewrites a loop over an iterator that yields values of the
// types params into a call with a closure. fn is the type of the function
// the loop is in, for a return in the body; nil at a cell's top level.
func (rw *rewriter) rangeFunc(r *ast.RangeStmt, fn *ast.FuncType, params []string) {
	vars := []ast.Expr{r.Key, r.Value}
	if len(params) < 2 && r.Value != nil || len(params) < 1 && r.Key != nil {
		return // more variables than the iterator yields: the interpreter says so
	}
	id := rw.n
	rw.n++
	var decl, assign []string
	for i, typ := range params {
		name := "_"
		if i < len(vars) && vars[i] != nil {
			name = rw.src(vars[i])
		}
		if r.Tok == token.ASSIGN && name != "_" {
			fresh := fmt.Sprintf("%s_k%d_%d", privatePkg, id, i)
			assign = append(assign, fmt.Sprintf("%s = %s; ", name, fresh))
			name = fresh
		}
		decl = append(decl, name+" "+typ)
	}
	done := fmt.Sprintf("%s_done%d", privatePkg, id)
	body, returns, ok := rw.bodyEdits(r.Body, done, id, fn)
	if !ok {
		return
	}
	open, closing := "{ ", "; return true }) }"
	if returns {
		var results []string
		if fn != nil && fn.Results != nil {
			n := 0
			for _, f := range fn.Results.List {
				k := max(len(f.Names), 1)
				for j := 0; j < k; j++ {
					v := fmt.Sprintf("%s_r%d_%d", privatePkg, id, n)
					n++
					open += fmt.Sprintf("var %s %s; ", v, rw.src(f.Type))
					results = append(results, v)
				}
			}
			if len(fn.Results.List) > 0 && len(fn.Results.List[0].Names) > 0 {
				results = nil // named results: a bare return returns them
			}
		}
		open += fmt.Sprintf("var %s bool; ", done)
		closing = fmt.Sprintf("; return true }); if %s { return %s } }", done, strings.Join(results, ", "))
	}
	head := fmt.Sprintf("%s%s(func(%s) bool {%s", open, rw.src(r.X), strings.Join(decl, ", "), strings.Join(assign, ""))
	rw.edits = append(rw.edits, edit{rw.off(r.For), rw.off(r.Body.Lbrace) + 1, head})
	rw.edits = append(rw.edits, body...)
	rw.edits = append(rw.edits, edit{rw.off(r.Body.Rbrace), rw.off(r.Body.Rbrace) + 1, closing})
}

// bodyEdits rewrites the break, continue and return statements of a
// range-over-function loop's body that leave the body: break returns
// false from the yield function, continue true, and return sets the
// results aside in the variables named after id, sets done, and returns
// false. ok is false when the body has a labelled branch, or a return
// that cannot be carried out (a nested loop over a function returns).
func (rw *rewriter) bodyEdits(body *ast.BlockStmt, done string, id int, fn *ast.FuncType) (edits []edit, returns, ok bool) {
	ok = true
	named := fn != nil && fn.Results != nil && len(fn.Results.List) > 0 && len(fn.Results.List[0].Names) > 0
	var visit func(n ast.Node, inLoop, inSwitch bool)
	visit = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if c == n {
				return true
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if rs, isRange := c.(*ast.RangeStmt); isRange && !inLoop {
					if _, nested := rw.iterParams(rs.X); nested && containsReturn(rs.Body) {
						ok = false
					}
				}
				visit(c, true, inSwitch)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				visit(c, inLoop, true)
				return false
			case *ast.BranchStmt:
				if c.Label != nil && (c.Tok == token.BREAK || c.Tok == token.CONTINUE) {
					ok = false
				}
				switch {
				case c.Label != nil:
				case c.Tok == token.CONTINUE && !inLoop:
					edits = append(edits, edit{rw.off(c.Pos()), rw.off(c.End()), "return true"})
				case c.Tok == token.BREAK && !inLoop && !inSwitch:
					edits = append(edits, edit{rw.off(c.Pos()), rw.off(c.End()), "return false"})
				}
			case *ast.ReturnStmt:
				returns = true
				with := fmt.Sprintf("{ %s = true; return false }", done)
				if len(c.Results) > 0 {
					if fn == nil || fn.Results == nil {
						ok = false
						return false
					}
					var vs []string
					for i := 0; i < fn.Results.NumFields(); i++ {
						vs = append(vs, fmt.Sprintf("%s_r%d_%d", privatePkg, id, i))
					}
					if named {
						vs = vs[:0]
						for _, f := range fn.Results.List {
							for _, nm := range f.Names {
								vs = append(vs, nm.Name)
							}
						}
					}
					with = fmt.Sprintf("{ %s = %s; %s = true; return false }", strings.Join(vs, ", "), rw.src(listNode(c.Results)), done)
				}
				edits = append(edits, edit{rw.off(c.Pos()), rw.off(c.End()), with})
				return false
			}
			return true
		})
	}
	visit(body, false, false)
	return edits, returns, ok
}

// containsReturn reports whether a block returns, outside func literals.
func containsReturn(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// pureExpr reports whether x can be evaluated to learn its type without
// doing anything: no calls but len and cap, no func literals, no receive.
func pureExpr(x ast.Expr) bool {
	pure := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); !ok || (id.Name != "len" && id.Name != "cap") {
				pure = false
			}
		case *ast.FuncLit:
			pure = false
		case *ast.UnaryExpr:
			pure = pure && n.Op != token.ARROW
		}
		return pure
	})
	return pure
}

// localFuncs are the names that the code in f declares with an iterator
// type (a parameter seq iter.Seq[int], var it func(func(string) bool)):
// the types their yield function takes. A name declared otherwise too
// maps to nil.
//
// types, when not nil, gets the types of the names declared with one
// (nil for a name declared twice or without a type).
func localFuncs(f *ast.File, text string, fset *token.FileSet, head int, types map[string]ast.Expr) map[string][]string {
	src := func(n ast.Node) string {
		return text[fset.Position(n.Pos()).Offset-head : fset.Position(n.End()).Offset-head]
	}
	funcs := map[string][]string{}
	note := func(name string, typ ast.Expr) {
		if types != nil {
			if _, seen := types[name]; seen || typ == nil {
				types[name] = nil
			} else {
				types[name] = typ
			}
		}
		ps, isIter := iterTypeParams(typ, src)
		if _, seen := funcs[name]; seen || !isIter {
			funcs[name] = nil
			return
		}
		funcs[name] = ps
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, name := range n.Names {
				note(name.Name, n.Type)
			}
		case *ast.ValueSpec:
			for _, name := range n.Names {
				note(name.Name, n.Type)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						var typ ast.Expr
						if len(n.Rhs) == len(n.Lhs) {
							if lit, ok := n.Rhs[i].(*ast.FuncLit); ok {
								typ = lit.Type
							}
						}
						note(id.Name, typ)
					}
				}
			}
		}
		return true
	})
	for name, ps := range funcs {
		if ps == nil {
			delete(funcs, name) // unknown: the session may know it
		}
	}
	return funcs
}

// iterTypeParams returns the types that an iterator type yields:
// iter.Seq[V], iter.Seq2[K, V], func(yield func(K, V) bool).
func iterTypeParams(typ ast.Expr, src func(ast.Node) string) ([]string, bool) {
	switch t := typ.(type) {
	case *ast.IndexExpr:
		if sel, ok := t.X.(*ast.SelectorExpr); ok && src(sel) == "iter.Seq" {
			return []string{src(t.Index)}, true
		}
	case *ast.IndexListExpr:
		if sel, ok := t.X.(*ast.SelectorExpr); ok && src(sel) == "iter.Seq2" && len(t.Indices) == 2 {
			return []string{src(t.Indices[0]), src(t.Indices[1])}, true
		}
	case *ast.FuncType:
		if t.Results != nil && t.Results.NumFields() > 0 || t.Params.NumFields() != 1 {
			return nil, false
		}
		y, ok := t.Params.List[0].Type.(*ast.FuncType)
		if !ok || y.Results == nil || y.Results.NumFields() != 1 || src(y.Results.List[0].Type) != "bool" {
			return nil, false
		}
		var ps []string
		for _, f := range y.Params.List {
			for j := 0; j < max(len(f.Names), 1); j++ {
				ps = append(ps, src(f.Type))
			}
		}
		return ps, len(ps) <= 2
	}
	return nil, false
}

// typeString writes t as a cell can name it: the types that cells
// declared by their names (the interpreter gives them no name of their
// own in reflect), others as reflect writes them (agent.Step, []string).
func typeString(t reflect.Type, names map[reflect.Type]string) string {
	if n, ok := names[t]; ok {
		return n
	}
	if t.Name() != "" {
		return t.String()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + typeString(t.Elem(), names)
	case reflect.Slice:
		return "[]" + typeString(t.Elem(), names)
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), typeString(t.Elem(), names))
	case reflect.Map:
		return "map[" + typeString(t.Key(), names) + "]" + typeString(t.Elem(), names)
	}
	return t.String()
}

// cellTypeNames maps the reflect types of the types that cells declared
// to their names.
func (s *Session) cellTypeNames() map[reflect.Type]string {
	names := map[reflect.Type]string{}
	for name, kind := range s.decls {
		if kind != "type" || strings.HasPrefix(name, privatePkg) {
			continue
		}
		vals, err := s.EvalValues(context.Background(), "*new("+name+")")
		if err == nil && len(vals) == 1 && vals[0].IsValid() {
			names[vals[0].Type()] = name
		}
	}
	return names
}
