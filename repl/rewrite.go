package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// rangeInts rewrites the loops of a unit that range over an integer (Go
// 1.22) or over a function (Go 1.23's iterators), which yaegi v0.16.1
// refuses. "for i := range 3 {" becomes "for i := 0; i < 3; i++ {" on
// the same line; a loop over a function becomes a call of it with a
// closure (see rangeFunc). A loop's operand is an integer when it is an
// integer literal, a local of an integer type, or an expression without
// calls that the session evaluates to an integer; it is a function when
// it is a local of a function type (iter.Seq[V] included) or an
// expression without calls that the session evaluates to one. Other
// operands (slices, maps) are left as they are. It returns the text
// unchanged when nothing needs rewriting.
func (s *Session) rangeInts(ctx context.Context, text string) string {
	if !strings.Contains(text, "range") {
		return text
	}
	f, fset, head := parseUnitAt(unit{text: text})
	if f == nil {
		return text
	}
	rw := &rewriter{s: s, ctx: ctx, fset: fset, text: text, head: head, ints: localInts(f), types: map[string]ast.Expr{}}
	rw.funcs = localFuncs(f, text, fset, head, rw.types)
	rw.walk(f)
	if len(rw.edits) == 0 {
		return text
	}
	return rw.apply()
}

// rewriter collects the edits of rangeInts.
type rewriter struct {
	s     *Session
	ctx   context.Context
	fset  *token.FileSet
	text  string
	head  int                 // bytes of wrapper before text in what was parsed
	ints  map[string]bool     // locals of integer types
	funcs map[string][]string // locals of iterator types: the yield func's parameter types
	types map[string]ast.Expr // locals declared with their types
	edits []edit
	n     int // loops rewritten, for fresh names
}

// edit replaces text[start:end] with with.
type edit struct {
	start, end int
	with       string
}

func (rw *rewriter) off(p token.Pos) int { return rw.fset.Position(p).Offset - rw.head }

// src is the text of node n.
func (rw *rewriter) src(n ast.Node) string { return rw.text[rw.off(n.Pos()):rw.off(n.End())] }

// walk finds the range loops to rewrite, knowing the function each is in
// (for its results).
func (rw *rewriter) walk(root ast.Node) {
	var fns []*ast.FuncType
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch top.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				fns = fns[:len(fns)-1]
			}
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncDecl:
			fns = append(fns, n.Type)
		case *ast.FuncLit:
			fns = append(fns, n.Type)
		case *ast.RangeStmt:
			var fn *ast.FuncType
			if len(fns) > 0 {
				fn = fns[len(fns)-1]
			}
			rw.rangeStmt(n, fn)
		}
		return true
	})
}

// rangeStmt adds the edits for one range loop, if it needs any.
func (rw *rewriter) rangeStmt(r *ast.RangeStmt, fn *ast.FuncType) {
	if op, ok := rw.typed(r.X); ok {
		switch {
		case op.isInt && r.Value == nil && pureExpr(r.X):
			rw.rangeIntTyped(r, op.intType)
		case op.yields != nil:
			rw.rangeFunc(r, fn, op.yields)
		}
		return
	}
	if r.Value == nil {
		if id, ok := r.X.(*ast.Ident); (ok && rw.ints[id.Name]) || rw.s.isIntOperand(rw.ctx, r.X) {
			rw.rangeInt(r)
			return
		}
	}
	if params, ok := rw.iterParams(r.X); ok {
		rw.rangeFunc(r, fn, params)
	}
}

// typed is what the cell's type check learned of the range operand x;
// false when it learned nothing (a function compiled again for a
// redefinition, a script), and the rewrite guesses from names and values.
func (rw *rewriter) typed(x ast.Expr) (rangeOperand, bool) {
	if rw.s.ranges == nil || rw.s.recompiling {
		return rangeOperand{}, false
	}
	op, ok := rw.s.ranges[rangeKey(rw.s.unitLine+rw.fset.Position(x.Pos()).Line-1, x)]
	return op, ok
}

// rangeInt rewrites a loop over an integer into a three-clause loop.
func (rw *rewriter) rangeInt(r *ast.RangeStmt) { rw.rangeIntTyped(r, "") }

// rangeIntTyped is rangeInt for an operand of type typ ("" for int):
// the loop variable has the operand's type, as in Go.
func (rw *rewriter) rangeIntTyped(r *ast.RangeStmt, typ string) {
	zero := "0"
	if typ != "" && typ != "int" {
		zero = typ + "(0)"
	}
	x := rw.src(r.X)
	key, tok := fmt.Sprintf("%s_i%d", privatePkg, rw.n), ":="
	rw.n++
	if id, ok := r.Key.(*ast.Ident); ok {
		key, tok = id.Name, r.Tok.String()
	} else if r.Key != nil {
		return // an index expression as the key: left alone
	}
	if key == "_" {
		key, tok = fmt.Sprintf("%s_i%d", privatePkg, rw.n), ":="
	}
	with := fmt.Sprintf("for %s %s %s; %s < (%s); %s++ ", key, tok, zero, key, x, key)
	rw.edits = append(rw.edits, edit{rw.off(r.For), rw.off(r.Body.Lbrace), with})
}

// apply makes the edits, keeping the lines of what they replace, so
// that the lines of the code do not move.
func (rw *rewriter) apply() string {
	sort.Slice(rw.edits, func(i, j int) bool { return rw.edits[i].start > rw.edits[j].start })
	text := rw.text
	for _, e := range rw.edits {
		nl := strings.Repeat("\n", strings.Count(text[e.start:e.end], "\n"))
		text = text[:e.start] + e.with + nl + text[e.end:]
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

// intTypeNames are the predeclared integer types (a type interval []int
// is none).
var intTypeNames = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

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
		return ok && intTypeNames[id.Name]
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
