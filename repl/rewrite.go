package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// rangeInts rewrites the loops of a unit that range over an integer (Go
// 1.22), which yaegi v0.16.1 refuses, into three-clause loops: "for i :=
// range 3 {" becomes "for i := 0; i < 3; i++ {" on the same line. A loop's
// operand is an integer when it is an integer literal, or an expression
// without calls that the session evaluates to an integer; other operands
// (slices, a function's locals) are left as they are. It returns the text
// unchanged when nothing ranges over an integer.
func (s *Session) rangeInts(ctx context.Context, text string) string {
	if !strings.Contains(text, "range") {
		return text
	}
	heads := []string{"package main;", "package main; func main() {"}
	for _, head := range heads {
		tail := ""
		if strings.HasSuffix(head, "{") {
			tail = "\n}"
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", head+text+tail, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		type edit struct {
			start, end int
			with       string
		}
		var edits []edit
		n := 0
		ints := localInts(f)
		ast.Inspect(f, func(node ast.Node) bool {
			r, ok := node.(*ast.RangeStmt)
			if !ok || r.Value != nil {
				return true
			}
			if id, ok := r.X.(*ast.Ident); !(ok && ints[id.Name]) && !s.isIntOperand(ctx, r.X) {
				return true
			}
			off := func(p token.Pos) int { return fset.Position(p).Offset - len(head) }
			x := text[off(r.X.Pos()):off(r.X.End())]
			key, tok := fmt.Sprintf("%s_i%d", privatePkg, n), ":="
			n++
			if id, ok := r.Key.(*ast.Ident); ok {
				key, tok = id.Name, r.Tok.String()
			} else if r.Key != nil {
				return true // an index expression as the key: left alone
			}
			if key == "_" {
				key, tok = fmt.Sprintf("%s_i%d", privatePkg, n), ":="
			}
			with := fmt.Sprintf("for %s %s 0; %s < (%s); %s++ ", key, tok, key, x, key)
			edits = append(edits, edit{off(r.For), off(r.Body.Lbrace), with})
			return true
		})
		if len(edits) == 0 {
			return text
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
		for _, e := range edits {
			// Keep the header's line breaks, so that lines do not move.
			nl := strings.Repeat("\n", strings.Count(text[e.start:e.end], "\n"))
			text = text[:e.start] + e.with + nl + text[e.end:]
		}
		return text
	}
	return text
}

// isIntOperand reports whether x, a range loop's operand, is an integer:
// an integer literal, or an expression without calls whose value in the
// session is of an integer kind.
func (s *Session) isIntOperand(ctx context.Context, x ast.Expr) bool {
	if lit, ok := x.(*ast.BasicLit); ok {
		return lit.Kind == token.INT
	}
	pure := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); !ok || (id.Name != "len" && id.Name != "cap") {
				pure = false
			}
		case *ast.FuncLit, *ast.UnaryExpr:
			pure = false
		}
		return pure
	})
	if !pure {
		return false
	}
	var b strings.Builder
	if err := printer.Fprint(&b, token.NewFileSet(), x); err != nil {
		return false
	}
	vals, err := s.EvalValues(ctx, b.String())
	if err != nil || len(vals) != 1 || !vals[0].IsValid() {
		return false
	}
	switch vals[0].Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// localInts are the names that the code in f declares as integers: the
// parameters and variables of an integer type, and those declared from an
// integer literal. A name declared twice differently is not one.
func localInts(f *ast.File) map[string]bool {
	ints := map[string]bool{}
	seen := map[string]bool{}
	note := func(name string, isInt bool) {
		ints[name] = isInt && (ints[name] || !seen[name])
		seen[name] = true
	}
	intType := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && (strings.HasPrefix(id.Name, "int") || strings.HasPrefix(id.Name, "uint"))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, name := range n.Names {
				note(name.Name, intType(n.Type))
			}
		case *ast.ValueSpec:
			for _, name := range n.Names {
				note(name.Name, n.Type != nil && intType(n.Type))
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					lit, isLit := ast.Expr(nil), false
					if len(n.Rhs) == len(n.Lhs) {
						lit = n.Rhs[i]
						b, ok := lit.(*ast.BasicLit)
						isLit = ok && b.Kind == token.INT
					}
					note(id.Name, isLit)
				}
			}
		}
		return true
	})
	return ints
}
