package bindings

import (
	"sort"
	"sync"
)

// Doc is the documentation of one exported symbol of a bound project
// package, or of the package itself, as go doc shows it.
type Doc struct {
	Path string `json:"path"` // import path of the package
	Name string `json:"name"` // "Open", "Game.Step" for a method, "" for the package
	Decl string `json:"decl"` // the declaration, without function bodies
	Text string `json:"text"` // the doc comment
}

var docIndex = sync.OnceValue(func() map[string]Doc {
	m := make(map[string]Doc, len(docList))
	for _, d := range docList {
		m[d.Path+"."+d.Name] = d
	}
	return m
})

// DocOf returns the documentation of name ("Open", "Game.Step", "" for the
// package itself) in the bound project package at importPath. The standard
// library has no entries: the REPL falls back to the symbol's type.
func DocOf(importPath, name string) (Doc, bool) {
	d, ok := docIndex()[importPath+"."+name]
	return d, ok
}

// Docs returns the documented symbols of the package at importPath (methods
// as "Type.Method"), sorted by name, without the package's own entry.
func Docs(importPath string) []Doc {
	var ds []Doc
	for _, d := range docList {
		if d.Path == importPath && d.Name != "" {
			ds = append(ds, d)
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name })
	return ds
}
