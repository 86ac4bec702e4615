package repl

import (
	"context"
	"fmt"
	"go/ast"
	"reflect"

	"sort"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Did you mean. A compile error about a name that does not exist (a
// field, a method, a package's symbol, a variable) ends with the nearest
// name that does, when one is near: "undefined method: Agnet (did you
// mean Agent?)". The names come from the value itself, evaluated again
// when its expression has no calls, from the package's bindings, or from
// the session's names.

var (
	undefinedMember = lazyregexp.New(`^undefined (?:method|field|selector):? ([A-Za-z_]\w*)$`)
	noSymbol        = lazyregexp.New(`^package \w+ "([^"]+)" has no symbol ([A-Za-z_]\w*)$`)
	undefinedPlain  = lazyregexp.New(`^undefined: ([A-Za-z_]\w*)$`)
)

// suggest adds a did-you-mean to e, a compile error of unit u, when its
// message names something missing and a near name exists.
func (s *Session) suggest(e *Error, u unit) {
	var name string
	var names []string
	switch {
	case undefinedMember.MatchString(e.Msg):
		name = undefinedMember.FindStringSubmatch(e.Msg)[1]
		var what string
		names, what = s.memberNames(u, name)
		if what != "" {
			e.Msg = what + ")"
			if best := nearest(name, names); best != "" {
				e.Msg = what + "; did you mean " + best + "?)"
			}
			return
		}
	case noSymbol.MatchString(e.Msg):
		m := noSymbol.FindStringSubmatch(e.Msg)
		name = m[2]
		if p, ok := s.packages.lookup(m[1]); ok {
			for sym := range p.Symbols {
				if !strings.HasPrefix(sym, "_") {
					names = append(names, sym)
				}
			}
		}
		e.Msg = "undefined: " + path1(m[1]) + "." + name
	case undefinedPlain.MatchString(e.Msg):
		name = undefinedPlain.FindStringSubmatch(e.Msg)[1]
		for n := range s.Globals() {
			names = append(names, n)
		}
		for n := range s.decls {
			names = append(names, n)
		}
		for n := range s.imports {
			names = append(names, n)
		}
		for n := range s.packages.byName {
			names = append(names, n)
		}
	case strings.HasPrefix(e.Msg, "cannot use type "):
		if g := s.genericCalled(u); g != "" {
			e.Msg += fmt.Sprintf(" (yaegi infers the type parameters of %[1]s wrongly here: write them out, as %[1]s[int, string](...))", g)
		}
		return
	default:
		return
	}
	if best := nearest(name, names); best != "" {
		e.Msg += " (did you mean " + best + "?)"
	}
}

// genericCalled returns the generic function of the session's that unit
// u calls without writing out its type parameters, "" when none.
func (s *Session) genericCalled(u unit) string {
	f, _, _ := parseUnitAt(u)
	if f == nil {
		return ""
	}
	name := ""
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && s.generics[id.Name] && name == "" {
				name = id.Name
			}
		}
		return name == ""
	})
	return name
}

// path1 is the last element of an import path: the package's usual name.
func path1(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// memberNames are the fields and methods of the value whose selector
// .name in unit u failed, when its expression can be evaluated again
// without calls, and the error in Go's words, but its closing parenthesis
// ("ep.Agnet undefined (type *harness.Episode has no field or method
// Agnet").
func (s *Session) memberNames(u unit, name string) ([]string, string) {
	f, fset, head := parseUnitAt(u)
	if f == nil {
		return nil, ""
	}
	var x ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == name && x == nil {
			x = sel.X
		}
		return x == nil
	})
	if x == nil || !pureExpr(x) {
		return nil, ""
	}
	src := u.text[fset.Position(x.Pos()).Offset-head : fset.Position(x.End()).Offset-head]
	vals, err := s.EvalValues(context.Background(), src)
	if err != nil || len(vals) != 1 || !vals[0].IsValid() {
		return nil, ""
	}
	t := vals[0].Type()
	tn := t.String()
	if n, ok := s.cellTypeNames()[t]; ok {
		tn = n
	}
	what := src + "." + name + " undefined (type " + ownNames(tn) + " has no field or method " + name
	var names []string
	for _, mt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for i := 0; i < mt.NumMethod(); i++ {
			names = append(names, mt.Method(i).Name)
		}
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for i := 0; i < st.NumField(); i++ {
			if fld := st.Field(i); fld.IsExported() {
				names = append(names, fld.Name)
			}
		}
	}
	if tn, ok := s.cellTypeNames()[st]; ok {
		for key := range s.funcs {
			if m, ok := strings.CutPrefix(key, tn+"."); ok {
				names = append(names, m)
			}
		}
	}
	return names, what
}

// nearest returns the name of names nearest to name: the same but for
// case, or, for names of three letters or more, within an edit distance
// of a third of its length (at least one); "" when none is.
func nearest(name string, names []string) string {
	sort.Strings(names)
	best, bestD := "", len(name)/3+1
	if bestD < 2 {
		bestD = 2
	}
	for _, n := range names {
		if n == name || strings.HasPrefix(n, privatePkg) {
			continue
		}
		if strings.EqualFold(n, name) {
			return n
		}
		if len(name) < 3 || len(n) < 3 {
			continue // a name that short is near too many
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Damerau-Levenshtein distance (adjacent
// transpositions count one) between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
