package repl

import (
	"go/ast"
	"strconv"
)

// The generic functions and types of the standard library outside
// slices, maps and cmp, which a symbol table cannot hold (a generic
// function is not a value until instantiated) and which yaegi v0.16.1's
// own generic sources lack: sync.OnceValue and OnceValues, unique.Make
// and unique.Handle, math/rand/v2's N. The session stands in for them
// with Go source of the same behaviour (genericNameSources), compiled
// the first time a cell names one, as for slices (redirectGenerics):
// sync.OnceValue in a cell is _grue_sync.OnceValue. The other names of
// those packages are the compiled ones.

// genericNames are the stand-ins, by the import path of the package and
// the name in it; a nil set of names stands in for every name of the
// package.
var genericNames = map[string]struct {
	stand struct{ name, path string }
	names map[string]bool
}{
	"sync": {struct{ name, path string }{privatePkg + "_sync", "gruesync"},
		map[string]bool{"OnceValue": true, "OnceValues": true}},
	"unique": {struct{ name, path string }{privatePkg + "_unique", "grueunique"}, nil},
	"math/rand/v2": {struct{ name, path string }{privatePkg + "_randv2", "gruerandv2"},
		map[string]bool{"N": true}},
}

// genericNameStand returns the stand-in of sel (pkg.Name), a selector of
// the package that the unit's file f or the session imports as pkg, and
// whether there is one.
func (s *Session) genericNameStand(f *ast.File, sel *ast.SelectorExpr, pkg string) (struct{ name, path string }, bool) {
	path, ok := s.imports[pkg]
	if !ok && f != nil {
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue
			}
			name := p
			if spec.Name != nil {
				name = spec.Name.Name
			} else if i := len(p); i > 3 && p[i-3:] == "/v2" {
				name = p[:i-3]
			}
			for i := len(name) - 1; i >= 0; i-- {
				if name[i] == '/' {
					name = name[i+1:]
					break
				}
			}
			if name == pkg {
				path, ok = p, true
			}
		}
	}
	g, known := genericNames[path]
	if !ok || !known || (g.names != nil && !g.names[sel.Sel.Name]) {
		return g.stand, false
	}
	return g.stand, true
}

const gruesyncSource = `package gruesync

import "sync"

// OnceValue returns a function that invokes f only once and returns the
// value returned by f. The returned function may be called concurrently.
// If f panics, the returned function will panic with the same value on
// every call.
func OnceValue[T any](f func() T) func() T {
	var (
		once   sync.Once
		valid  bool
		p      any
		result T
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		result = f()
		f = nil
		valid = true
	}
	return func() T {
		once.Do(g)
		if !valid {
			panic(p)
		}
		return result
	}
}

// OnceValues returns a function that invokes f only once and returns the
// values returned by f. The returned function may be called concurrently.
// If f panics, the returned function will panic with the same value on
// every call.
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		once  sync.Once
		valid bool
		p     any
		r1    T1
		r2    T2
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		r1, r2 = f()
		f = nil
		valid = true
	}
	return func() (T1, T2) {
		once.Do(g)
		if !valid {
			panic(p)
		}
		return r1, r2
	}
}
`

const grueuniqueSource = `package grueunique

import "sync"

// Handle is a globally unique identity for some value of type T. Two
// handles compare equal exactly if the two values used to create the
// handles would have also compared equal.
type Handle[T comparable] struct {
	value *T
}

// Value returns a shallow copy of the value that produced the Handle.
func (h Handle[T]) Value() T { return *h.value }

// The handles made, by value: made at the first Make, since the session
// compiles this source without running its package's initialisation.
var (
	mu      sync.Mutex
	handles map[any]any
)

// Make returns a globally unique handle for a value of type T.
func Make[T comparable](value T) Handle[T] {
	mu.Lock()
	defer mu.Unlock()
	if handles == nil {
		handles = map[any]any{}
	}
	if p, ok := handles[value]; ok {
		return Handle[T]{p.(*T)}
	}
	p := new(T)
	*p = value
	handles[value] = p
	return Handle[T]{p}
}
`

const gruerandv2Source = `package gruerandv2

import "math/rand/v2"

// N returns a pseudo-random number in the half-open interval [0,n) from
// the default Source. It panics if n <= 0.
func N[Int ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](n Int) Int {
	if n <= 0 {
		panic("invalid argument to N")
	}
	return Int(rand.Uint64N(uint64(n)))
}
`
