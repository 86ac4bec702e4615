package repl

import (
	"context"
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// rangeInts rewrites the loops of a unit that range over a function (Go
// 1.23's iterators), which yaegi v0.16.1 refuses: a loop over a function
// becomes a call of it with a closure (see rangeFunc). (A range over an
// integer, of any integer type, grue's copy of yaegi runs itself:
// internal/yaegi/interp/range_grue.go.) A loop's operand is a function
// when it is a local of a function type (iter.Seq[V] included) or an
// expression without calls that the session evaluates to one. Other
// operands (slices, maps, integers) are left as they are. It returns the
// text unchanged when nothing needs rewriting.
func (s *Session) rangeInts(ctx context.Context, text string) string {
	if !strings.Contains(text, "range") {
		return text
	}
	f, fset, head := parseUnitAt(unit{text: text})
	if f == nil {
		return text
	}
	rw := &rewriter{s: s, ctx: ctx, fset: fset, text: text, head: head, types: map[string]ast.Expr{}}
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
		if op.yields != nil {
			rw.rangeFunc(r, fn, op.yields)
		}
		return
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
