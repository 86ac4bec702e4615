package repl

import (
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// Loop variables. Since Go 1.22 each iteration of a for loop has its own
// loop variables, so a closure made in the body (a goroutine, a deferred
// call, a func kept in a slice) or a pointer taken to one sees that
// iteration's value. yaegi v0.16.1 keeps Go 1.21's one variable for the
// whole loop, and every closure sees the value the loop ended with:
//
//	for _, g := range games { go func() { play(g) }() }  // every goroutine plays the last game
//
// So a loop whose body makes a closure or takes a loop variable's address
// starts its body with a copy of each loop variable, on the same line,
//
//	for _, g := range games { g := g; go func() { play(g) }() }
//
// which is what the loop means in Go 1.22. A three-clause loop gets the
// copy only when its body never assigns the variable: there the copy
// would keep a change from reaching the next iteration (such a loop keeps
// yaegi's meaning).

// perIteration returns text with the loops that need it given their
// per-iteration copies, or text itself when none does.
func perIteration(text string) string {
	if !strings.Contains(text, "for") || !strings.Contains(text, "func") && !strings.Contains(text, "&") {
		return text
	}
	f, fset, head := parseUnitAt(unit{text: text})
	if f == nil {
		return text
	}
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	ast.Inspect(f, func(n ast.Node) bool {
		var names []string
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				names, body = identNames(n.Key, n.Value), n.Body
			}
		case *ast.ForStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				names, body = identNames(as.Lhs...), n.Body
				if assigns(body, names) {
					names = nil
				}
			}
		}
		if len(names) > 0 && body != nil && capturesAny(body, names) {
			list := strings.Join(names, ", ")
			ins = append(ins, insert{fset.Position(body.Lbrace).Offset - head + 1, " " + list + " := " + list + ";"})
		}
		return true
	})
	sort.Slice(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	for _, in := range ins {
		text = text[:in.at] + in.text + text[in.at:]
	}
	return text
}

// identNames returns the names of the identifiers among es, but "_".
func identNames(es ...ast.Expr) []string {
	var names []string
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			names = append(names, id.Name)
		}
	}
	return names
}

// capturesAny reports whether body makes a closure (a func literal:
// go, defer and kept funcs alike) or takes the address of one of names.
func capturesAny(body *ast.BlockStmt, names []string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			found = true
		case *ast.UnaryExpr:
			found = addressOf(n, names)
		}
		return !found
	})
	return found
}

// addressOf reports whether u takes the address of one of names.
func addressOf(u *ast.UnaryExpr, names []string) bool {
	id, ok := u.X.(*ast.Ident)
	return ok && u.Op == token.AND && slices.Contains(names, id.Name)
}

// assigns reports whether body may change one of names: assigns it,
// increments it, declares it again, or takes its address.
func assigns(body *ast.BlockStmt, names []string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && slices.Contains(names, id.Name) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := n.X.(*ast.Ident); ok && slices.Contains(names, id.Name) {
				found = true
			}
		case *ast.UnaryExpr:
			found = addressOf(n, names)
		}
		return !found
	})
	return found
}
