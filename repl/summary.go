package repl

import "reflect"

// Some values hold more than a table or a screen can show (grue's agent
// episode holds its agent, its server and its whole trajectory, and a
// step of it some thirty fields). Such a value says how it is shown
// through one of these interfaces, by giving a plain struct of what a
// person looks at in its place. The whole value is still there for code.

// Summarizer is implemented by a value that is shown through a summary:
// alone (field by field, under the name of the value's own type), inside
// another value (in one line), and as a row of a table (the summary's
// fields as the columns).
type Summarizer interface {
	// Summary returns a struct, or a pointer to one, whose exported
	// fields stand for the value.
	Summary() any
}

// TableRower is implemented by a value that is shown in a table as a row
// of another struct's fields, and otherwise as usual (by its String
// method, say): one step of a trajectory prints its own line, a
// trajectory is a table of its steps' main fields.
type TableRower interface {
	// TableRow returns a struct, or a pointer to one, whose exported
	// fields are the value's columns.
	TableRow() any
}

var (
	summarizerType = reflect.TypeOf((*Summarizer)(nil)).Elem()
	tableRowerType = reflect.TypeOf((*TableRower)(nil)).Elem()
)

// summary returns the summary that stands for v (a struct, or a pointer
// to one) and the name of v's type, when v's type has one; inTable says
// whether v is a row of a table, where a TableRower has one too.
func summary(v reflect.Value, inTable bool) (reflect.Value, string, bool) {
	v = deref(v)
	if !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return v, "", false
	}
	base := v.Type()
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	name := typeName(base)
	for _, iface := range []reflect.Type{summarizerType, tableRowerType} {
		if iface == tableRowerType && !inTable {
			break
		}
		x, ok := implementing(v, iface)
		if !ok {
			continue
		}
		sum, ok := callSummary(x, iface)
		if !ok {
			return v, "", false
		}
		return sum, name, true
	}
	return v, "", false
}

// implementing returns v, or its address, as an iface when either
// implements it.
func implementing(v reflect.Value, iface reflect.Type) (reflect.Value, bool) {
	if !v.CanInterface() {
		return v, false
	}
	if v.Type().Implements(iface) {
		return v, true
	}
	if v.Kind() != reflect.Pointer && v.CanAddr() && v.Addr().Type().Implements(iface) {
		return v.Addr(), true
	}
	return v, false
}

// callSummary calls x's Summary or TableRow and returns the struct it
// gave, false when it gave something else or panicked.
func callSummary(x reflect.Value, iface reflect.Type) (sum reflect.Value, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			sum, ok = reflect.Value{}, false
		}
	}()
	var s any
	switch iface {
	case summarizerType:
		s = x.Interface().(Summarizer).Summary()
	default:
		s = x.Interface().(TableRower).TableRow()
	}
	sv := reflect.ValueOf(s)
	if sv.Kind() == reflect.Pointer && !sv.IsNil() {
		sv = sv.Elem()
	}
	if sv.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return sv, true
}

// summaryType returns the type of the summary that values of struct type
// t (or pointers to them) have in tables, when they have one: that of a
// zero value's summary.
func summaryType(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !reflect.PointerTo(t).Implements(summarizerType) && !reflect.PointerTo(t).Implements(tableRowerType) {
		return nil, false
	}
	sum, _, ok := summary(reflect.New(t), true)
	if !ok {
		return nil, false
	}
	return sum.Type(), true
}
