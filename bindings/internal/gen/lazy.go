package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// The symbol tables are built on first use, not at start-up: `yaegi
// extract` writes each table as an init function, and yaegi's standard
// library tables alone cost every grue command about 6 million machine
// instructions before main. lazify turns each init function into a loader
// that takes the table to fill, and the package lists its loaders.

// StdDir is the folder, under bindings, of the standard library's tables.
const StdDir = "std"

// LoadersFile is the name of the generated list of loaders, in bindings and
// in bindings/std.
const LoadersFile = "zz_loaders.go"

// stdlibPath is the package whose files are the standard library's tables.
const stdlibPath = "github.com/traefik/yaegi/stdlib"

// lazify rewrites a table's source as package pkg: each init function
// becomes a loader named prefix plus a number, taking the table (Symbols)
// as its parameter; the package-level vars Symbols (the table, now the
// parameter) and MapTypes (renamed mapTypes) of yaegi's stdlib source are
// handled as well. It returns the new source and the loaders' names.
func lazify(src []byte, pkg, prefix string) ([]byte, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	f.Name.Name = pkg
	if f.Doc != nil { // the source package's own doc comment
		for i, cg := range f.Comments {
			if cg == f.Doc {
				f.Comments = append(f.Comments[:i], f.Comments[i+1:]...)
				break
			}
		}
		f.Doc = nil
	}
	var names []string
	decls := f.Decls[:0]
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR && declares(g, "Symbols") {
			continue // the table is each loader's parameter
		}
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			fd.Name.Name = fmt.Sprintf("%s%d", prefix, len(names))
			names = append(names, fd.Name.Name)
			fd.Type.Params = &ast.FieldList{List: []*ast.Field{{
				Names: []*ast.Ident{ast.NewIdent("Symbols")},
				Type:  ast.NewIdent("map[string]map[string]reflect.Value"),
			}}}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "MapTypes" {
			id.Name = "mapTypes"
		}
		return true
	})
	// Drop the go:generate directives, which would run yaegi's extract
	// under go generate ./bindings.
	for _, cg := range f.Comments {
		list := cg.List[:0]
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, "//go:generate") {
				list = append(list, c)
			}
		}
		cg.List = list
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, nil, err
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, nil, err
	}
	return out, names, nil
}

func declares(g *ast.GenDecl, name string) bool {
	for _, s := range g.Specs {
		if vs, ok := s.(*ast.ValueSpec); ok {
			for _, n := range vs.Names {
				if n.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// loadersSource is the source of the list of loaders of package pkg.
func loadersSource(pkg string, names []string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	fmt.Fprintf(&b, "package %s\n\nimport \"reflect\"\n\n", pkg)
	b.WriteString("// loaders fill in the symbol tables, in the order of the generated files.\n")
	b.WriteString("var loaders = []func(map[string]map[string]reflect.Value){\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s,\n", n)
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// generateStd writes yaegi's standard library tables (the files of its
// stdlib package that build on this Go version) into dir as package std,
// with loaders instead of init functions. It returns the files written.
func generateStd(dir string) ([]string, error) {
	stdlibDir, err := upstreamStdlib()
	if err != nil {
		return nil, err
	}
	bp, err := build.ImportDir(stdlibDir, 0)
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", stdlibPath, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files, loaders []string
	for i, name := range bp.GoFiles {
		src, err := os.ReadFile(filepath.Join(bp.Dir, name))
		if err != nil {
			return nil, err
		}
		out, names, err := lazify(src, "std", fmt.Sprintf("load%d_", i))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		// A script may still call the standard library's deprecated
		// symbols, so the table names them on purpose: staticcheck is told
		// so in the file itself, and `staticcheck ./...` stays clean.
		out = append([]byte(header+"// From "+stdlibPath+"/"+name+" (Apache License 2.0, Traefik Labs).\n\n"+
			"//lint:file-ignore SA1019 the table binds every exported symbol, deprecated ones included.\n\n"), out...)
		if err := write(filepath.Join(dir, name), out); err != nil {
			return nil, err
		}
		files = append(files, name)
		loaders = append(loaders, names...)
	}
	src, err := loadersSource("std", loaders)
	if err != nil {
		return nil, err
	}
	if err := write(filepath.Join(dir, LoadersFile), src); err != nil {
		return nil, err
	}
	files = append(files, LoadersFile)
	return files, removeStale(dir, files)
}
