package repl

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// scriptTag is a build tag that scripts are run with: a script in a
// folder of several (scripts/) says //go:build ignore, so that go build
// and go vet leave it out, and still runs.
const scriptTag = "ignore"

// exitCode is the status a script gave os.Exit. The script's os.Exit
// panics with it, so that the interpreter unwinds and grue, not the
// script, ends the process.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// ExitStatus returns the status a script asked for with os.Exit, when err
// came from that.
func ExitStatus(err error) (int, bool) {
	var c exitCode
	if errors.As(err, &c) {
		return int(c), true
	}
	return 0, false
}

// RunFile runs a script: a Go file of package main, whose main runs with
// os.Args set to path and args, with the packages of opts.Symbols (its
// output and input are those of opts; the rest of opts is for
// notebooks); or a notebook (.md, as :save writes), whose cells run in a
// fresh session that New(opts) starts, in turn, stopping at the first
// error. A script that calls os.Exit gives an error that ExitStatus reads
// (nil for os.Exit(0)).
func RunFile(ctx context.Context, path string, args []string, opts Options) error {
	opts = withDefaults(opts)
	data, err := readSource(path)
	if err != nil {
		return err
	}
	if isNotebook(path) {
		return runNotebook(ctx, path, string(data), opts)
	}
	fset := token.NewFileSet()
	f, perr := parser.ParseFile(fset, path, data, 0) // when it does not parse, the interpreter says why
	if perr == nil && (f.Name.Name != "main" || !hasMain(f)) {
		return fmt.Errorf("%s: a script is a Go file of package main with a func main", path)
	}
	errw := &panicFilter{w: opts.Stderr}
	in, err := newInterp(opts.Symbols, opts.Stdout, errw, opts.Stdin, append([]string{path}, args...), scriptTag)
	if err != nil {
		return err
	}
	exit := func(code int) { panic(exitCode(code)) }
	if err := in.Use(interp.Exports{"os/os": {"Exit": reflect.ValueOf(exit)}, privatePkg + "/" + privatePkg: {"Clear": reflect.ValueOf(clearValue)}}); err != nil {
		return err
	}
	// A Session around the interpreter, for its error handling and its
	// rewrites: the script's source runs rewritten line for line (its main
	// runs), so positions are the file's own.
	s := &Session{in: in, errw: errw, packages: newPackageIndex(opts.Symbols), imports: map[string]string{}, decls: map[string]string{},
		funcs: scriptFuncs(path, fset, f, perr), compiled: map[string]bool{}, script: true}
	if perr == nil {
		if err := s.checkScript(path, fset, f); err != nil {
			return err
		}
	}
	loc := s.source(path)
	loc.offset = 0
	src, err := s.scriptSource(ctx, string(data), f, perr, loc)
	if err != nil {
		return err
	}
	_, err = s.evalSource(ctx, src, unit{text: src, line: 1}, loc)
	var e *Error
	if errors.As(err, &e) && e.Kind == KindPanic {
		e.Line = 0 // the line of main's first statement, which says nothing: the trace says more
	}
	if code, ok := ExitStatus(err); ok && code == 0 {
		return nil
	}
	return err
}

// scriptSource is a script's source as the interpreter takes it: with
// the rewrites that a cell gets for the interpreter's gaps (slices and
// maps, and rewriteGaps's), line for line, and the min, max and clear it
// calls (which the interpreter lacks) declared after its last line. f is
// the script parsed, perr why it did not parse.
func (s *Session) scriptSource(ctx context.Context, text string, f *ast.File, perr error, loc source) (string, error) {
	u, err := s.redirectGenerics(ctx, unit{text: text, line: 1}, loc)
	if err != nil {
		return "", err
	}
	if perr == nil {
		// The packages the session makes from source (iter), which a
		// script importing only them would not find otherwise.
		for _, spec := range f.Imports {
			if p, err := strconv.Unquote(spec.Path.Value); err == nil && sourcePackages[p] != nil {
				if err := s.compileSources(p); err != nil {
					return "", &Error{Kind: KindError, File: loc.label, Msg: err.Error(), Err: err}
				}
			}
		}
	}
	unresolved := map[string]bool{}
	if perr == nil {
		for _, id := range f.Unresolved {
			unresolved[id.Name] = true
		}
	}
	text = s.rewriteGaps(ctx, u.text, func(name string) bool { return !unresolved[name] }, func(string) (methodSig, bool) { return methodSig{}, false })
	ordered := false
	for _, name := range []string{"min", "max", "clear"} {
		if !unresolved[name] || !strings.Contains(text, name+"(") {
			continue
		}
		if name == "clear" {
			// clear calls the session's own package, imported on the
			// package clause's line so that no line of the script moves.
			with, ok := importAfterPackage(text, privatePkg)
			if !ok {
				continue
			}
			text = with
		}
		decl := builtinSource[name]
		if strings.HasPrefix(decl, orderedDecl) {
			if ordered {
				decl = strings.TrimPrefix(decl, orderedDecl)
			}
			ordered = true
		}
		text += "\n" + decl
	}
	return text, nil
}

// scriptFuncs lists where a script, f as parsed into fset (perr why it
// did not parse), declares its functions, for traces.
func scriptFuncs(path string, fset *token.FileSet, f *ast.File, perr error) map[string]string {
	funcs := map[string]string{}
	if perr != nil {
		return funcs
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				name = recvName(fd.Recv.List[0].Type) + "." + name
			}
			funcs[name] = fmt.Sprintf("%s:%d", path, fset.Position(fd.Pos()).Line)
		}
	}
	return funcs
}

func hasMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return true
		}
	}
	return false
}

// isMainDecl reports whether a unit is the declaration of func main.
func isMainDecl(text string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+text, 0)
	return err == nil && hasMain(f)
}

func isNotebook(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".md") || isIpynb(path)
}

// runNotebook runs a notebook's cells in a fresh session, as RunPipe
// runs cells (each output after a CellMark line), and stops at the first
// error.
func runNotebook(ctx context.Context, path, text string, opts Options) error {
	cells, meta, err := notebookCells(path, text)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	opts.Meta = meta
	s, err := New(opts)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer s.Close()
	for _, c := range cells {
		out, err := s.evalMarkedOutput(ctx, c.Input)
		if err != nil {
			if errors.Is(err, ErrQuit) {
				return nil
			}
			return fmt.Errorf("%s: cell %d (%s): %w", path, s.n, firstLine(c.Input), err)
		}
		if opts.CheckOutputs && isMagic(c.Input) {
			continue // a magic's output is the session's state (:who, :history), not a result
		}
		if opts.CheckOutputs && strings.TrimRight(out, "\n") != strings.TrimRight(c.Output, "\n") {
			return fmt.Errorf("%s: cell %d (%s): the output differs from the notebook's (grue run --check):\n--- saved\n%s\n+++ now\n%s",
				path, s.n, firstLine(c.Input), strings.TrimRight(c.Output, "\n"), strings.TrimRight(out, "\n"))
		}
	}
	return nil
}

// importAfterPackage returns src with `; import path "path"` after its
// package clause, on that clause's line; false when src has none.
func importAfterPackage(src, path string) (string, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), nil, 0)
	if _, tok, _ := sc.Scan(); tok != token.PACKAGE {
		return src, false
	}
	pos, tok, lit := sc.Scan()
	if tok != token.IDENT {
		return src, false
	}
	end := file.Offset(pos) + len(lit)
	return src[:end] + fmt.Sprintf("; import %s %q", path, path) + src[end:], true
}
