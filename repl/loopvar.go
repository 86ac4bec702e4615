package repl

import (
	"go/ast"
	"go/token"
	"slices"
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
	f, u := parseForEdit(text)
	if f == nil {
		return text
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var names []string
		var body *ast.BlockStmt
		threeClause := false
		switch n := n.(type) {
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				names, body = identNames(n.Key, n.Value), n.Body
			}
		case *ast.ForStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				names, body, threeClause = identNames(as.Lhs...), n.Body, true
			}
		}
		if body == nil {
			return true
		}
		names = slices.DeleteFunc(names, func(name string) bool { return declares(body, name) })
		if len(names) == 0 || !capturesAny(body, names) {
			return true
		}
		list := strings.Join(names, ", ")
		if !threeClause || !assigns(body, names) {
			u.insertAt(body.Lbrace+1, " "+list+" := "+list+";")
			return true
		}
		// The body may change a variable of a three-clause loop, and the
		// next iteration's copy starts from the value it ends with: the
		// copy is written back at the end of the body and before each
		// continue. A labeled continue or a goto keeps yaegi's meaning.
		conts, ok := loopContinues(body)
		if !ok {
			return true
		}
		ptrs := make([]string, len(names))
		back := make([]string, len(names))
		for i, name := range names {
			ptrs[i] = privatePkg + "_" + name
			back[i] = "*" + ptrs[i] + " = " + name
		}
		u.insertAt(body.Lbrace+1, " "+strings.Join(ptrs, ", ")+" := &"+strings.Join(names, ", &")+"; "+list+" := "+list+";")
		for _, c := range conts {
			u.replace(c, "{ "+strings.Join(back, "; ")+"; continue }")
		}
		u.insertAt(body.Rbrace, "; "+strings.Join(back, "; ")+" ")
		return true
	})
	return u.apply()
}

// loopContinues returns the continue statements of a loop's body that
// continue that loop (not those of a loop inside it); false when the body
// has a labeled continue or a goto, which may leave an iteration unseen.
func loopContinues(body *ast.BlockStmt) ([]ast.Node, bool) {
	var conts []ast.Node
	ok := true
	var walk func(n ast.Node, inner bool)
	walk = func(n ast.Node, inner bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false // a continue cannot leave a function
			case *ast.ForStmt:
				if m.Body != n {
					walk(m.Body, true)
					return false
				}
			case *ast.RangeStmt:
				if m.Body != n {
					walk(m.Body, true)
					return false
				}
			case *ast.BranchStmt:
				switch {
				case m.Tok == token.GOTO || m.Label != nil && m.Tok == token.CONTINUE:
					ok = false
				case m.Tok == token.CONTINUE && !inner:
					conts = append(conts, m)
				}
			}
			return ok
		})
	}
	walk(body, false)
	return conts, ok
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

// declares reports whether one of body's own statements declares name
// (the copy that code written before Go 1.22 makes, v := v): a second
// declaration in the block would not compile.
func declares(body *ast.BlockStmt, name string) bool {
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE && slices.Contains(identNames(st.Lhs...), name) {
				return true
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && slices.ContainsFunc(vs.Names, func(id *ast.Ident) bool { return id.Name == name }) {
						return true
					}
				}
			}
		}
	}
	return false
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
