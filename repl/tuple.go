package repl

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// Tuple assignments. yaegi v0.16.1 gets an assignment of several values
// wrong when one of its left-hand sides has an interface type: the
// interface is left nil when another right-hand side is a call, and a
// panic ("reflect.Set: value of type interp.valueInterface is not
// assignable") ends the cell when none is:
//
//	a.LLM, a.Model = c, c.Model()  // a.LLM stays nil
//
// One value at a time it assigns them right. (It also panics on a
// composite literal assigned to a field or an element of an interface
// type, a.Model = Echo{"#"}, which goes the same way: see
// literalIntoPlace.) So a tuple assignment
// becomes a block that does in turn what Go's assignment does at once,
// on the same line:
//
//	{ _grue_t0 := a.LLM; _grue_t1 := a.Model; _grue_t0 = c; _grue_t1 = c.Model(); a.LLM = _grue_t0; a.Model = _grue_t1 }
//
// Each temporary is declared from its left-hand side, so it has that
// side's type (an untyped constant on the right is converted as Go
// converts it); every right-hand side is evaluated before anything is
// assigned, so a swap (a, b = b, a) still swaps. Go evaluates the index
// and pointer operands on the left once, before the right: the rewrite
// evaluates them again when assigning, so it is made only where that
// cannot differ: left-hand sides that are variables, fields of variables,
// *p, and indexes by a constant or a variable, none of them assigning a
// variable that another left-hand side reads.

// tupleAssigns returns text with its tuple assignments made one value at
// a time, or text itself when it has none that need it.
func tupleAssigns(text string) string {
	if !strings.Contains(text, "=") || !strings.Contains(text, ",") && !strings.Contains(text, "{") {
		return text
	}
	f, u := parseForEdit(text)
	if f == nil {
		return text
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for _, st := range list {
			if as, ok := st.(*ast.AssignStmt); ok && oneByOne(as) && u.line(as.Pos()) == u.line(as.End()) {
				u.replace(as, assignInTurn(as, u.src))
			}
		}
		return true
	})
	return u.apply() // one in a func literal on another's right: the outer
}

// oneByOne reports whether as is a tuple assignment that tupleAssigns
// makes one value at a time (see the comment above).
func oneByOne(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	if len(as.Lhs) == 1 {
		return literalIntoPlace(as)
	}
	assigned := map[string]bool{}
	for _, l := range as.Lhs {
		if !simpleTarget(l) {
			return false
		}
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			assigned[id.Name] = true
		}
	}
	for _, l := range as.Lhs {
		if _, ok := l.(*ast.Ident); ok {
			continue
		}
		reads := false
		ast.Inspect(l, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && assigned[id.Name] {
				reads = true
			}
			return !reads
		})
		if reads {
			return false // i, a[i] = ...: a[i] is the old i's
		}
	}
	return true
}

// literalIntoPlace reports whether as assigns a composite literal
// (T{...} or &T{...}) to a field, an element or *p: yaegi panics on one
// whose place is of an interface type (a.Model = Echo{"#"}: "reflect.Set:
// value of type interp.valueInterface is not assignable"), though the
// same value through a variable of the place's type is assigned right.
func literalIntoPlace(as *ast.AssignStmt) bool {
	if _, ok := as.Lhs[0].(*ast.Ident); ok || !simpleTarget(as.Lhs[0]) {
		return false
	}
	r := as.Rhs[0]
	if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.AND {
		r = u.X
	}
	_, ok := r.(*ast.CompositeLit)
	return ok
}

// simpleTarget reports whether evaluating e again gives the same variable:
// a name, a field of one, *p, or an index by a constant or a variable.
func simpleTarget(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.ParenExpr:
		return simpleTarget(e.X)
	case *ast.SelectorExpr:
		return simpleTarget(e.X)
	case *ast.StarExpr:
		_, ok := e.X.(*ast.Ident)
		return ok
	case *ast.IndexExpr:
		switch e.Index.(type) {
		case *ast.BasicLit, *ast.Ident:
			return simpleTarget(e.X)
		}
	}
	return false
}

// assignInTurn is the block that does the assignment as, whose
// expressions' source src gives, one value at a time.
func assignInTurn(as *ast.AssignStmt, src func(ast.Node) string) string {
	var decl, eval, set []string
	for i, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
			eval = append(eval, "_ = "+src(as.Rhs[i]))
			continue
		}
		t := fmt.Sprintf("%s_t%d", privatePkg, i)
		decl = append(decl, t+" := "+src(l))
		eval = append(eval, t+" = "+src(as.Rhs[i]))
		set = append(set, src(l)+" = "+t)
	}
	return "{ " + strings.Join(append(append(decl, eval...), set...), "; ") + " }"
}
