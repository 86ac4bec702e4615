package repl

import (
	"path"
	"reflect"
	"sort"

	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// Doc is the documentation of one exported symbol of a bound package, or
// of the package itself, as go doc shows it.
type Doc struct {
	Path string // import path of the package
	Name string // "Open", "Game.Step" for a method, "" for the package
	Decl string // the declaration, without function bodies
	Text string // the doc comment
}

// Docs documents the packages a session binds (Options.Symbols), for :doc
// and :help imports. A package it does not document is shown by its
// symbols' types.
type Docs interface {
	// Doc returns the documentation of name ("Open", "Game.Step", "" for
	// the package itself) in the package at importPath.
	Doc(importPath, name string) (Doc, bool)
	// Symbols returns the documented symbols of the package at
	// importPath (methods as "Type.Method"), sorted by name, without the
	// package's own entry.
	Symbols(importPath string) []Doc
}

// noDocs documents nothing.
type noDocs struct{}

func (noDocs) Doc(string, string) (Doc, bool) { return Doc{}, false }
func (noDocs) Symbols(string) []Doc           { return nil }

// boundPackage is one package that cells can import.
type boundPackage struct {
	Path string // import path, "strings"
	Name string // package name
	// Symbols maps the exported names to their values; an interface type
	// T also has an entry "_T", yaegi's wrapper type.
	Symbols map[string]reflect.Value
}

// packageIndex is the session's bound packages (Options.Symbols), by
// import path and by name.
type packageIndex struct {
	list   []boundPackage      // sorted by import path
	byPath map[string]int      // import path -> index in list
	byName map[string][]string // package name -> import paths
}

// newPackageIndex indexes exports, keyed "IMPORTPATH/NAME".
func newPackageIndex(exports interp.Exports) *packageIndex {
	x := &packageIndex{byPath: map[string]int{}, byName: map[string][]string{}}
	for k, v := range exports {
		x.list = append(x.list, boundPackage{Path: path.Dir(k), Name: path.Base(k), Symbols: v})
	}
	if _, ok := exports["iter/iter"]; !ok {
		x.list = append(x.list, boundPackage{Path: "iter", Name: "iter"}) // made of source alone (sourcePackages)
	}
	sort.Slice(x.list, func(i, j int) bool { return x.list[i].Path < x.list[j].Path })
	for i, p := range x.list {
		x.byPath[p.Path] = i
		x.byName[p.Name] = append(x.byName[p.Name], p.Path)
	}
	return x
}

// lookup returns the bound package at importPath.
func (x *packageIndex) lookup(importPath string) (boundPackage, bool) {
	i, ok := x.byPath[importPath]
	if !ok {
		return boundPackage{}, false
	}
	return x.list[i], true
}

// named returns the import path of the one bound package called name;
// false when there is none, or several (rand: math/rand and crypto/rand),
// or it is the session's private one.
func (x *packageIndex) named(name string) (string, bool) {
	paths := x.byName[name]
	if len(paths) != 1 || name == privatePkg {
		return "", false
	}
	return paths[0], true
}
