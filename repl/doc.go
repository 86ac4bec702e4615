package repl

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"

	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// magicDoc shows the documentation of a symbol: a package (strings), a
// package's symbol (strings.Split, strings.Builder.Len), a session
// variable, its method, a function a cell declared, or a magic (:time).
// The packages that Options.Docs documents have their doc comments;
// others' symbols show their type.
func magicDoc(ctx context.Context, s *Session, args string) error {
	if args == "" {
		return fmt.Errorf("usage: :doc SYMBOL")
	}
	w := s.Stdout()
	if strings.HasPrefix(args, ":") {
		return magicHelp(ctx, s, args)
	}
	parts := strings.Split(args, ".")
	// A package, by the name the session knows it by or its import path.
	if path, ok := s.packagePath(args); ok {
		return s.packageDoc(path)
	}
	if path, ok := s.packagePath(parts[0]); ok && len(parts) > 1 {
		name := strings.Join(parts[1:], ".")
		if d, ok := s.docs.Doc(path, name); ok {
			printDoc(w, d)
			return nil
		}
		p, _ := s.packages.lookup(path)
		if v, ok := p.Symbols[parts[1]]; ok && len(parts) == 2 {
			fmt.Fprintln(w, symbolSignature(p.Name, parts[1], v))
			return nil
		}
		return fmt.Errorf("%s has no exported %s", parts[0], name)
	}
	// A variable, a declared function, or their methods and fields.
	vals, err := s.EvalValues(ctx, parts[0])
	if err != nil || len(vals) != 1 || !vals[0].IsValid() {
		return fmt.Errorf("no symbol %s: not a package, variable or function of the session", args)
	}
	t := vals[0].Type()
	if len(parts) == 1 {
		fmt.Fprintf(w, "%s %s\n", args, t)
		if d, ok := s.typeDoc(t, ""); ok {
			fmt.Fprintln(w)
			printDoc(w, d)
		}
		return nil
	}
	member := parts[1]
	if d, ok := s.typeDoc(t, member); ok {
		printDoc(w, d)
		return nil
	}
	if m, ok := t.MethodByName(member); ok {
		fmt.Fprintf(w, "func (%s) %s%s\n", t, member, strings.TrimPrefix(m.Type.String(), "func"))
		return nil
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		if f, ok := st.FieldByName(member); ok {
			fmt.Fprintf(w, "%s.%s %s\n", parts[0], member, f.Type)
			return nil
		}
	}
	return fmt.Errorf("%s (%s) has no method or field %s", parts[0], t, member)
}

// packagePath returns the import path of the package that name refers to:
// a package the session imported, or an import path that is bound.
func (s *Session) packagePath(name string) (string, bool) {
	if p, ok := s.imports[name]; ok {
		return p, true
	}
	if _, ok := s.packages.lookup(name); ok {
		return name, true
	}
	return "", false
}

// packageDoc prints a package's doc and a line for each documented symbol.
func (s *Session) packageDoc(path string) error {
	w := s.Stdout()
	p, _ := s.packages.lookup(path)
	d, ok := s.docs.Doc(path, "")
	if !ok {
		fmt.Fprintf(w, "package %s // import %q\n\n", p.Name, path)
		fmt.Fprintln(w, "(no doc comments are bound for it: see go doc "+path+")")
		return nil
	}
	printDoc(w, d)
	fmt.Fprintln(w)
	for _, sym := range s.docs.Symbols(path) {
		decl := strings.SplitN(sym.Decl, "\n", 2)[0]
		if strings.HasSuffix(decl, "{") {
			decl = strings.TrimSuffix(decl, " {") + " ..."
		}
		fmt.Fprintf(w, "  %s\n", decl)
	}
	return nil
}

// typeDoc finds the doc of a named type of a documented package (or of
// its member, "Len" for Builder.Len), behind a pointer if need be.
func (s *Session) typeDoc(t reflect.Type, member string) (Doc, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" || t.PkgPath() == "" {
		return Doc{}, false
	}
	name := t.Name()
	if member != "" {
		name += "." + member
	}
	return s.docs.Doc(t.PkgPath(), name)
}

// symbolSignature describes a bound symbol that has no doc comment (the
// standard library's, say) from its value.
func symbolSignature(pkg, name string, v reflect.Value) string {
	switch {
	case v.Kind() == reflect.Func:
		return fmt.Sprintf("func %s.%s%s", pkg, name, strings.TrimPrefix(v.Type().String(), "func"))
	case v.Kind() == reflect.Pointer && v.IsNil():
		// A type: the extractor binds (*T)(nil).
		t := v.Type().Elem()
		return fmt.Sprintf("type %s %s", t, t.Kind())
	}
	return fmt.Sprintf("%s.%s %s", pkg, name, v.Type())
}

func printDoc(w interface{ Write([]byte) (int, error) }, d Doc) {
	fmt.Fprintln(w, d.Decl)
	if d.Text != "" {
		fmt.Fprintln(w)
		writeIndented(w, d.Text, "    ")
	}
}

// helpQuery recognises IPython's help: "name?" shows name's
// documentation, "name??" its source too where the session has it.
var helpQuery = lazyregexp.New(`^([A-Za-z_][\w.]*)\s*(\?\??)$`)

// parseHelpQuery returns the symbol of a help query and whether it asks
// for the source.
func parseHelpQuery(src string) (sym string, source, ok bool) {
	m := helpQuery.FindStringSubmatch(strings.TrimSpace(src))
	if m == nil {
		return "", false, false
	}
	return m[1], m[2] == "??", true
}

// helpFor answers "sym?" and "sym??".
func (s *Session) helpFor(ctx context.Context, sym string, source bool) error {
	err := magicDoc(ctx, s, sym)
	if !source {
		return err
	}
	if text, ok := s.declSource(sym); ok {
		fmt.Fprintf(s.Stdout(), "\n%s\n", text)
		return nil
	}
	if err == nil {
		fmt.Fprintf(s.Stdout(), "\n(no source in the session: %s is compiled; go doc -src shows it)\n", sym)
	}
	return err
}

// declSource finds the latest declaration of a function, method (T.M) or
// type that a cell made.
func (s *Session) declSource(sym string) (string, bool) {
	recv, name, isMethod := strings.Cut(sym, ".")
	if !isMethod {
		name = sym
	}
	for i := len(s.cells) - 1; i >= 0; i-- {
		c := s.cells[i]
		if c.Error != "" || isMagic(c.Input) {
			continue
		}
		for _, u := range scan(c.Input).units {
			f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+u.text, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Name.Name != name || (d.Recv == nil) == isMethod {
						continue
					}
					if isMethod && (len(d.Recv.List) != 1 || recvName(d.Recv.List[0].Type) != recv) {
						continue
					}
					return u.text, true
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						if ts, ok := sp.(*ast.TypeSpec); ok && !isMethod && ts.Name.Name == name {
							return u.text, true
						}
					}
				}
			}
		}
	}
	return "", false
}
