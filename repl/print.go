package repl

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// How values are shown. A cell whose last statement is an expression shows
// the expression's value:
//
//   - a string as its text, folded to the width; nil as nil; an error as
//     "error: " and its message; a value with a String method (a
//     time.Duration, a bytes.Buffer) as what that method returns;
//   - a struct, or a pointer to one, field by field, one a line, with
//     its type's name above;
//   - a slice or array of structs as a table, one row each;
//   - a map as its keys, sorted, and values; other slices in one line, or
//     one element a line when they do not fit;
//   - anything else as fmt's %v.
//
// Values inside a struct, a table cell or a list are shown in one line, as
// Go would write them (strings quoted), cut short past maxInline runes.
const (
	maxInline    = 400 // longest one-line rendering of a value inside another
	maxCell      = 40  // longest table cell in the text table
	maxTableRows = 200 // rows shown before "... N more"
	maxDepth     = 4   // nesting shown inline before "{...}"
	// maxFieldLines is how many lines of a long text a struct's field
	// shows before "… N more lines".
	maxFieldLines = 6
)

// display renders v for the REPL, folded to width columns.
func display(v reflect.Value, width int) string {
	if s, ok := printed(v); ok {
		return Fold(s, width)
	}
	v = deref(v)
	if !v.IsValid() {
		return "nil"
	}
	if s, ok := special(v); ok {
		return Fold(s, width)
	}
	if sum, name, ok := summary(v, false); ok {
		if v.Kind() == reflect.Pointer {
			name = "&" + name
		}
		return namedStructBlock(sum, name, width)
	}
	switch v.Kind() {
	case reflect.String:
		if v.Len() == 0 {
			return `""`
		}
		return Fold(v.String(), width)
	case reflect.Struct:
		return structBlock(v, width)
	case reflect.Pointer:
		if e := v.Elem(); e.Kind() == reflect.Struct {
			return "&" + structBlock(e, width)
		}
	case reflect.Slice, reflect.Array:
		if isRecordList(v) {
			t, err := tableOf(v)
			if err == nil {
				return t.text(width, false)
			}
		}
		return listBlock(v, width)
	case reflect.Map:
		return mapBlock(v, width)
	case reflect.Func:
		return v.Type().String()
	}
	return inline(v, maxInline)
}

// deref unwraps interfaces: the value inside, or an invalid Value for nil.
// The interpreter's own wrapper of a value kept in an interface{} (an
// element of a []any) is unwrapped too (internal/yaegi gives its
// InterpValue).
func deref(v reflect.Value) reflect.Value {
	for v.IsValid() {
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Elem()
			continue
		}
		w, ok := interpValue(v)
		if !ok {
			return v
		}
		v = w
	}
	return v
}

// interpValue returns the value that v, the interpreter's wrapper of a
// value kept in an interface{}, holds; false when v is no such wrapper.
func interpValue(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct || !v.CanInterface() {
		return v, false
	}
	w, ok := v.Interface().(interface{ InterpValue() reflect.Value })
	if !ok {
		return v, false
	}
	return w.InterpValue(), true
}

// printed is what fmt prints v as, when v is (or an interface holds) the
// interpreter's wrapper of a value of a cell's type that has an Error or
// String method (var a any = Temp(3); []any{Temp(3)}): internal/yaegi
// gives it as an error or a fmt.Stringer (Printer), which special
// renders.
func printed(v reflect.Value) (string, bool) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() != reflect.Struct || !v.CanInterface() {
		return "", false
	}
	p, ok := v.Interface().(interface{ Printer() (any, bool) })
	if !ok {
		return "", false
	}
	x, ok := p.Printer()
	if !ok {
		return "", false
	}
	return special(reflect.ValueOf(x))
}

// special renders errors and Stringers, whose own text beats a field dump.
func special(v reflect.Value) (s string, ok bool) {
	if !v.CanInterface() {
		return "", false
	}
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() {
		return "", false
	}
	defer func() {
		if r := recover(); r != nil {
			s, ok = fmt.Sprintf("(String method panicked: %v)", r), true
		}
	}()
	switch x := v.Interface().(type) {
	case error:
		return "error: " + fmt.Sprint(x), true // "<nil>" for a nil pointer whose method panics on it, as fmt prints it
	case fmt.Stringer:
		return x.String(), true
	}
	return "", false
}

// typeName is the name a value's type is shown under: "time.Month",
// "" for the unnamed struct types that the interpreter makes for the
// types declared in cells.
func typeName(t reflect.Type) string {
	if t.Name() == "" {
		return ""
	}
	return t.String()
}

// exportedFields lists the fields of struct type t that a script can see.
func exportedFields(t reflect.Type) []int {
	var fs []int
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() {
			fs = append(fs, i)
		}
	}
	return fs
}

// structBlock shows a struct field by field, names aligned, a multi-line
// value indented under its first line.
func structBlock(v reflect.Value, width int) string {
	name := typeName(v.Type())
	if name == "" {
		name = "struct"
	}
	return namedStructBlock(v, name, width)
}

// namedStructBlock is structBlock with the type's name given.
func namedStructBlock(v reflect.Value, name string, width int) string {
	var b strings.Builder
	fields := exportedFields(v.Type())
	if len(fields) == 0 {
		return name + "{}"
	}
	b.WriteString(name)
	pad := 0
	for _, i := range fields {
		pad = max(pad, len(fieldName(v.Type().Field(i))))
	}
	for _, i := range fields {
		f := fieldName(v.Type().Field(i))
		indent := 2 + pad + 2
		b.WriteString("\n  " + f + strings.Repeat(" ", pad-len(f)+2))
		b.WriteString(fieldValue(v.Field(i), width-indent, strings.Repeat(" ", indent)))
	}
	return b.String()
}

// firstLines is the first n of lines and a count of the rest.
func firstLines(lines []string, n int) string {
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… %d more lines", len(lines)-n)
}

// fieldValue renders a field's value for structBlock: text as folded text,
// everything else in one line when it fits.
func fieldValue(v reflect.Value, width int, indent string) string {
	width = max(width, 20)
	v = deref(v)
	var s string
	if v.IsValid() && v.Kind() == reflect.String && (strings.Contains(v.String(), "\n") || utf8.RuneCountInString(v.String()) > width) {
		s = Fold(v.String(), width)
		if lines := strings.Split(s, "\n"); len(lines) > maxFieldLines+2 {
			// A long text (an agent's System prompt) in a struct: its
			// start; the whole is the field's value.
			s = firstLines(lines, maxFieldLines)
		}
	} else {
		s = inline(v, maxInline)
		if utf8.RuneCountInString(s) > width {
			s = Fold(s, width)
		}
	}
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// listBlock shows a list in one line if it fits, else one element a line.
func listBlock(v reflect.Value, width int) string {
	if s := inline(v, width+1); utf8.RuneCountInString(s) <= width || v.Len() == 0 {
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d elements:", v.Type(), v.Len())
	for i := 0; i < v.Len(); i++ {
		if i == maxTableRows {
			fmt.Fprintf(&b, "\n  ... %d more", v.Len()-i)
			break
		}
		fmt.Fprintf(&b, "\n  [%d] %s", i, inline(v.Index(i), width-8))
	}
	return b.String()
}

// mapBlock shows a map as sorted "key: value" lines.
func mapBlock(v reflect.Value, width int) string {
	if v.Len() == 0 {
		return v.Type().String() + "{}"
	}
	keys := sortedKeys(v)
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d entries:", v.Type(), v.Len())
	for i, k := range keys {
		if i == maxTableRows {
			fmt.Fprintf(&b, "\n  ... %d more", len(keys)-i)
			break
		}
		ks := inline(k, 60)
		fmt.Fprintf(&b, "\n  %s: %s", ks, inline(v.MapIndex(k), max(width-len(ks)-4, 20)))
	}
	return b.String()
}

// sortedKeys returns a map's keys in the order fmt prints them.
func sortedKeys(v reflect.Value) []reflect.Value {
	keys := v.MapKeys()
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch a.Kind() {
		case reflect.String:
			return a.String() < b.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return a.Int() < b.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return a.Uint() < b.Uint()
		case reflect.Float32, reflect.Float64:
			return a.Float() < b.Float()
		}
		return fmt.Sprint(a) < fmt.Sprint(b)
	})
	return keys
}

// inline renders v in one line, as Go would write the value, cut at about
// limit runes.
func inline(v reflect.Value, limit int) string {
	var b strings.Builder
	writeInline(&b, v, 0, limit)
	s := strings.ReplaceAll(b.String(), "\n", `\n`)
	return truncate(s, limit)
}

func writeInline(b *strings.Builder, v reflect.Value, depth, limit int) {
	if b.Len() > limit {
		return
	}
	if s, ok := printed(v); ok {
		b.WriteString(s)
		return
	}
	v = deref(v)
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	if v.CanInterface() {
		if c, ok := v.Interface().(*cellContext); ok {
			b.WriteString(c.String()) // the session's ctx
			return
		}
	}
	name := ""
	if sum, n, ok := summary(v, false); ok {
		v, name = sum, n
	}
	if s, ok := special(v); ok {
		if v.Kind() == reflect.String || (v.Kind() != reflect.Struct && v.Kind() != reflect.Pointer) {
			// Named strings and numbers with String methods (time.Duration) read best as their text.
			b.WriteString(s)
			return
		}
		if _, isErr := v.Interface().(error); isErr {
			b.WriteString(s)
			return
		}
		if st := v.Type(); st.Kind() == reflect.Struct && len(exportedFields(st)) == 0 {
			b.WriteString(s) // a time.Time, whose text is all it shows
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if depth >= maxDepth {
			b.WriteString("&{...}")
			return
		}
		b.WriteString("&")
		writeInline(b, v.Elem(), depth+1, limit)
	case reflect.Struct:
		writeStruct(b, v, name, depth, limit)
	case reflect.Slice, reflect.Array:
		writeList(b, v, depth, limit)
	case reflect.Map:
		writeMap(b, v, depth, limit)
	case reflect.Func:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(v.Type().String())
	case reflect.Chan:
		b.WriteString(v.Type().String())
	default:
		if v.CanInterface() {
			fmt.Fprint(b, v.Interface())
		} else {
			fmt.Fprint(b, v)
		}
	}
}

// writeStruct writes a struct in one line, under name ("" for its type's).
func writeStruct(b *strings.Builder, v reflect.Value, name string, depth, limit int) {
	if depth >= maxDepth {
		b.WriteString("{...}")
		return
	}
	if name == "" {
		name = typeName(v.Type())
	}
	b.WriteString(name + "{")
	for n, i := range exportedFields(v.Type()) {
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString(fieldName(v.Type().Field(i)) + ": ")
		writeInline(b, v.Field(i), depth+1, limit)
		if b.Len() > limit {
			return
		}
	}
	b.WriteString("}")
}

// writeList writes a slice or an array in one line.
func writeList(b *strings.Builder, v reflect.Value, depth, limit int) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		b.WriteString("[]")
		return
	}
	if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
		fmt.Fprintf(b, "[]byte(%q)", v.Bytes())
		return
	}
	b.WriteString("[")
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			b.WriteString(" ")
		}
		writeInline(b, v.Index(i), depth+1, limit)
		if b.Len() > limit {
			return
		}
	}
	b.WriteString("]")
}

// writeMap writes a map in one line, its keys sorted.
func writeMap(b *strings.Builder, v reflect.Value, depth, limit int) {
	b.WriteString("map[")
	for i, k := range sortedKeys(v) {
		if i > 0 {
			b.WriteString(" ")
		}
		writeInline(b, k, depth+1, limit)
		b.WriteString(":")
		writeInline(b, v.MapIndex(k), depth+1, limit)
		if b.Len() > limit {
			return
		}
	}
	b.WriteString("]")
}

// truncate cuts s to about limit runes, marking the cut.
func truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:max(limit-1, 1)]) + "…"
}

// Fold breaks the lines of s that are longer than width at spaces (or
// anywhere, for a word longer than width). Lines that fit are left alone.
func Fold(s string, width int) string {
	if width <= 0 {
		return s
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for utf8.RuneCountInString(line) > width {
			r := []rune(line)
			cut := width
			for i := width; i > width/2; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
			out = append(out, strings.TrimRight(string(r[:cut]), " "))
			line = strings.TrimLeft(string(r[cut:]), " ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
