package repl

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// A cell's top-level defer and go statements.
//
// yaegi keeps a defer made at a cell's top level in its global frame and
// ran it again at the end of every later cell (four times after a method
// declaration). A cell is the body of a function to the session: its
// top-level deferred calls run when it ends, last first, whether it
// fails or not, with the function and arguments evaluated at the defer
// statement, as Go evaluates them. The unit `defer f(a, b)` is made
// `_grue.Defer(func() func() { f, a, b := f, a, b; return func() { f(a, b) } }())`
// on its own line, and Eval runs what Defer kept once the cell's units
// are done (runDeferred).
//
// A panic in a goroutine a cell starts ended the whole process. The
// body of every func literal started with go in a cell (go func() {...}())
// starts with a deferred recover that reports the panic, in Go's words,
// through GoPanic, on the same line; the session survives and says so
// before the next prompt.

// builtinCalls are the builtins a defer statement may call; their
// arguments are evaluated at the statement, the builtin itself at the end.
var builtinCalls = map[string]bool{"close": true, "delete": true, "panic": true, "print": true, "println": true,
	"copy": true, "clear": true, "recover": true}

// deferUnit rewrites u, a top-level defer statement, as above; ok is false
// when it is no call the rewrite can take (the interpreter then runs it).
func deferUnit(u unit) (unit, bool) {
	stmt, fset, head := parseStmtAt(u.text)
	d, ok := stmt.(*ast.DeferStmt)
	if !ok {
		return u, false
	}
	src := func(n ast.Node) string {
		return u.text[fset.Position(n.Pos()).Offset-len(head) : fset.Position(n.End()).Offset-len(head)]
	}
	call := d.Call
	var names, vals []string
	fun := src(call.Fun)
	id, isIdent := call.Fun.(*ast.Ident)
	if _, isLit := call.Fun.(*ast.FuncLit); !(isIdent && builtinCalls[id.Name]) && !isLit {
		if _, generic := call.Fun.(*ast.IndexExpr); generic {
			return u, false
		}
		names, vals = append(names, privatePkg+"_f"), append(vals, fun)
		fun = privatePkg + "_f"
	}
	if lit, isLit := call.Fun.(*ast.FuncLit); isLit {
		names, vals = append(names, privatePkg+"_f"), append(vals, src(lit))
		fun = privatePkg + "_f"
	}
	var args []string
	for i, a := range call.Args {
		n := fmt.Sprintf("%s_a%d", privatePkg, i)
		names, vals = append(names, n), append(vals, src(a))
		args = append(args, n)
	}
	ell := ""
	if call.Ellipsis.IsValid() {
		ell = "..."
	}
	var b strings.Builder
	b.WriteString(privatePkg + ".Defer(func() func() { ")
	if len(names) > 0 {
		b.WriteString(strings.Join(names, ", ") + " := " + strings.Join(vals, ", ") + "; ")
	}
	b.WriteString("return func() { " + fun + "(" + strings.Join(args, ", ") + ell + ") } }())")
	return unit{text: strings.ReplaceAll(b.String(), "\n", " "), line: u.line, col: u.col, first: token.IDENT, next: token.PERIOD}, true
}

// goRecover is the deferred recover that goRecovered puts first in the
// body of a func literal a go statement starts.
const goRecover = "defer func() { if r := recover(); r != nil { " + privatePkg + ".GoPanic(r) } }(); "

// goRecovered puts goRecover first in the body of each func literal that
// a go statement of text starts, on the line of its brace; a go statement
// of another call (go work(ch, n)) becomes a block that evaluates the
// function and its arguments, as the go statement does, and starts a
// func literal that calls them: { f, a, b := work, ch, n; go func() {
// defer ...; f(a, b) }() }. generic says whether a name is a generic
// function of the cells, which cannot be a value uninstantiated: its go
// statements are left as they are, as are those of builtins.
func goRecovered(text string, generic func(string) bool) string {
	if !strings.Contains(text, "go ") {
		return text
	}
	f, fset, head := parseUnitAt(unit{text: text})
	if f == nil {
		return text
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset - head }
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		if lit, ok := g.Call.Fun.(*ast.FuncLit); ok {
			at := off(lit.Body.Lbrace) + 1
			edits = append(edits, edit{at, at, " " + goRecover})
			return true
		}
		if id, ok := g.Call.Fun.(*ast.Ident); ok && (builtinCalls[id.Name] || generic(id.Name)) {
			return true
		}
		src := func(n ast.Node) string { return text[off(n.Pos()):off(n.End())] }
		names, vals := []string{privatePkg + "_gf"}, []string{src(g.Call.Fun)}
		var args []string
		for i, a := range g.Call.Args {
			n := fmt.Sprintf("%s_ga%d", privatePkg, i)
			names, vals, args = append(names, n), append(vals, src(a)), append(args, n)
		}
		ell := ""
		if g.Call.Ellipsis.IsValid() {
			ell = "..."
		}
		with := fmt.Sprintf("{ %s := %s; go func() { %s%s_gf(%s%s) }() }",
			strings.Join(names, ", "), strings.Join(vals, ", "), goRecover, privatePkg, strings.Join(args, ", "), ell)
		edits = append(edits, edit{off(g.Pos()), off(g.End()), with})
		return false
	})
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		text = text[:e.start] + e.with + text[e.end:]
	}
	return text
}

// deferCall keeps f, a deferred call of the running cell's top level.
func (s *Session) deferCall(f func()) { s.deferred = append(s.deferred, f) }

// runDeferred runs the cell's deferred calls, last first, and returns
// the error of the first that panicked, as Go reports a panic.
func (s *Session) runDeferred() (err error) {
	for len(s.deferred) > 0 {
		f := s.deferred[len(s.deferred)-1]
		s.deferred = s.deferred[:len(s.deferred)-1]
		func() {
			defer func() {
				if r := recover(); r != nil && err == nil {
					err = &Error{Kind: KindPanic, Msg: fmt.Sprint(r) + " (in a deferred call of the cell)"}
				}
			}()
			f()
		}()
	}
	return err
}

// goPanic reports a panic that a goroutine a cell started recovered.
func (s *Session) goPanic(r any) {
	fmt.Fprintf(s.out, "panic: %v [in a goroutine the cell started; recovered, the session goes on]\n", r)
}
