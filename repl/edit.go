package repl

import (
	"go/ast"
	"go/token"
	"sort"
)

// unitEdit is a unit's text parsed (see parseUnitAt), with replacements
// of its nodes' source to make: the rewrites that work around the
// interpreter's gaps (tuple.go, minmax.go) are built on it.
type unitEdit struct {
	text  string
	fset  *token.FileSet
	head  int // the length of the wrapper parseUnitAt put before text
	edits []sourceEdit
}

// sourceEdit replaces text[from:to].
type sourceEdit struct {
	from, to int
	text     string
}

// parseForEdit parses text as parseUnitAt does; nil when it does not parse.
func parseForEdit(text string) (*ast.File, *unitEdit) {
	f, fset, head := parseUnitAt(unit{text: text})
	if f == nil {
		return nil, nil
	}
	return f, &unitEdit{text: text, fset: fset, head: head}
}

// offset is pos's offset in the unit's text.
func (u *unitEdit) offset(pos token.Pos) int { return u.fset.Position(pos).Offset - u.head }

// line is pos's line.
func (u *unitEdit) line(pos token.Pos) int { return u.fset.Position(pos).Line }

// src is n's source.
func (u *unitEdit) src(n ast.Node) string { return u.text[u.offset(n.Pos()):u.offset(n.End())] }

// replace replaces n's source with text.
func (u *unitEdit) replace(n ast.Node, text string) {
	u.edits = append(u.edits, sourceEdit{u.offset(n.Pos()), u.offset(n.End()), text})
}

// insertAt inserts text at pos.
func (u *unitEdit) insertAt(pos token.Pos, text string) {
	at := u.offset(pos)
	u.edits = append(u.edits, sourceEdit{at, at, text})
}

// apply returns the text with its replacements made. Of two that nest,
// the outer one is made: its text was made from the source, the inner
// node's unchanged. Insertions nest in nothing.
func (u *unitEdit) apply() string {
	sort.Slice(u.edits, func(i, j int) bool { return u.edits[i].from > u.edits[j].from })
	var outer []sourceEdit
	for _, e := range u.edits {
		if n := len(outer); n > 0 && e.from < e.to && e.from <= outer[n-1].from && outer[n-1].to <= e.to {
			outer[n-1] = e // e encloses the one before it
			continue
		}
		outer = append(outer, e)
	}
	text := u.text
	for _, e := range outer {
		text = text[:e.from] + e.text + text[e.to:]
	}
	return text
}

// rewriteCalls returns text with the replacements fn makes, called on
// each of its call expressions, outer ones first (fn reports whether to
// look inside the call); text itself when it does not parse.
func rewriteCalls(text string, fn func(u *unitEdit, call *ast.CallExpr) (inside bool)) string {
	f, u := parseForEdit(text)
	if f == nil {
		return text
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return !ok || fn(u, call)
	})
	return u.apply()
}

// isPackageCall reports whether call calls pkg.name, pkg the name of a
// package (not of a variable the code declares), its arguments not
// spread from a slice.
func isPackageCall(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || call.Ellipsis.IsValid() {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && id.Obj == nil
}
