package repl

import (
	"fmt"
	"go/ast"
	"strings"
)

// Method expressions. yaegi v0.16.1 panics on a method expression of a
// type that the code declares,
//
//	get := Temp.String  // reflect.Set: value of type func() string is not assignable to type func(float64) string
//
// while a method value (t.String) and a func literal work. So a method
// expression of a declared type becomes the func literal it stands for,
// on the same line:
//
//	get := func(_grue_r Temp) string { return _grue_r.String() }
//	set := func(_grue_r *Temp, _grue_a0 float64) { _grue_r.Set(_grue_a0) }  // (*Temp).Set

// methodSig is what the func literal of a method expression needs of the
// method: its parameters' types and its results, as source.
type methodSig struct {
	ptrRecv bool
	params  []string // one a parameter, the last "...T" when variadic
	results string   // "", "int", "(int, error)"
}

// methodSigs returns the signatures of the methods that f declares, by
// "T.M", whose source src gives. Methods of generic types are left out.
func methodSigs(f *ast.File, src func(ast.Node) string) map[string]methodSig {
	sigs := map[string]methodSig{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || isGenericRecv(fd.Recv.List[0].Type) {
			continue
		}
		var sig methodSig
		_, sig.ptrRecv = fd.Recv.List[0].Type.(*ast.StarExpr)
		for _, p := range fd.Type.Params.List {
			for range max(1, len(p.Names)) {
				sig.params = append(sig.params, src(p.Type))
			}
		}
		if res := fd.Type.Results; res != nil && len(res.List) > 0 {
			sig.results = src(res)
			if len(res.List) == 1 && len(res.List[0].Names) == 0 {
				sig.results = src(res.List[0].Type)
			}
		}
		sigs[recvName(fd.Recv.List[0].Type)+"."+fd.Name.Name] = sig
	}
	return sigs
}

// methodExprs returns text with its method expressions of the types whose
// methods it declares, or that declared gives ("T.M" to its signature and
// true), written as func literals; text itself when it has none.
func methodExprs(text string, declared func(key string) (methodSig, bool)) string {
	if !strings.Contains(text, ".") {
		return text
	}
	f, u := parseForEdit(text)
	if f == nil {
		return text
	}
	own := methodSigs(f, u.src)
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		typ, ptr := sel.X, false
		if p, ok := typ.(*ast.ParenExpr); ok {
			if star, ok := p.X.(*ast.StarExpr); ok {
				typ, ptr = star.X, true
			}
		}
		id, ok := typ.(*ast.Ident)
		if !ok || (id.Obj != nil && id.Obj.Kind != ast.Typ) {
			return true // a variable's method value or field, a package's name
		}
		key := id.Name + "." + sel.Sel.Name
		sig, ok := own[key]
		if !ok {
			sig, ok = declared(key)
		}
		if !ok || (sig.ptrRecv && !ptr) {
			return true
		}
		recv := id.Name
		if ptr {
			recv = "*" + recv
		}
		params := []string{privatePkg + "_r " + recv}
		var args []string
		for i, t := range sig.params {
			name := fmt.Sprintf("%s_a%d", privatePkg, i)
			params = append(params, name+" "+t)
			if strings.HasPrefix(t, "...") {
				name += "..."
			}
			args = append(args, name)
		}
		call := privatePkg + "_r." + sel.Sel.Name + "(" + strings.Join(args, ", ") + ")"
		if sig.results != "" {
			call = "return " + call
		}
		u.replace(sel, "func("+strings.Join(params, ", ")+") "+sig.results+" { "+call+" }")
		return false
	})
	return u.apply()
}

// cellMethod returns the signature of the method key ("T.M") that a cell
// declared.
func (s *Session) cellMethod(key string) (methodSig, bool) {
	for _, d := range s.funcDecls {
		if d.key != key {
			continue
		}
		f, u := parseForEdit(d.u.text)
		if f == nil {
			return methodSig{}, false
		}
		sig, ok := methodSigs(f, u.src)[key]
		return sig, ok
	}
	return methodSig{}, false
}
