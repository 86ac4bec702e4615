package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// Where a panic happened. yaegi v0.16.1 reports a panic at the first
// statement of the function it happened in, whatever line it was on, so a
// cell's statement that spans several lines (a loop, an if) marks its
// lines as it runs: before each statement inside it, an assignment to the
// session's variable _grue_line records the cell's line N, and a panic is
// reported at the last line recorded. (An assignment costs the
// interpreter about what the statement x += i does; a call of a compiled
// function would cost ten times that.) The marks sit on the lines of the
// statements they mark, so no line moves. Functions that cells declare
// are not marked (they run at full speed); a panic inside one names its
// function in the trace and the line of the cell's statement that called
// it.

// lineVar is the session's variable that line marks set.
const lineVar = privatePkg + "_line"

// markedLine returns the line that the last mark recorded, and sets the
// variable back to 0; 0 when no mark ran.
func (s *Session) markedLine() int {
	v, ok := s.in.Globals()[lineVar]
	if !ok || !v.IsValid() || !v.CanInt() || v.Int() == 0 {
		return 0
	}
	line := int(v.Int())
	_, _ = s.in.EvalWithContext(context.Background(), lineVar+" = 0")
	return line
}

// markLines inserts the line marks into a statement unit that spans
// several lines; it returns the text unchanged otherwise.
func markLines(u unit) string {
	if !strings.Contains(u.text, "\n") {
		return u.text
	}
	const head = "package main; func main() {"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+u.text+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return u.text
	}
	var offs []int
	var lines []int
	mark := func(list []ast.Stmt) {
		for _, st := range list {
			p := fset.Position(st.Pos())
			offs = append(offs, p.Offset-len(head))
			lines = append(lines, u.line+p.Line-1)
		}
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			if n != body {
				mark(n.List)
			}
		case *ast.CaseClause:
			mark(n.Body)
		case *ast.CommClause:
			mark(n.Body)
		}
		return true
	})
	if len(offs) == 0 {
		return u.text
	}
	idx := make([]int, len(offs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return offs[idx[a]] > offs[idx[b]] })
	text := u.text
	for _, i := range idx {
		text = text[:offs[i]] + fmt.Sprintf("%s = %d; ", lineVar, lines[i]) + text[offs[i]:]
	}
	return text
}

// indexDetail says which index of the line of unit u was out of range,
// as Go's runtime does ("index out of range [7] with length 2"), by
// evaluating the index expressions of that line whose operands have no
// calls; "" when none can be told.
func (s *Session) indexDetail(u unit, line int) string {
	const head = "package main; func main() {"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+u.text+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	src := func(n ast.Node) string {
		return u.text[fset.Position(n.Pos()).Offset-len(head) : fset.Position(n.End()).Offset-len(head)]
	}
	detail := ""
	ast.Inspect(f, func(n ast.Node) bool {
		ix, ok := n.(*ast.IndexExpr)
		if !ok || detail != "" || u.line+fset.Position(ix.Pos()).Line-1 != line || !pureExpr(ix.X) || !pureExpr(ix.Index) {
			return detail == ""
		}
		ctx := context.Background()
		xs, err := s.EvalValues(ctx, "len("+src(ix.X)+")")
		if err != nil || len(xs) != 1 || !xs[0].IsValid() || !xs[0].CanInt() {
			return true
		}
		is, err := s.EvalValues(ctx, src(ix.Index))
		if err != nil || len(is) != 1 || !is[0].IsValid() {
			return true
		}
		var i int64
		switch is[0].Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			i = is[0].Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			i = int64(is[0].Uint())
		default:
			return true
		}
		if n := xs[0].Int(); i < 0 || i >= n {
			detail = fmt.Sprintf("runtime error: index out of range [%d] with length %d (%s)", i, n, src(ix))
		}
		return true
	})
	return detail
}
