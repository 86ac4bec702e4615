// Package std holds the standard library's symbol tables for yaegi,
// extracted from the Go that builds grue (with the hand-written files of
// yaegi's stdlib package) into this folder by `go generate ./bindings`,
// with loaders in place of init functions, so that
// a program that links them builds them only when a script interpreter
// needs them. yaegi's stdlib package builds them at start-up, which cost
// every grue command about 6 million machine instructions. (stdlib.go's
// mapTypes, yaegi's table of functions that treat some interface arguments
// specially, is filled by the loaders too.)
package std

import (
	"reflect"
	"sync"
)

var symbols = sync.OnceValue(func() map[string]map[string]reflect.Value {
	m := map[string]map[string]reflect.Value{}
	for _, load := range loaders {
		load(m)
	}
	return m
})

// Symbols returns the standard library's symbols, keyed by
// "IMPORTPATH/NAME" as interp.Interpreter.Use wants them, built on the
// first call. The map is shared: copy it before changing it.
func Symbols() map[string]map[string]reflect.Value { return symbols() }
