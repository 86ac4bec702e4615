package repl

import (
	"go/ast"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unexported fields. reflect cannot make a struct type with unexported
// fields from outside their package, so yaegi v0.16.1 exports them under
// an X: a cell's struct{ name string; score int } is struct{ Xname
// string; Xscore int } to compiled code. encoding/json then wrote a cell's
// private fields ({"Xscore":3}) where Go writes none, and read them back
// from such keys. So each unexported field that the code declares gets
// the tag that keeps the standard encoders away from it, as Go's own
// export rule does, json:"-" xml:"-" yaml:"-", and grue:"unexported", by
// which the REPL's display shows the field under its own name (other
// keys of its tag kept), on its own line. fmt's %+v still prints the X
// names.

// hiddenTag are the tag keys an unexported field gets, and their values.
var hiddenTag = []struct{ key, value string }{{"json", "-"}, {"xml", "-"}, {"yaml", "-"}, {"grue", "unexported"}}

// unexportedTags returns text with the unexported fields of its struct
// types tagged for the encoders to skip, or text itself when it has none.
func unexportedTags(text string) string {
	if !strings.Contains(text, "struct") {
		return text
	}
	f, u := parseForEdit(text)
	if f == nil {
		return text
	}
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || st.Fields == nil {
			return true
		}
		for _, fld := range st.Fields.List {
			if len(fld.Names) == 0 || !allUnexported(fld.Names) {
				continue // embedded, or exported (a, B int shares one tag: left as it is)
			}
			if fld.Tag == nil {
				u.insertAt(fld.Type.End(), " "+quoteTag(setTagKeys("")))
				continue
			}
			if tag, err := strconv.Unquote(fld.Tag.Value); err == nil {
				u.replace(fld.Tag, quoteTag(setTagKeys(tag)))
			}
		}
		return true
	})
	return u.apply()
}

// allUnexported reports whether every one of names is unexported.
func allUnexported(names []*ast.Ident) bool {
	for _, id := range names {
		r, _ := utf8.DecodeRuneInString(id.Name)
		if unicode.IsUpper(r) || id.Name == "_" {
			return false
		}
	}
	return true
}

// setTagKeys returns the struct tag with the keys of hiddenTag set, the
// other key:"value" pairs kept in their order. A tag that is not in the
// conventional form is kept up to where it stops being so.
func setTagKeys(tag string) string {
	var pairs []string
	seen := map[string]bool{}
	for tag != "" {
		tag = strings.TrimLeft(tag, " ")
		i := 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		name := tag[:i]
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			break
		}
		value := tag[:i+1]
		tag = tag[i+1:]
		for _, h := range hiddenTag {
			if h.key == name {
				value, seen[name] = strconv.Quote(h.value), true
			}
		}
		pairs = append(pairs, name+":"+value)
	}
	for _, h := range hiddenTag {
		if !seen[h.key] {
			pairs = append(pairs, h.key+":"+strconv.Quote(h.value))
		}
	}
	return strings.Join(pairs, " ")
}

// fieldName is the name of a struct field as the code declared it: an
// unexported field of a cell's type (see unexportedTags) without the X
// that the interpreter exported it under.
func fieldName(f reflect.StructField) string {
	if f.Tag.Get("grue") == "unexported" && strings.HasPrefix(f.Name, "X") {
		return f.Name[1:]
	}
	return f.Name
}

// quoteTag writes tag as a Go string literal: raw, unless it has a
// backquote.
func quoteTag(tag string) string {
	if strings.Contains(tag, "`") {
		return strconv.Quote(tag)
	}
	return "`" + tag + "`"
}
