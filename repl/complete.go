package repl

import (
	"go/ast"
	"go/parser"
	"reflect"
	"sort"
	"strings"
)

// Completions returns what may complete the word that ends at pos in
// line: magics after a leading colon; a package's exported symbols after
// "pkg."; a variable's methods and fields after "v."; otherwise the
// session's variables, functions, types, imported packages, the packages
// it could import by name, and Go's keywords and built-ins. Each candidate
// is the whole word; prefix is the part of it already typed.
func (s *Session) Completions(line string, pos int) (candidates []string, prefix string) {
	if pos > len(line) {
		pos = len(line)
	}
	text := line[:pos]
	start := len(text)
	for start > 0 && isWordByte(text[start-1]) {
		start--
	}
	word := text[start:]
	if start > 0 && text[start-1] == ':' && strings.TrimSpace(text[:start-1]) == "" {
		for _, m := range s.Magics() {
			if strings.HasPrefix(m.Name, word) {
				candidates = append(candidates, m.Name)
			}
		}
		return candidates, word
	}
	if full := text[exprStart(text):]; strings.Contains(full, "[") {
		// After an index: ep.Agent.History[0].
		if head, partial, ok := cutLast(full, "."); ok {
			if t, ok := s.staticType(head); ok {
				return filterPrefix(typeMembers(t), partial), partial
			}
			return nil, partial
		}
	}
	if head, partial, ok := cutLast(word, "."); ok {
		return filterPrefix(s.members(head), partial), partial
	}
	return filterPrefix(s.names(), word), word
}

// exprStart returns where the expression of names, selectors and indexes
// that ends text starts ("ep.Agent.History[i+1].Ste" from "ep").
func exprStart(text string) int {
	i, depth := len(text), 0
	for ; i > 0; i-- {
		c := text[i-1]
		switch {
		case c == ']':
			depth++
		case c == '[':
			if depth == 0 {
				return i
			}
			depth--
		case depth > 0, isWordByte(c):
		default:
			return i
		}
	}
	return i
}

// staticType is the type of expr, a session variable followed by fields
// and indexes (ep.Agent.History[0]), found from the types alone, without
// evaluating it (the index may be out of range, the list empty).
func (s *Session) staticType(expr string) (reflect.Type, bool) {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return nil, false
	}
	var typeOf func(e ast.Expr) (reflect.Type, bool)
	typeOf = func(e ast.Expr) (reflect.Type, bool) {
		switch e := e.(type) {
		case *ast.Ident:
			v, ok := s.Globals()[e.Name]
			if !ok || !deref(v).IsValid() {
				return nil, false
			}
			return deref(v).Type(), true
		case *ast.ParenExpr:
			return typeOf(e.X)
		case *ast.SelectorExpr:
			t, ok := typeOf(e.X)
			if !ok {
				return nil, false
			}
			if t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t.Kind() != reflect.Struct {
				return nil, false
			}
			f, ok := t.FieldByName(e.Sel.Name)
			return f.Type, ok && f.IsExported()
		case *ast.IndexExpr:
			t, ok := typeOf(e.X)
			if !ok {
				return nil, false
			}
			if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Array {
				t = t.Elem()
			}
			switch t.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map:
				return t.Elem(), true
			}
		}
		return nil, false
	}
	return typeOf(e)
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// members lists what may follow "head.": a package's exported symbols, or
// the methods and fields of a variable's value, or of a field of it
// ("v.Field.": the fields and methods of the field's type).
func (s *Session) members(head string) []string {
	if name, path, ok := strings.Cut(head, "."); ok {
		v, ok := s.Globals()[name]
		if !ok || !deref(v).IsValid() {
			return nil
		}
		t := deref(v).Type()
		for _, f := range strings.Split(path, ".") {
			st := t
			if st.Kind() == reflect.Pointer {
				st = st.Elem()
			}
			if st.Kind() != reflect.Struct {
				return nil
			}
			sf, ok := st.FieldByName(f)
			if !ok || !sf.IsExported() {
				return nil
			}
			t = sf.Type
		}
		return typeMembers(t)
	}
	if p, ok := s.imports[head]; ok {
		b, _ := s.packages.lookup(p)
		var names []string
		for name := range b.Symbols {
			if !strings.HasPrefix(name, "_") {
				names = append(names, name)
			}
		}
		return names
	}
	v, ok := s.Globals()[head]
	if !ok || !v.IsValid() {
		return nil
	}
	v = deref(v)
	if !v.IsValid() {
		return nil
	}
	return typeMembers(v.Type())
}

// typeMembers lists the exported methods of t (and of *t) and, for a
// struct or a pointer to one, its exported fields.
func typeMembers(t reflect.Type) []string {
	seen := map[string]bool{}
	add := func(t reflect.Type) {
		for i := 0; i < t.NumMethod(); i++ {
			seen[t.Method(i).Name] = true
		}
	}
	add(t)
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		add(reflect.PointerTo(t))
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
		add(st)
	}
	if st.Kind() == reflect.Struct {
		for _, i := range exportedFields(st) {
			seen[fieldName(st.Field(i))] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	return names
}

// goWords are Go's keywords and predeclared names that the interpreter
// knows.
var goWords = strings.Fields(`break case chan const continue default defer else fallthrough for func go goto
	if import interface map package range return select struct switch type var
	append cap close complex copy delete imag len make new panic print println real recover
	bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string
	uint uint8 uint16 uint32 uint64 uintptr any true false nil iota`)

// names lists the names a word may start: the session's own, the packages
// it imported or could import, Go's keywords and built-ins.
func (s *Session) names() []string {
	seen := map[string]bool{}
	for n := range s.Globals() {
		seen[n] = true
	}
	for n := range s.decls {
		seen[n] = true
	}
	for n := range s.Imports() {
		seen[n] = true
	}
	for _, p := range s.packages.list {
		if _, ok := s.packages.named(p.Name); ok {
			seen[p.Name] = true
		}
	}
	for _, w := range goWords {
		seen[w] = true
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	return names
}

// filterPrefix keeps the names that start with prefix, sorted.
func filterPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// completer adapts Completions to readline's AutoCompleter, which wants
// the rest of each candidate after what is typed.
type completer struct{ s *Session }

func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	text := string(line[:pos])
	cands, prefix := c.s.Completions(text, len(text))
	out := make([][]rune, len(cands))
	for i, cand := range cands {
		out[i] = []rune(strings.TrimPrefix(cand, prefix))
	}
	return out, len([]rune(prefix))
}
