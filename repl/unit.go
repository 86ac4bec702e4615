package repl

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"reflect"

	"slices"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/internal/yaegi/interp"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// How a unit reaches the interpreter. yaegi's EvalWithContext takes a
// declaration, or statements that it wraps in a func main whose body it
// runs, putting the wrapper on the source's first line. The REPL starts
// each unit on the line below, after as many blank lines as put it on its
// own line of its cell, so that the interpreter's positions are the cell's
// plus one (source.offset):
//
//	_grue.Pack(   for an expression: Pack returns its values
//	{func() {     for a compound statement (for, if, switch, select, a
//	              block): it runs in a func literal called at once, in a
//	              frame of its own; a loop among the cell's own statements
//	              runs in the interpreter's global frame, where an
//	              interrupted one would carry on once the next cell resets
//	              that frame's run id
//	{             for a statement that starts with func (a func literal
//	              called at once): yaegi takes source that starts with func
//	              for a declaration, and failing that declares it as a func
//	              main, which it then runs after every cell
//	(nothing)     for a declaration or another statement
//
// EvalWithContext, unlike Execute, recovers the compiler's panics too.
const (
	exprOpen   = privatePkg + ".Pack("
	exprClose  = ")"
	funcOpen   = "{func() {"
	funcClose  = "\n}()}"
	blockOpen  = "{"
	blockClose = "\n}"
)

// evalUnit evaluates one unit of a cell, or of a file loaded as label. For
// an expression it returns its values and true.
func (s *Session) evalUnit(ctx context.Context, u unit, label string) ([]reflect.Value, bool, error) {
	loc := s.source(label)
	orig := u
	s.unitLine = u.line
	u.text = s.renameTypes(u)
	u, err := s.hoistRange(ctx, u, label)
	if err != nil {
		return nil, false, err
	}
	if u, err = s.redirectGenerics(ctx, u, loc); err != nil {
		return nil, false, err
	}
	u.text = s.rewriteGaps(ctx, u.text, s.declaredOwn, s.cellMethod)
	if u.first != token.IMPORT {
		if err := s.importUsed(ctx, u, loc); err != nil {
			if u.first == token.FUNC && s.classify(u) == declUnit {
				s.stubFunc(ctx, u, loc)
			}
			return nil, false, err
		}
	}
	body := strings.Repeat("\n", u.line) + u.text // the unit on its own line, below the wrapper's
	if d, ok := splitDecl(u, func(name string) bool { return s.generics[name] }); ok {
		err := s.evalDecl(ctx, u, d, loc)
		if err == nil && u.first == token.IDENT {
			s.noteErrors(parseStmt(u.text))
		}
		return nil, false, err
	}
	switch s.classify(u) {
	case importUnit:
		return nil, false, s.evalImports(ctx, u, loc)
	case declUnit:
		if err := s.checkDecl(u, loc); err != nil {
			return nil, false, err
		}
		if done, err := s.redefineDecl(ctx, orig, u, loc); done {
			if err == nil {
				s.noteDecl(orig, label)
				s.noteFuncs(ctx, orig, u, label)
			}
			return nil, false, err
		}
		if _, err := s.evalRetry(ctx, body, u, loc); err != nil {
			s.stubFunc(ctx, u, loc)
			return nil, false, err
		}
		s.noteDecl(u, label)
		s.noteFuncs(ctx, orig, u, label)
		return nil, false, nil
	}
	stmt := parseStmt(u.text)
	body = strings.Repeat("\n", u.line) + markLines(u)
	if isNil(stmt) {
		return []reflect.Value{{}}, true, nil // yaegi gives nil no value
	}
	if _, ok := stmt.(*ast.ExprStmt); ok && !s.isPrint(stmt) {
		// Try it as a value; a call of a function without results does
		// not compile so, and runs as a statement below. A compile error
		// means nothing ran, so trying again is safe.
		res, err := s.evalRetry(ctx, exprOpen+body+exprClose, u, loc)
		if err == nil {
			return s.unpack(res), true, nil
		}
		if !isCompileError(err) {
			return nil, false, err
		}
	}
	src := body
	switch {
	case isCompound(stmt):
		src = funcOpen + body + funcClose
	case u.first == token.FUNC:
		src = blockOpen + body + blockClose
	}
	_, err = s.evalRetry(ctx, src, u, loc)
	if err == nil {
		s.noteErrors(stmt)
	}
	return nil, false, err
}

// noteErrors prints the errors that an assignment at a cell's top level
// stored ("e, err := harness.NewEpisode(...)"), which would otherwise
// pass unseen: "err = harness.NewEpisode: ...".
func (s *Session) noteErrors(stmt ast.Stmt) {
	as, ok := stmt.(*ast.AssignStmt)
	if !ok {
		return
	}
	g := s.in.Globals()
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if err, ok := asError(deref(g[id.Name])); ok && err != nil {
			// fmt.Sprint, not err.Error(): an error holding a nil pointer
			// whose method panics on it shows as fmt shows it, "<nil>".
			fmt.Fprintf(s.out, "%s = %s\n", id.Name, display(reflect.ValueOf(fmt.Sprint(err)), s.opts.Width))
		}
	}
}

// hoistRange evaluates the operand of a top-level range loop that makes
// calls (for k := range maps.Keys(m)) once, into a variable that the loop
// then ranges over, so that rangeInts learns its type from its value.
func (s *Session) hoistRange(ctx context.Context, u unit, label string) (unit, error) {
	if u.first != token.FOR || !strings.Contains(u.text, "range") {
		return u, nil
	}
	const head = "package main; func main() {"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+u.text+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return u, nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	r, ok := body[0].(*ast.RangeStmt)
	if len(body) != 1 || !ok || pureExpr(r.X) {
		return u, nil
	}
	start, end := fset.Position(r.X.Pos()).Offset-len(head), fset.Position(r.X.End()).Offset-len(head)
	x := u.text[start:end]
	v := privatePkg + "_seq"
	d := unit{text: v + " := " + x, line: u.line + fset.Position(r.X.Pos()).Line - 1, first: token.IDENT}
	if _, _, err := s.evalUnit(ctx, d, label); err != nil {
		return u, err
	}
	u.text = u.text[:start] + v + strings.Repeat("\n", strings.Count(x, "\n")) + u.text[end:]
	return u, nil
}

// source is the position mapping and name knowledge for a unit of the
// current cell (label "") or of a file.
func (s *Session) source(label string) source {
	return source{
		label:  label,
		offset: 1,
		isPkg:  func(name string) bool { _, ok := s.imports[name]; return ok },
		known: func(name string) bool {
			if _, ok := s.imports[name]; ok {
				return true
			}
			if _, ok := s.decls[name]; ok {
				return true
			}
			_, ok := s.in.Globals()[name]
			return ok
		},
		funcAt: func(name string) string { return s.funcs[name] },
	}
}

type unitKind int

const (
	stmtUnit unitKind = iota
	declUnit
	importUnit
)

// classify tells declarations from statements: a unit that starts with
// import, const, type or var, or a func that parses as a declaration (a
// func literal called at once is a statement).
func (s *Session) classify(u unit) unitKind {
	switch u.first {
	case token.IMPORT:
		return importUnit
	case token.CONST, token.TYPE, token.VAR:
		return declUnit
	case token.FUNC:
		if u.next == token.IDENT {
			return declUnit
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+u.text, 0); err == nil {
			return declUnit
		}
	}
	return stmtUnit
}

// parseStmt parses a statement unit, nil when it does not parse (the
// interpreter then reports the error).
func parseStmt(text string) ast.Stmt {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main; func main() {"+text+"\n}", 0)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	if body == nil || len(body.List) != 1 {
		return nil
	}
	return body.List[0]
}

// isNil reports whether stmt is the expression nil.
func isNil(stmt ast.Stmt) bool {
	e, ok := stmt.(*ast.ExprStmt)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(e.X).(*ast.Ident)
	return ok && id.Name == "nil"
}

// isPrint reports whether stmt calls one of fmt's Print functions, whose
// results (bytes written and a nil error) are not worth showing.
func (s *Session) isPrint(stmt ast.Stmt) bool {
	call, ok := stmt.(*ast.ExprStmt).X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && s.imports[pkg.Name] == "fmt" && (strings.HasPrefix(sel.Sel.Name, "Print") || strings.HasPrefix(sel.Sel.Name, "Fprint"))
}

func isCompound(stmt ast.Stmt) bool {
	switch stmt.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt:
		return true
	}
	return false
}

// isCompileError reports whether err came from compiling, before anything
// ran: not a panic, an interruption or an os.Exit.
func isCompileError(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindError && e.compile
}

// evalRetry evaluates src, and when it does not compile because of an
// undefined name that is the name of exactly one bound package not yet
// imported, imports that package and tries again: a cell can use
// time.Now() without import "time".
func (s *Session) evalRetry(ctx context.Context, src string, u unit, loc source) (reflect.Value, error) {
	for tries := 0; ; tries++ {
		res, err := s.evalSource(ctx, src, u, loc)
		var e *Error
		if err == nil || tries == 3 || !errors.As(err, &e) || !e.compile {
			return res, err
		}
		if name := missingBuiltin(e); name != "" {
			if !s.declareBuiltin(ctx, name) {
				return res, err
			}
			continue
		}
		m := undefinedName.FindStringSubmatch(e.Msg)
		if m == nil {
			return res, err
		}
		p, ok := s.packages.named(m[1])
		if !ok {
			return res, err
		}
		if ierr := s.importPackage(ctx, m[1], p, loc, u.line); ierr != nil {
			return res, err
		}
	}
}

// importUsed imports the bound packages that a unit names (X.Y) without
// an import, where X is no name the session knows, before the unit runs:
// yaegi's compiler panics on a package it does not know in a function's
// signature (func (p *T) Next(ctx context.Context)) or on the left of a
// short declaration (u, err := url.Parse(s)) rather than calling it
// undefined, so evalRetry cannot import it after the fact. An unknown X
// that no bound package is called is reported as undefined, in words,
// before the interpreter can trip on it.
func (s *Session) importUsed(ctx context.Context, u unit, loc source) error {
	f := parseUnit(u)
	if f == nil {
		return nil // the interpreter says what is wrong
	}
	var names []string
	for _, id := range f.Unresolved {
		if !slices.Contains(names, id.Name) {
			names = append(names, id.Name)
		}
	}
	bases := map[string]bool{} // unresolved names used as X in X.Y
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				bases[id.Name] = true
			}
		}
		return true
	})
	for _, name := range names {
		if !bases[name] || loc.known(name) || isUniverse(name) {
			continue
		}
		if p, ok := s.packages.named(name); ok {
			if err := s.importPackage(ctx, name, p, loc, u.line); err != nil {
				return err
			}
			continue
		}
		msg := s.undefinedMsg(name, nil)
		return &Error{Kind: KindError, File: loc.label, Line: u.line, compile: true, Msg: msg}
	}
	return nil
}

// undefinedMsg is the message for the undefined name: Go's, with which
// package was meant when several bound ones share the name, or a near
// name of the session's (its variables, the packages, and more), or
// where to look.
func (s *Session) undefinedMsg(name string, more []string) string {
	if paths := s.packages.byName[name]; len(paths) > 1 {
		pick := paths[0]
		for _, p := range paths {
			if strings.HasPrefix(p, "math/") {
				pick = p
			}
		}
		return fmt.Sprintf("undefined: %s (several bound packages are called %s, %s: import the one you mean, as import %q)", name, name, strings.Join(paths, ", "), pick)
	}
	near := more
	for n := range s.packages.byName {
		near = append(near, n)
	}
	for n := range s.Globals() {
		near = append(near, n)
	}
	if best := nearest(name, near); best != "" {
		return fmt.Sprintf("undefined: %s (did you mean %s?)", name, best)
	}
	return fmt.Sprintf("undefined: %s (no package or variable of that name: :who lists the session's names, :help imports the packages)", name)
}

// rewriteGaps makes the rewrites of a unit's (or a script's) text for
// the interpreter's gaps that keep it line for line: min and max of
// constants (minmax.go; shadowed reports a name the code declares for
// itself), ranges over integers and functions (rewrite.go), loop
// variables (loopvar.go), tuple assignments (tuple.go), the %w operands
// of fmt.Errorf (errorf.go) and method expressions (methodexpr.go;
// declared gives the methods declared before, "T.M").
func (s *Session) rewriteGaps(ctx context.Context, text string, shadowed func(name string) bool, declared func(key string) (methodSig, bool)) string {
	return methodExprs(errorfOperands(tupleAssigns(perIteration(s.rangeInts(ctx, constMinMax(text, shadowed))))), declared)
}

// parseUnit parses a unit with object resolution, as a file's
// declarations or else as the body of a function (or, for a script, as
// the whole file it is); nil when it parses as none of them.
func parseUnit(u unit) *ast.File {
	f, _, _ := parseUnitAt(u)
	return f
}

// parseUnitAt is parseUnit, with the file set and the length of the
// wrapper before the unit's text in what was parsed.
func parseUnitAt(u unit) (*ast.File, *token.FileSet, int) {
	for _, head := range []string{"package main;", "package main; func main() {", ""} { // "": a script's whole file
		tail := ""
		if strings.HasSuffix(head, "{") {
			tail = "\n}"
		}
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, "", head+u.text+tail, 0); err == nil {
			return f, fset, len(head)
		}
	}
	return nil, nil, 0
}

// undefinedName matches the compiler's message for an unknown name.
var undefinedName = lazyregexp.New(`^undefined: ([A-Za-z_]\w*)$`)

// nilDeref matches the panics in which yaegi reports what compiled Go
// reports as a nil pointer dereference: the interpreter reaches the zero
// reflect.Value that a nil pointer's Elem gives (*p, p.F, a method of a
// nil interface).
var nilDeref = lazyregexp.New(`^reflect: (?:call of reflect\.Value\.\w+ on zero Value|Call using zero Value argument)`)

// compilePanics are the messages with which yaegi's compiler panics on
// code it does not support; EvalWithContext reports them as panics.
var compilePanics = map[string]bool{"nil type": true}

// evalSource runs src in the interpreter and turns what goes wrong into
// an Error: a compile error, a panic (with its trace), an interruption,
// or a script's os.Exit (an exitCode).
//
// An interruption (ctx ending) is given to the code first: the session's
// ctx is cancelled at once (see cellContext), so that a compiled call
// given it (a long call that takes ctx) returns and the unit ends by itself; a unit
// still running a moment later is stopped by the interpreter (see run).
func (s *Session) evalSource(ctx context.Context, src string, u unit, loc source) (_ reflect.Value, rerr error) {
	s.errw.begin()
	r, finished := s.run(ctx, unexportedTags(src)) // here, so that no record of the declaration (typeSrc) has the tags
	at := 0
	if finished && strings.Contains(src, lineVar) {
		at = s.markedLine() // and no mark outlives its unit
	}
	res, err := r.v, r.err
	frames := s.errw.end()
	defer func() {
		if e, ok := rerr.(*Error); ok {
			e.Msg = ownNames(e.Msg)
		}
	}()
	if !finished {
		return reflect.Value{}, &Error{Kind: KindInterrupted, File: loc.label, Line: u.line, Err: ctx.Err(),
			Msg: "interrupted, but a call the cell made into compiled code ignores ctx and is still running in the background: the next cells may race with it"}
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return reflect.Value{}, &Error{Kind: KindInterrupted, File: loc.label, Line: u.line, Msg: "interrupted", Err: ctx.Err()}
	}
	if err == nil {
		return res, nil
	}
	var p interp.Panic
	if errors.As(err, &p) {
		if code, ok := p.Value.(exitCode); ok {
			return reflect.Value{}, code
		}
		msg := fmt.Sprint(p.Value)
		if compilePanics[msg] {
			e := loc.compileError(errors.New(msg), u)
			e.Line, e.compile = u.line, true
			return reflect.Value{}, e
		}
		line := u.line // the top-level statement that panicked
		if at > 0 {
			line = at // the line it had reached (markLines)
		}
		if nilDeref.MatchString(msg) {
			msg = "runtime error: invalid memory address or nil pointer dereference (as yaegi reports a nil pointer, " +
				"or a nil interface or func, being used: " + msg + ")"
		}
		if strings.Contains(msg, "index out of range") {
			if d := s.indexDetail(u, line); d != "" {
				msg = d
			} else if strings.HasPrefix(msg, "reflect: ") {
				msg = "runtime error: " + strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(msg, "reflect: "), "slice "), "array ")
			}
		}
		return reflect.Value{}, &Error{
			Kind: KindPanic, File: loc.label, Line: line,
			Msg: msg, Trace: loc.trace(frames), Err: err,
		}
	}
	e := loc.compileError(err, u)
	e.compile = true
	s.suggest(e, u)
	return reflect.Value{}, e
}

// unpack turns the []interface{} that Pack returned into the values.
func (s *Session) unpack(res reflect.Value) []reflect.Value {
	if !res.IsValid() || res.Kind() != reflect.Slice {
		return nil
	}
	vals := make([]reflect.Value, res.Len())
	for i := range vals {
		vals[i] = deref(res.Index(i)) // the dynamic value; invalid for nil
		if _, ok := printed(res.Index(i)); ok {
			vals[i] = res.Index(i).Elem() // the interpreter's wrapper, which knows its type's String method
		}
		if e := vals[i]; e.IsValid() && e.Kind() == reflect.Func && e.Pointer() == s.pack.Pointer() {
			// The interpreter's value for a type or package name.
			return nil
		}
	}
	return vals
}

// evalImports evaluates an import declaration, leaving out the imports the
// session already has (yaegi refuses to import a name twice).
func (s *Session) evalImports(ctx context.Context, u unit, loc source) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main;"+strings.Repeat("\n", u.line)+u.text, parser.ImportsOnly)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) {
			return loc.compileError(err, u)
		}
		return err
	}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		var name string
		if spec.Name != nil {
			name = spec.Name.Name
		} else if b, ok := s.packages.lookup(p); ok {
			name = b.Name
		} else {
			name = path.Base(p)
		}
		line := fset.Position(spec.Pos()).Line - 1 // below the wrapper line
		if err := s.importPackage(ctx, name, p, loc, line); err != nil {
			return err
		}
	}
	return nil
}

// importPackage imports path p as name, unless the session has it
// already. line is the line of the import, for errors.
func (s *Session) importPackage(ctx context.Context, name, p string, loc source, line int) error {
	if have, ok := s.imports[name]; ok {
		if have == p {
			return nil
		}
		return &Error{Kind: KindError, File: loc.label, Line: line, Msg: fmt.Sprintf("%s is already imported, as %q: import %q under another name (import x %q)", name, have, p, p)}
	}
	if name == "_" || name == "." {
		return &Error{Kind: KindError, File: loc.label, Line: line, Msg: fmt.Sprintf("import %s %q: blank and dot imports are not supported in the REPL", name, p)}
	}
	if err := s.compileSources(p); err != nil {
		return &Error{Kind: KindError, File: loc.label, Line: line, Msg: err.Error(), Err: err}
	}
	u := unit{text: fmt.Sprintf("import %s %q", name, p), line: line, first: token.IMPORT}
	if _, err := s.evalSource(ctx, strings.Repeat("\n", line)+u.text, u, loc); err != nil {
		return err
	}
	s.imports[name] = p
	return nil
}

// checkDecl refuses the declarations that the interpreter would take
// badly: func main (yaegi runs a main after every cell).
func (s *Session) checkDecl(u unit, loc source) error {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+u.text, 0)
	if err != nil {
		return nil // the interpreter reports it
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "main" {
				return &Error{Kind: KindError, File: loc.label, Line: u.line, Msg: "func main cannot be declared in a session (the interpreter would run it after every cell): give it another name, or run the file with :run or grue run"}
			}
		}
	}
	return nil
}

// stubFunc declares a function whose declaration failed to compile as
// one that panics saying so: yaegi keeps a half-made function of that
// name, which panics in its own words when called.
func (s *Session) stubFunc(ctx context.Context, u unit, loc source) {
	f, _, src := parseDecl(u)
	if f == nil || len(f.Decls) != 1 {
		return
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil {
		return
	}
	sig := src(fd.Type.Params)
	if fd.Type.Results != nil {
		sig += " " + src(fd.Type.Results)
	}
	stub := fmt.Sprintf("func %s%s { panic(%q) }", fd.Name.Name, sig,
		"func "+fd.Name.Name+" has no body: the cell that declared it failed")
	_, _ = s.evalRetry(ctx, stub, unit{text: stub, line: 1, first: token.FUNC}, loc)
}

// noteFuncs records the source of a function or method declaration (u as
// evaluated; orig as written) for redeclareCallers, and when it declared
// a function again, compiles its callers again and says so.
func (s *Session) noteFuncs(ctx context.Context, orig, u unit, label string) {
	f, _, _ := parseDecl(orig)
	if f == nil || len(f.Decls) != 1 {
		return
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok {
		return
	}
	key := fd.Name.Name
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		key = recvName(fd.Recv.List[0].Type) + "." + key
	}
	if !s.noteFunc(key, orig, label) || fd.Recv != nil || s.recompiling {
		return
	}
	callers := s.redeclareCallers(ctx, key)
	if len(callers) == 0 {
		fmt.Fprintf(s.out, "redefined func %s\n", key)
		return
	}
	fmt.Fprintf(s.out, "redefined func %s, and compiled again what calls it: %s\n", key, strings.Join(callers, ", "))
}

// noteDecl records the functions and types a declaration made, and where
// (for panics' traces): label is "" for the current cell, else a file.
func (s *Session) noteDecl(u unit, label string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package main;"+strings.Repeat("\n", u.line-1)+u.text, 0)
	if err != nil {
		return
	}
	at := func(pos token.Pos) string {
		line := fset.Position(pos).Line
		if label == "" {
			return fmt.Sprintf("cell %d, line %d", s.n, line)
		}
		return fmt.Sprintf("%s:%d", label, line)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv == nil {
				s.decls[name] = "func"
				s.generics[name] = d.Type.TypeParams != nil
			} else if len(d.Recv.List) == 1 {
				name = recvName(d.Recv.List[0].Type) + "." + name
				_, s.ptrRecv[name] = d.Recv.List[0].Type.(*ast.StarExpr)
			}
			s.funcs[name] = at(d.Pos())
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					s.decls[ts.Name.Name] = "type"
					if _, ok := s.typeSrc[ts.Name.Name]; !ok {
						off := fset.Position(ts.Type.Pos()).Offset - len("package main;") - (u.line - 1)
						end := fset.Position(ts.Type.End()).Offset - len("package main;") - (u.line - 1)
						if off >= 0 && end <= len(u.text) {
							s.typeSrc[ts.Name.Name] = normalize(u.text[off:end])
						}
					}
				}
			}
		}
	}
}

// recvName is the type name of a method's receiver: T for T and *T.
func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	}
	return "?"
}
