package repl

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Type-checking a cell. Before a cell runs, go/types checks it against
// what the cells before it declared and the bound packages (typesof.go),
// so that a type error is reported as the Go compiler words it, at the
// cell's line and column, and never reaches the interpreter: a
// declaration that yaegi failed half-way left the session unusable.
//
// The checked file is the session so far and then the cell:
//
//	package main
//	import NAME "PATH"        the packages the session imported, and the cell's imports
//	import _grue_qN "PATH"    the packages that the types written below name
//	<declarations>            the types, functions, methods and constants cells declared, the latest of each
//	var x T                   each variable of a type cells declared (the others are put in the package's scope)
//	<the cell's declarations> a top-level x, y := v is var x, y = v
//	func _() { <the cell's statements> }
//
// with //line comments that give each part of the cell its own position.
// A variable declared and not used, a package imported and not used, are
// no errors in a cell (as in other Go REPLs: the next cell may use them);
// a script (grue run) is checked as go build checks it (checkScript).

//go:generate go run ./internal/genstubs

// cellFile is the file name the checked cells' positions carry.
const cellFile = "_grue_cell_.go"

// checker is what the session's type-checking keeps from cell to cell.
type checker struct {
	im      *typesImporter
	imports map[string]string // name -> import path
	decls   []checkedDecl
	vars    map[string]checkedVar
	qpaths  []string // the import paths of the _grue_qN aliases
}

// checkedDecl is a declaration of a cell, as source: keys are the names it
// declares ("T.M" for a method).
type checkedDecl struct {
	keys []string
	src  string
}

// checkedVar is the type of a session variable: typ when it names no
// type that cells declared (so it is the same object from check to
// check), else text, written with the _grue_qN aliases.
type checkedVar struct {
	typ  types.Type
	text string
}

func newChecker(index *packageIndex) *checker {
	return &checker{im: newTypesImporter(index), imports: map[string]string{}, vars: map[string]checkedVar{}}
}

// checkedCell is a cell that passed the check: what to keep once it has
// run without error (commit).
type checkedCell struct {
	// split are the units to run as others, by index: x, err := f() as
	// var x T; var err error; x, err = f() (splitMulti).
	split   map[int][]unit
	ck      *checker
	label   string // the file name its declarations' positions carry once kept
	imports map[string]string
	decls   []checkedDecl
	vars    map[string]checkedVar
	drop    map[string]bool // the names the cell declares again
}

// commitVars keeps the variables the cell declared, and its imports, for
// a cell that failed as it ran (a panic): the interpreter has those its
// units made before the failure.
func (c *checkedCell) commitVars() {
	if c == nil {
		return
	}
	for k, v := range c.imports {
		c.ck.imports[k] = v
	}
	for k, v := range c.vars {
		c.ck.vars[k] = v
	}
}

// commit keeps what the cell declared for the next cells' checks.
func (c *checkedCell) commit() {
	if c == nil {
		return
	}
	ck := c.ck
	for k, v := range c.imports {
		ck.imports[k] = v
	}
	keep := ck.decls[:0]
	for _, d := range ck.decls {
		if !c.drop[d.keys[0]] {
			keep = append(keep, d)
		}
	}
	for _, d := range c.decls {
		d.src = strings.ReplaceAll(d.src, "/*line "+cellFile+":", "/*line "+c.label+":")
		keep = append(keep, d)
	}
	ck.decls = keep
	for name := range c.drop {
		delete(ck.vars, name)
	}
	for k, v := range c.vars {
		ck.vars[k] = v
	}
}

// cellPart is one unit of a cell as it goes into the checked file.
type cellPart struct {
	unit     int  // the index of its unit in the cell
	multi    bool // x, err := f(): a short declaration of several variables by one call
	lhs      []string
	pkgLevel bool
	isImport bool
	src      string
	keys     []string // the names a declaration declares
	vars     []string // the variables it declares
}

// CheckError is one error of go/types, at its place in a cell or file.
type checkError struct {
	pos token.Position
	msg string
}

// checkCell type-checks the units of a cell (label "") or of a file
// loaded into the session (label its name). It returns the cell to
// commit once it has run, or an *Error: the first of the errors in
// order of position, the others after it as the Go compiler lists them.
func (s *Session) checkCell(units []unit, label string) (*checkedCell, error) {
	if s.ck == nil {
		s.ck = newChecker(s.packages)
	}
	ck := s.ck
	file := cellFile
	if label != "" {
		file = label
	}
	var parts []cellPart
	var topLevel []unit // the statement units, for the errors that are no errors at a cell's top level
	declared := map[string]bool{}
	var direct []checkError
	dup := 0
	for ui, u := range units {
		if u.first == token.PACKAGE {
			continue
		}
		at := func(line, col int) string { return fmt.Sprintf("/*line %s:%d:%d*/", file, line, col) }
		lead := at(u.line, u.col)
		switch s.classify(u) {
		case importUnit:
			parts = append(parts, cellPart{pkgLevel: true, isImport: true, src: lead + u.text})
			continue
		case declUnit:
			keys, vars := declNames(u.text)
			for _, k := range keys {
				declared[k] = true
			}
			parts = append(parts, cellPart{unit: ui, multi: multiVar(u.text), pkgLevel: true, src: lead + u.text, keys: keys, vars: vars})
			continue
		}
		stmt, fset, head := parseStmtAt(u.text)
		if ret := topReturn(stmt); ret != nil {
			p := fset.Position(ret.Pos())
			l, c := cellPos(u, p, head)
			direct = append(direct, checkError{token.Position{Filename: file, Line: l, Column: c},
				"return at a cell's top level: a cell is not a function body (declare a func and call it)"})
			continue
		}
		as, ok := stmt.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			topLevel = append(topLevel, u)
			parts = append(parts, cellPart{src: lead + u.text})
			continue
		}
		// x, y := v at the top level declares session variables.
		var names, assigns, vars []string
		fresh := false
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				fresh = false
				break
			}
			p := fset.Position(id.Pos())
			ln, cl := cellPos(u, p, head)
			switch {
			case id.Name == "_":
				names = append(names, at(ln, cl)+"_")
			case declared[id.Name]:
				dup++
				tmp := fmt.Sprintf("_grue_dup%d", dup)
				names = append(names, at(ln, cl)+tmp)
				assigns = append(assigns, at(ln, cl)+id.Name+" = "+tmp)
			default:
				fresh = true
				declared[id.Name] = true
				vars = append(vars, id.Name)
				names = append(names, at(ln, cl)+id.Name)
			}
		}
		if !fresh {
			topLevel = append(topLevel, u)
			parts = append(parts, cellPart{src: lead + u.text})
			continue
		}
		first := fset.Position(as.Rhs[0].Pos())
		last := fset.Position(as.Rhs[len(as.Rhs)-1].End())
		ln, cl := cellPos(u, first, head)
		rhs := u.text[first.Offset-len(head) : last.Offset-len(head)]
		var lhs []string
		for _, l := range as.Lhs {
			lhs = append(lhs, l.(*ast.Ident).Name)
		}
		parts = append(parts, cellPart{unit: ui, multi: len(as.Lhs) > 1 && len(as.Rhs) == 1, lhs: lhs,
			pkgLevel: true, src: "var " + strings.Join(names, ", ") + " = " + at(ln, cl) + rhs, keys: vars, vars: vars})
		for _, a := range assigns {
			parts = append(parts, cellPart{src: a})
		}
	}
	if len(direct) > 0 {
		return nil, s.checkErrors(direct, label, units)
	}
	cell := &checkedCell{ck: ck, label: s.declLabel(label), imports: map[string]string{}, vars: map[string]checkedVar{}, drop: declared}
	for {
		pkg, errs := s.checkParts(parts, cell, file, topLevel, label != "" && s.script)
		if pkg == nil {
			return nil, nil // it does not parse, or go/types failed: the interpreter says what it says
		}
		for _, e := range errs {
			if strings.HasPrefix(e.msg, "could not import ") {
				return nil, nil // the session says which package is not bound, and which are
			}
		}
		if len(errs) > 0 {
			// A package used without an import is imported before the
			// cell runs (importUsed): so it is for the check.
			added := false
			for _, e := range errs {
				name, ok := strings.CutPrefix(e.msg, "undefined: ")
				if !ok || declared[name] || cell.imports[name] != "" || ck.imports[name] != "" || s.imports[name] != "" {
					continue
				}
				if p, ok := s.packages.named(name); ok {
					cell.imports[name] = p
					added = true
				}
			}
			if added {
				continue
			}
			return nil, s.checkErrors(errs, label, units)
		}
		for _, p := range parts {
			if p.isImport {
				continue
			}
			if len(p.keys) > 0 && len(p.vars) == 0 {
				cell.decls = append(cell.decls, checkedDecl{keys: p.keys, src: p.src})
			}
			for _, name := range p.vars {
				obj, _ := pkg.Scope().Lookup(name).(*types.Var)
				if obj != nil {
					cell.vars[name] = ck.varType(obj.Type(), pkg)
				}
			}
		}
		for _, p := range parts {
			if p.multi {
				cell.splitMulti(units[p.unit], p, pkg)
			}
		}
		for _, p := range parts {
			if p.isImport {
				for name, path := range importsOf(p.src) {
					cell.imports[name] = path
				}
			}
		}
		return cell, nil
	}
}

// checkParts checks the file of the session so far and parts.
func (s *Session) checkParts(parts []cellPart, cell *checkedCell, file string, topLevel []unit, strict bool) (pkg *types.Package, errs []checkError) {
	ck := s.ck
	var b strings.Builder
	b.WriteString("package main\n")
	cellImports := map[string]bool{}
	for _, p := range parts {
		if p.isImport {
			for name := range importsOf(p.src) {
				cellImports[name] = true
			}
			b.WriteString(p.src + "\n")
		}
	}
	imports := map[string]string{}
	for k, v := range s.imports { // the preloaded packages, and those imported on first use
		if !strings.HasPrefix(k, privatePkg) {
			imports[k] = v
		}
	}
	for k, v := range ck.imports {
		imports[k] = v
	}
	for k, v := range cell.imports {
		imports[k] = v
	}
	names := make([]string, 0, len(imports))
	for k := range imports {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		if !cellImports[name] && !cell.drop[name] {
			fmt.Fprintf(&b, "import %s %q\n", name, imports[name])
		}
	}
	// The text of the variables below names packages by alias.
	for i, p := range ck.qpaths {
		fmt.Fprintf(&b, "import _grue_q%d %q\n", i, p)
	}
	b.WriteString("//line _grue_session_.go:1\n")
	for _, d := range ck.decls {
		if !cell.drop[d.keys[0]] {
			b.WriteString(d.src + "\n")
		}
	}
	for name, v := range ck.vars {
		if v.text != "" && !cell.drop[name] {
			fmt.Fprintf(&b, "var %s %s\n", name, v.text)
		}
	}
	var body strings.Builder
	for _, p := range parts {
		switch {
		case p.isImport:
		case p.pkgLevel:
			b.WriteString(p.src + "\n")
		default:
			body.WriteString(p.src + "\n")
		}
	}
	b.WriteString("//line _grue_session_.go:1\nfunc _() {\n" + body.String() + "\n}\n")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, b.String(), parser.SkipObjectResolution)
	if err != nil {
		return nil, nil // the interpreter says why it does not parse
	}
	pkg = types.NewPackage("main", "main")
	for name, v := range ck.vars {
		if v.typ != nil && !cell.drop[name] {
			pkg.Scope().Insert(types.NewVar(token.NoPos, pkg, name, v.typ))
		}
	}
	if s.lingering != nil {
		select {
		case <-s.lingering: // it ended: its variables are there to read
			s.lingering = nil
		default:
		}
	}
	var globals map[string]reflect.Value
	if s.lingering == nil {
		// Not while an interrupted unit still runs in the interpreter,
		// which may be growing its frame: the cells' own variables are
		// known without it.
		globals = s.in.Globals()
	}
	for name, v := range globals {
		if strings.HasPrefix(name, privatePkg) || name == "_" || cell.drop[name] || pkg.Scope().Lookup(name) != nil || ck.vars[name].text != "" || !v.IsValid() {
			continue
		}
		pkg.Scope().Insert(types.NewVar(token.NoPos, pkg, name, ck.im.typeOf(v.Type())))
	}
	broken := map[string]string{} // function or method ("T.M") of an earlier cell -> its first error
	conf := &types.Config{Importer: ck.im, Error: func(err error) {
		te, ok := err.(types.Error)
		if !ok {
			return
		}
		p := te.Fset.Position(te.Pos)
		if p.Filename != file {
			// In what cells declared before (a caller of a function
			// declared again with other parameters), or the wrapping.
			if key := declAt(f, te.Pos); key != "" && broken[key] == "" && !te.Soft {
				broken[key] = (&Error{File: p.Filename, Line: p.Line, Col: p.Column}).where() + ": " + te.Msg
			}
			return
		}
		if !strict && (strings.HasPrefix(te.Msg, "declared and not used") || strings.Contains(te.Msg, " imported") && strings.HasSuffix(te.Msg, " not used")) {
			return
		}
		if strings.HasSuffix(te.Msg, " is not used") && atUnitStart(topLevel, p) {
			return // a value shown
		}
		errs = append(errs, checkError{p, te.Msg})
	}}
	defer func() {
		if r := recover(); r != nil {
			pkg, errs = nil, nil // go/types failed on what reflect gave it: the interpreter checks alone
		}
	}()
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	types.NewChecker(conf, fset, pkg, info).Files([]*ast.File{f})
	s.ranges = s.rangeOperands(f, fset, info, file, pkg)
	if len(errs) == 0 && len(broken) > 0 {
		for id, obj := range info.Uses {
			fn, ok := obj.(*types.Func)
			p := fset.Position(id.Pos())
			if in := declAt(f, id.Pos()); !ok || p.Filename != file || in != "" && in != "_" {
				continue // a function the cell declares may call one to be fixed in the next
			}
			key := fn.Name()
			if recv := fn.Signature().Recv(); recv != nil {
				t := recv.Type()
				if ptr, ok := t.(*types.Pointer); ok {
					t = ptr.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					key = n.Obj().Name() + "." + key
				}
			}
			if why := broken[key]; why != "" && fn.Pkg() == pkg {
				errs = append(errs, checkError{p, fmt.Sprintf("%s no longer compiles, since what it calls was declared again: %s", key, why)})
			}
		}
	}
	return pkg, errs
}

// declLabel is the file name of the declarations of the cell being
// checked, once kept: "cell N", or the file's label.
func (s *Session) declLabel(label string) string {
	if label != "" {
		return label
	}
	return fmt.Sprintf("cell %d", s.n)
}

// declAt is the function or method ("T.M") of f whose declaration holds pos.
func declAt(f *ast.File, pos token.Pos) string {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || pos < fd.Pos() || pos >= fd.End() {
			continue
		}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			return recvName(fd.Recv.List[0].Type) + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
	return ""
}

// atUnitStart reports whether p is where one of units starts.
func atUnitStart(units []unit, p token.Position) bool {
	for _, u := range units {
		if u.line == p.Line && u.col == p.Column {
			return true
		}
	}
	return false
}

// varType is how the checker keeps a variable of type t: the type itself
// when it names no type of package main, else its text.
func (ck *checker) varType(t types.Type, main *types.Package) checkedVar {
	mentions := false
	types.TypeString(t, func(p *types.Package) string {
		if p == main {
			mentions = true
		}
		return p.Name()
	})
	if !mentions {
		return checkedVar{typ: t}
	}
	return checkedVar{text: types.TypeString(t, func(p *types.Package) string {
		if p == main {
			return ""
		}
		for i, q := range ck.qpaths {
			if q == p.Path() {
				return fmt.Sprintf("_grue_q%d", i)
			}
		}
		ck.qpaths = append(ck.qpaths, p.Path())
		return fmt.Sprintf("_grue_q%d", len(ck.qpaths)-1)
	})}
}

// checkErrors is the Error of errs: the first in order of position, with
// the others (up to 10 in all, as the Go compiler lists them) after it.
func (s *Session) checkErrors(errs []checkError, label string, units []unit) *Error {
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i].pos, errs[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	e := &Error{Kind: KindError, File: label, Line: errs[0].pos.Line, Col: errs[0].pos.Column, Msg: s.hint(errs[0].msg, errs[0].pos, units), compile: true}
	for i, x := range errs[1:] {
		if i == 9 {
			e.Msg += "\n\ttoo many errors"
			break
		}
		more := Error{File: label, Line: x.pos.Line, Col: x.pos.Column}
		e.Msg += "\n\t" + more.where() + ": " + x.msg
	}
	return e
}

// cellPos is the line and column in the cell of p, a position in the
// parse of unit u's text after head (parseStmtAt).
func cellPos(u unit, p token.Position, head string) (int, int) {
	line := u.line + p.Line - 2 // head is a line of its own
	if p.Line == 2 {
		return line, u.col + p.Column - 1
	}
	return line, p.Column
}

// parseStmtAt parses a statement unit, on the line after head.
func parseStmtAt(text string) (ast.Stmt, *token.FileSet, string) {
	const head = "package main; func main() {\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+text+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return nil, fset, head
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return nil, fset, head
	}
	return body[0], fset, head
}

// topReturn is a return statement of stmt outside any func literal: one
// at a cell's top level.
func topReturn(stmt ast.Stmt) *ast.ReturnStmt {
	if stmt == nil {
		return nil
	}
	var ret *ast.ReturnStmt
	ast.Inspect(stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if ret == nil {
				ret = n
			}
		}
		return ret == nil
	})
	return ret
}

// declNames returns the keys a declaration unit declares (functions,
// types, constants, variables; "T.M" for a method) and the variables
// among them.
func declNames(text string) (keys, vars []string) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+text, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				keys = append(keys, recvName(d.Recv.List[0].Type)+"."+d.Name.Name)
			} else if d.Name.Name != "init" && d.Name.Name != "_" {
				keys = append(keys, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					keys = append(keys, sp.Name.Name)
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.Name == "_" {
							continue
						}
						keys = append(keys, n.Name)
						if d.Tok == token.VAR {
							vars = append(vars, n.Name)
						}
					}
				}
			}
		}
	}
	return keys, vars
}

// importsOf returns the packages an import unit imports, by name.
func importsOf(text string) map[string]string {
	m := map[string]string{}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+text, parser.ImportsOnly)
	if err != nil {
		return m
	}
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, "\"`")
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		} else if versionSuffix.MatchString(name) && strings.Contains(p, "/") {
			q := p[:strings.LastIndex(p, "/")]
			name = q[strings.LastIndex(q, "/")+1:]
		}
		if name != "_" && name != "." {
			m[name] = p
		}
	}
	return m
}

var noMember = lazyregexp.New(`^(.* undefined \(type .* has no field or method ([A-Za-z_]\w*))\)$`)

var undefinedQualified = lazyregexp.New(`^undefined: ([A-Za-z_]\w*)\.([A-Za-z_]\w*)$`)

// hint adds to the message of a type error what the session knows: the
// package meant when several share a name, a near name.
func (s *Session) hint(msg string, pos token.Position, units []unit) string {
	if m := noMember.FindStringSubmatch(msg); m != nil {
		for i := len(units) - 1; i >= 0; i-- {
			if units[i].line <= pos.Line {
				names, _ := s.memberNames(units[i], m[2])
				if best := nearest(m[2], names); best != "" {
					return m[1] + "; did you mean " + best + "?)"
				}
				break
			}
		}
		return msg
	}
	if m := undefinedQualified.FindStringSubmatch(msg); m != nil {
		p, ok := s.ck.imports[m[1]]
		if !ok {
			p, ok = s.packages.named(m[1])
		}
		if bp, found := s.packages.lookup(p); ok && found {
			var names []string
			for sym := range bp.Symbols {
				if !strings.HasPrefix(sym, "_") {
					names = append(names, sym)
				}
			}
			if best := nearest(m[2], names); best != "" {
				return msg + " (did you mean " + best + "?)"
			}
			if !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
				return msg + " (the REPL binds no " + m[2] + " of package " + p + ": its tables, made with reflect, hold no generic function or type of the standard library)"
			}
		}
		return msg
	}
	m := undefinedPlain.FindStringSubmatch(msg)
	if m == nil || msg != "undefined: "+m[1] {
		return msg
	}
	var decls []string
	for _, d := range s.ck.decls {
		decls = append(decls, d.keys...)
	}
	return s.undefinedMsg(m[1], decls)
}

// checkScript type-checks a script as go build does: a variable declared
// and not used, a package imported and not used, are errors. The first
// error in order of position fails it, the others listed after.
func (s *Session) checkScript(path string, fset *token.FileSet, f *ast.File) (err error) {
	if s.ck == nil {
		s.ck = newChecker(s.packages)
	}
	var errs []checkError
	conf := &types.Config{Importer: s.ck.im, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			errs = append(errs, checkError{te.Fset.Position(te.Pos), te.Msg})
		}
	}}
	defer func() {
		if r := recover(); r != nil {
			err = nil // go/types failed on what reflect gave it: the interpreter checks alone
		}
	}()
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, _ := conf.Check("main", fset, []*ast.File{f}, info)
	if pkg != nil {
		s.ranges, s.unitLine = s.rangeOperands(f, fset, info, path, pkg), 1
	}
	for _, e := range errs {
		if strings.HasPrefix(e.msg, "could not import ") {
			return nil // the interpreter says which package is not bound
		}
	}
	if len(errs) == 0 {
		return nil
	}
	e := s.checkErrors(errs, path, nil)
	e.Msg = strings.Replace(e.Msg, s.hint(errs[0].msg, errs[0].pos, nil), errs[0].msg, 1) // go build's words alone
	return e
}

// splitMulti makes the unit u, a short declaration of several variables
// by one value at a cell's top level (c, err := strconv.Atoi("3"), the
// comma-ok forms v, ok := <-ch, m[k], x.(T)), the
// declarations of its new variables with the types the check gave them
// and an assignment, on the unit's line: yaegi's short declaration left
// the variables zero inside functions called from a loop. Left as it is
// when a type cannot be written.
func (c *checkedCell) splitMulti(u unit, p cellPart, pkg *types.Package) {
	byPath := map[string]string{}
	for name, path := range c.ck.imports {
		byPath[path] = name
	}
	for name, path := range c.imports {
		byPath[path] = name
	}
	var out []unit
	ok := true
	for _, name := range p.vars {
		obj, _ := pkg.Scope().Lookup(name).(*types.Var)
		if obj == nil {
			return
		}
		text := types.TypeString(obj.Type(), func(q *types.Package) string {
			if q == pkg {
				return ""
			}
			n, found := byPath[q.Path()]
			if !found {
				ok = false
			}
			return n
		})
		if !ok || strings.Contains(text, "invalid type") {
			return
		}
		out = append(out, unit{text: "var " + name + " " + text, line: u.line, col: u.col, first: token.VAR, next: token.IDENT})
	}
	text := u.text
	if u.first == token.VAR {
		// var c, err = f(): the names after var, then = f().
		i := strings.Index(text, "=")
		if i < 0 {
			return
		}
		text = strings.TrimSpace(strings.TrimPrefix(text[:i], "var")) + " " + text[i:]
		out = append(out, unit{text: text, line: u.line, col: u.col, first: token.IDENT})
	} else {
		i := strings.Index(text, ":=")
		if i < 0 {
			return
		}
		out = append(out, unit{text: text[:i] + "=" + text[i+2:], line: u.line, col: u.col, first: u.first, next: u.next})
	}
	if c.split == nil {
		c.split = map[int][]unit{}
	}
	c.split[p.unit] = out
}

// multiVar reports whether a declaration unit is var a, b = f(): several
// variables, no type, one value (a call, a comma-ok form).
func multiVar(text string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+text, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return false
	}
	gd, ok := f.Decls[0].(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR || gd.Lparen.IsValid() || len(gd.Specs) != 1 {
		return false
	}
	vs := gd.Specs[0].(*ast.ValueSpec)
	return len(vs.Names) > 1 && vs.Type == nil && len(vs.Values) == 1
}

// units returns the units to run: the cell's, those split by splitMulti
// replaced.
func (c *checkedCell) units(units []unit) []unit {
	if c == nil || len(c.split) == 0 {
		return units
	}
	var out []unit
	for i, u := range units {
		if x, ok := c.split[i]; ok {
			out = append(out, x...)
			continue
		}
		out = append(out, u)
	}
	return out
}

// rangeOperand is what the check learned of a range loop's operand: an
// integer, or an iterator and the types it yields, written as the cell
// may write them.
type rangeOperand struct {
	isInt   bool
	intType string   // the integer's type, "" for an untyped constant's int
	yields  []string // nil for no iterator
}

// rangeKey is how rangeInts finds a loop's operand: its line in the cell
// and its text.
func rangeKey(line int, x ast.Expr) string { return fmt.Sprintf("%d:%s", line, types.ExprString(x)) }

// rangeOperands are the operands of the range loops of file (the cell's
// code in f), by rangeKey: the types that rangeInts rewrites them by, in
// place of guesses from names (type interval []int is no integer).
func (s *Session) rangeOperands(f *ast.File, fset *token.FileSet, info *types.Info, file string, main *types.Package) map[string]rangeOperand {
	m := map[string]rangeOperand{}
	byPath := map[string]string{}
	if s.ck != nil {
		for name, path := range s.ck.imports {
			byPath[path] = name
		}
	}
	for name, path := range s.imports {
		byPath[path] = name
	}
	ast.Inspect(f, func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok {
			return true
		}
		p := fset.Position(r.X.Pos())
		tv, ok := info.Types[r.X]
		if p.Filename != file || !ok || tv.Type == nil {
			return true
		}
		var op rangeOperand
		switch u := tv.Type.Underlying().(type) {
		case *types.Basic:
			op.isInt = u.Info()&types.IsInteger != 0
			if op.isInt && u.Info()&types.IsUntyped == 0 {
				op.intType = types.TypeString(tv.Type, func(q *types.Package) string {
					if q == main {
						return ""
					}
					return byPath[q.Path()]
				})
			}
		case *types.Signature:
			if u.Params().Len() != 1 || u.Results().Len() != 0 {
				break
			}
			y, ok := u.Params().At(0).Type().Underlying().(*types.Signature)
			if !ok || y.Results().Len() != 1 {
				break
			}
			known := true
			for i := range y.Params().Len() {
				op.yields = append(op.yields, types.TypeString(y.Params().At(i).Type(), func(q *types.Package) string {
					if q == main {
						return ""
					}
					name, found := byPath[q.Path()]
					known = known && found
					return name
				}))
			}
			if !known {
				return true // left to the guesses
			}
			if op.yields == nil {
				op.yields = []string{}
			}
		}
		m[rangeKey(p.Line, r.X)] = op
		return true
	})
	return m
}
