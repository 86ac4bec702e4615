package repl

import (
	"context"
	"fmt"
	"reflect"
	"strings"
)

// Go's builtins that yaegi v0.16.1 lacks (min, max and clear, Go 1.21) are
// declared in the session the first time a cell needs one, as ordinary
// functions of the same names, so that start-up does not pay for them:
// min and max generic over the ordered types, clear through the compiled
// clearValue (yaegi cannot instantiate a generic func over ~[]E).
var builtinSource = map[string]string{
	"min":   orderedDecl + "func min[T " + privatePkg + "Ordered](x T, ys ...T) T { for _, y := range ys { if y < x { x = y } }; return x }",
	"max":   orderedDecl + "func max[T " + privatePkg + "Ordered](x T, ys ...T) T { for _, y := range ys { if y > x { x = y } }; return x }",
	"clear": "func clear(v interface{}) { " + privatePkg + ".Clear(v) }",
}

// orderedDecl declares cmp.Ordered's set, for min and max.
const orderedDecl = "type " + privatePkg + "Ordered interface { ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string }\n"

// missingBuiltin returns the builtin that a compile error says the
// interpreter lacks, "" for another error.
func missingBuiltin(e *Error) string {
	for _, name := range []string{"min", "max"} {
		if e.Msg == fmt.Sprintf(gapMinMax, name) {
			return name
		}
	}
	if e.Msg == gapClear {
		return "clear"
	}
	return ""
}

// declareBuiltin declares the builtin name in the session; false when it
// cannot (the cell then shows the interpreter's gap).
func (s *Session) declareBuiltin(ctx context.Context, name string) bool {
	src, ok := builtinSource[name]
	if !ok || s.decls[name] != "" {
		return false
	}
	if strings.Contains(src, privatePkg+"Ordered") && s.decls[privatePkg+"Ordered"] == "" {
		s.decls[privatePkg+"Ordered"] = "type"
	} else {
		src = strings.TrimPrefix(src, orderedDecl)
	}
	u := unit{text: src, line: 1}
	if _, err := s.evalSource(ctx, "\n"+src, u, s.source("setup")); err != nil {
		return false
	}
	s.decls[name] = "builtin"
	return true
}

// declaredOwn reports whether a cell declared name as its own function
// or type, not as the session's stand-in for a builtin.
func (s *Session) declaredOwn(name string) bool {
	d := s.decls[name]
	return d != "" && d != "builtin"
}

// clearValue is clear for the interpreter: it deletes a map's entries or
// sets a slice's elements to their zero value.
func clearValue(v interface{}) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		rv.Clear()
	case reflect.Slice:
		rv.Clear()
	case reflect.Pointer:
		if rv.Elem().Kind() == reflect.Array {
			rv.Elem().SetZero()
		}
	}
}
