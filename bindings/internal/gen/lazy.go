package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/grue-lab/grue/internal/yaegi/extract"
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

// generateStd writes the standard library's tables into dir as package
// std, with loaders instead of init functions: one table per package of
// StdPackages, extracted from the running Go's standard library by
// grue's copy of yaegi's extract package, as yaegi's own
// internal/cmd/extract writes them (go1_26_fmt.go, built for go1.26 and
// later), and the hand-written files of yaegi's stdlib package (the
// restricted os.Exit and log.Fatal, the table of fmt's and encoding's
// special interfaces). imp loads the packages. It returns the files
// written.
func generateStd(dir string, imp types.Importer) ([]string, error) {
	stdlibDir, err := upstreamStdlib()
	if err != nil {
		return nil, err
	}
	prefix, err := goPrefix()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files, loaders []string
	add := func(name, from string, src []byte) error {
		out, names, err := lazify(src, "std", fmt.Sprintf("load%d_", len(files)))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		// A script may still call the standard library's deprecated
		// symbols, so the table names them on purpose: staticcheck is told
		// so in the file itself, and `staticcheck ./...` stays clean.
		out = append([]byte(header+"// "+from+"\n\n"+
			"//lint:file-ignore SA1019 the table binds every exported symbol, deprecated ones included.\n\n"), out...)
		if err := write(filepath.Join(dir, name), out); err != nil {
			return err
		}
		files = append(files, name)
		loaders = append(loaders, names...)
		return nil
	}
	for _, name := range upstreamFiles {
		src, err := os.ReadFile(filepath.Join(stdlibDir, name))
		if err != nil {
			return nil, fmt.Errorf("read %s's %s: %w", stdlibPath, name, err)
		}
		if err := add(name, "From "+stdlibPath+"/"+name+" (Apache License 2.0, Traefik Labs).", src); err != nil {
			return nil, err
		}
	}
	ext := extract.Extractor{Dest: "std", Importer: imp}
	for _, p := range StdPackages {
		var buf bytes.Buffer
		if _, err := ext.Extract(p, "", &buf); err != nil {
			return nil, fmt.Errorf("extract %s: %w", p, err)
		}
		name := prefix + strings.ReplaceAll(p, "/", "_") + ".go"
		if err := add(name, "Extracted from "+p+" of "+runtime.Version()+" by internal/yaegi/extract.", buf.Bytes()); err != nil {
			return nil, err
		}
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

// upstreamFiles are the files of yaegi's stdlib package that are not
// extracted tables, and which bindings/std has as they are (stdlib.go's
// Symbols becomes the loaders' parameter). stdlib-go1.22.go, left out,
// holds only the generate directives of yaegi's own tables.
var upstreamFiles = []string{"stdlib.go", "maptypes.go", "restricted.go", "wrapper-composed.go"}

// goPrefix is the running Go's prefix of the tables' file names, as
// yaegi's internal/cmd/extract makes it: go1_26_ for go1.26.8.
func goPrefix() (string, error) {
	v := runtime.Version()
	parts := strings.Split(v, ".")
	if strings.HasPrefix(v, "devel") || len(parts) < 2 {
		return "", fmt.Errorf("the standard library's tables are extracted only with a release of Go, not %s", v)
	}
	return parts[0] + "_" + extract.GetMinor(parts[1]) + "_", nil
}
