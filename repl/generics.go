package repl

import (
	"context"
	"fmt"
	"go/ast"
	"strings"
)

// yaegi v0.16.1 interprets the generic functions of the standard library
// from their Go source (its stdlib/generic), but only those of Go 1.21's
// slices, maps and cmp that it could compile: slices.Contains, Index,
// Reverse, Insert work; slices.Sort, SortFunc, Min, Max and BinarySearch
// (left out upstream) and Go 1.23's iterators (slices.Collect,
// slices.Sorted, maps.Keys, maps.Values, package iter) do not exist.
// The session adds them, as Go source compiled into the same packages
// the first time a cell imports one (a few milliseconds, so not at
// start-up), in the forms that yaegi's generics handle: a slice is []E
// rather than S ~[]E (a named slice type is accepted all the same), an
// iterator is its func type rather than iter.Seq[E], sorting goes through
// sort.Slice. Their behaviour is the standard library's; ranging over
// their iterators works through the session's rewriting (rangefunc.go).

// compileSources compiles the sources that extend the package at import
// path p (sourcePackages), once in each interpreter.
func (s *Session) compileSources(p string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("import %q: the session's additions to it do not compile: %v", p, r)
		}
	}()
	if p == "grueslices" || p == "gruemaps" {
		if err := s.compileSources("iter"); err != nil {
			return err
		}
	}
	for _, src := range sourcePackages[p] {
		if s.compiled[src] {
			continue
		}
		if _, err := s.in.Compile(src); err != nil {
			return fmt.Errorf("import %q: the session's additions to it do not compile: %w", p, err)
		}
		s.compiled[src] = true
	}
	return nil
}

// sourcePackages are the Go sources that make a package the first time
// a cell imports it, by import path; the packages a source imports come
// first.
var sourcePackages = map[string][]string{
	"iter":       {iterSource},
	"grueslices": {slicesSource},
	"gruemaps":   {mapsSource},
	"gruecmp":    {cmpSource},
	"gruesync":   {gruesyncSource},   // genericstd.go
	"grueunique": {grueuniqueSource}, // genericstd.go
	"gruerandv2": {gruerandv2Source}, // genericstd.go
}

// genericStand are the packages whose functions the session's own stand
// in for, in a cell: slices.Sort is _grue_slices.Sort, imported from
// grueslices (see redirectGenerics).
var genericStand = map[string]struct{ name, path string }{
	"slices": {privatePkg + "_slices", "grueslices"},
	"maps":   {privatePkg + "_maps", "gruemaps"},
	"cmp":    {privatePkg + "_cmp", "gruecmp"},
}

// redirectGenerics makes a unit's calls of the functions of slices and
// maps (the package, as the cell imported it or will) calls of the
// session's own, importing those first.
func (s *Session) redirectGenerics(ctx context.Context, u unit, loc source) (unit, error) {
	u.text = cmpOrPairs(u.text)
	if !strings.Contains(u.text, "slices.") && !strings.Contains(u.text, "maps.") && !strings.Contains(u.text, "cmp.") &&
		!strings.Contains(u.text, "sync.") && !strings.Contains(u.text, "unique.") && !strings.Contains(u.text, "rand.") {
		return u, nil
	}
	f, fset, head := parseUnitAt(u)
	if f == nil {
		return u, nil
	}
	type edit struct {
		off   int
		name  string
		stand struct{ name, path string }
	}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil {
			return true
		}
		_, imported := s.imports[id.Name]
		if stand, ok := s.genericNameStand(f, sel, id.Name); ok && (imported || !loc.known(id.Name)) { // genericstd.go
			edits = append(edits, edit{fset.Position(id.Pos()).Offset - head, id.Name, stand})
			return true
		}
		stand, ok := genericStand[id.Name]
		if have, imported := s.imports[id.Name]; !ok || (imported && have != id.Name) || (!imported && loc.known(id.Name)) {
			return true
		}
		edits = append(edits, edit{fset.Position(id.Pos()).Offset - head, id.Name, stand})
		return true
	})
	if len(edits) == 0 {
		return u, nil
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		old := u.text[e.off:]
		if err := s.importPackage(ctx, e.stand.name, e.stand.path, loc, u.line); err != nil {
			return u, err
		}
		u.text = u.text[:e.off] + e.stand.name + old[len(e.name):]
	}
	return u, nil
}

// cmpOrPairs returns text with its calls cmp.Or(a, b, c) written as
// cmp.Or2(a, cmp.Or2(b, c)), which the interpreter can infer the type of
// (the arguments are evaluated first, in order, either way); text itself
// when it has none.
func cmpOrPairs(text string) string {
	if !strings.Contains(text, "cmp.Or(") {
		return text
	}
	return rewriteCalls(text, func(u *unitEdit, call *ast.CallExpr) bool {
		if !isPackageCall(call, "cmp", "Or") || len(call.Args) == 0 {
			return true
		}
		args := make([]string, len(call.Args))
		for i, a := range call.Args {
			args[i] = cmpOrPairs(u.src(a)) // a call of cmp.Or among them too
		}
		text := args[len(args)-1]
		if len(args) == 1 {
			text = "cmp.Or2(" + text + ", " + text + ")"
		}
		for i := len(args) - 2; i >= 0; i-- {
			text = "cmp.Or2(" + args[i] + ", " + text + ")"
		}
		u.replace(call, text)
		return false
	})
}

const iterSource = `package iter

// Seq is an iterator over sequences of individual values.
type Seq[V any] func(yield func(V) bool)

// Seq2 is an iterator over sequences of pairs of values.
type Seq2[K, V any] func(yield func(K, V) bool)
`

// cmpSource is package cmp, whose Or yaegi's lacks (Go 1.22).
const cmpSource = `package gruecmp

// Ordered is a constraint that permits any ordered type.
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Less reports whether x is less than y; a NaN is less than any non-NaN.
func Less[T Ordered](x, y T) bool { return (x != x && y == y) || x < y }

// Compare returns -1, 0 or +1 as x is less than, equal to or greater than
// y; a NaN is less than any non-NaN, and equal to a NaN.
func Compare[T Ordered](x, y T) int {
	xNaN, yNaN := x != x, y != y
	if xNaN {
		if yNaN {
			return 0
		}
		return -1
	}
	if yNaN {
		return +1
	}
	if x < y {
		return -1
	}
	if x > y {
		return +1
	}
	return 0
}

// Or2 is Or of two values: yaegi cannot infer the type parameter of a
// variadic generic function, so the session writes cmp.Or(a, b, c) as
// Or2(a, Or2(b, c)) (see cmpOrPairs).
func Or2[T comparable](x, y T) T {
	var zero T
	if x != zero {
		return x
	}
	return y
}

// Or returns the first of its arguments that is not the zero value, or
// the zero value.
func Or[T comparable](vals ...T) T {
	var zero T
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}
`

const slicesSource = `package grueslices

import "sort"

type ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func Sort[E ordered](x []E) { sort.Slice(x, func(i, j int) bool { return x[i] < x[j] || (x[i] != x[i] && x[j] == x[j]) }) }

func SortFunc[E any](x []E, cmp func(a, b E) int) { sort.Slice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 }) }

func SortStableFunc[E any](x []E, cmp func(a, b E) int) {
	sort.SliceStable(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 })
}

func IsSorted[E ordered](x []E) bool {
	for i := len(x) - 1; i > 0; i-- {
		if x[i] < x[i-1] {
			return false
		}
	}
	return true
}

func IsSortedFunc[E any](x []E, cmp func(a, b E) int) bool {
	for i := len(x) - 1; i > 0; i-- {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

func Min[E ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Min: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if x[i] < m {
			m = x[i]
		}
	}
	return m
}

func MinFunc[E any](x []E, cmp func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MinFunc: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if cmp(x[i], m) < 0 {
			m = x[i]
		}
	}
	return m
}

func Max[E ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Max: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if x[i] > m {
			m = x[i]
		}
	}
	return m
}

func MaxFunc[E any](x []E, cmp func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MaxFunc: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if cmp(x[i], m) > 0 {
			m = x[i]
		}
	}
	return m
}

func BinarySearch[E ordered](x []E, target E) (int, bool) {
	i := sort.Search(len(x), func(i int) bool { return x[i] >= target })
	return i, i < len(x) && x[i] == target
}

func BinarySearchFunc[E, T any](x []E, target T, cmp func(E, T) int) (int, bool) {
	i := sort.Search(len(x), func(i int) bool { return cmp(x[i], target) >= 0 })
	return i, i < len(x) && cmp(x[i], target) == 0
}

func All[E any](s []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range s {
			if !yield(i, v) {
				return
			}
		}
	}
}

func Backward[E any](s []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i := len(s) - 1; i >= 0; i-- {
			if !yield(i, s[i]) {
				return
			}
		}
	}
}

func Values[E any](s []E) func(yield func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}
}

func AppendSeq[E any](s []E, seq func(yield func(E) bool)) []E {
	seq(func(v E) bool { s = append(s, v); return true })
	return s
}

func Collect[E any](seq func(yield func(E) bool)) []E {
	var s []E
	seq(func(v E) bool { s = append(s, v); return true })
	return s
}

func Sorted[E ordered](seq func(yield func(E) bool)) []E {
	var s []E
	seq(func(v E) bool { s = append(s, v); return true })
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] || (s[i] != s[i] && s[j] == s[j]) })
	return s
}

func SortedFunc[E any](seq func(yield func(E) bool), cmp func(E, E) int) []E {
	var s []E
	seq(func(v E) bool { s = append(s, v); return true })
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
	return s
}

func Repeat[E any](x []E, count int) []E {
	if count < 0 {
		panic("cannot be negative")
	}
	var s []E
	for i := 0; i < count; i++ {
		s = append(s, x...)
	}
	return s
}

func Chunk[E any](s []E, n int) func(yield func([]E) bool) {
	if n < 1 {
		panic("cannot be less than 1")
	}
	return func(yield func([]E) bool) {
		for i := 0; i < len(s); i += n {
			end := i + n
			if end > len(s) {
				end = len(s)
			}
			if !yield(s[i:end:end]) {
				return
			}
		}
	}
}
func Equal[E comparable](s1, s2 []E) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i := range s1 {
		if s1[i] != s2[i] {
			return false
		}
	}
	return true
}

func EqualFunc[E1, E2 any](s1 []E1, s2 []E2, eq func(E1, E2) bool) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i := range s1 {
		if !eq(s1[i], s2[i]) {
			return false
		}
	}
	return true
}

func Compare[E ordered](s1, s2 []E) int {
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if s1[i] < s2[i] {
			return -1
		}
		if s1[i] > s2[i] {
			return 1
		}
	}
	if len(s1) < len(s2) {
		return -1
	}
	if len(s1) > len(s2) {
		return 1
	}
	return 0
}

func CompareFunc[E1, E2 any](s1 []E1, s2 []E2, cmp func(E1, E2) int) int {
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if c := cmp(s1[i], s2[i]); c != 0 {
			return c
		}
	}
	if len(s1) < len(s2) {
		return -1
	}
	if len(s1) > len(s2) {
		return 1
	}
	return 0
}

func Index[E comparable](s []E, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}

func IndexFunc[E any](s []E, f func(E) bool) int {
	for i := range s {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

func Contains[E comparable](s []E, v E) bool { return Index(s, v) >= 0 }

func ContainsFunc[E any](s []E, f func(E) bool) bool { return IndexFunc(s, f) >= 0 }

func Insert[E any](s []E, i int, v ...E) []E {
	_ = s[i:]
	out := make([]E, 0, len(s)+len(v))
	out = append(out, s[:i]...)
	out = append(out, v...)
	return append(out, s[i:]...)
}

func Delete[E any](s []E, i, j int) []E {
	_ = s[i:j:len(s)]
	if i == j {
		return s
	}
	n := copy(s[i:], s[j:])
	var zero E
	for k := i + n; k < len(s); k++ {
		s[k] = zero
	}
	return s[:i+n]
}

func DeleteFunc[E any](s []E, del func(E) bool) []E {
	out := s[:0]
	for _, v := range s {
		if !del(v) {
			out = append(out, v)
		}
	}
	var zero E
	for k := len(out); k < len(s); k++ {
		s[k] = zero
	}
	return out
}

func Replace[E any](s []E, i, j int, v ...E) []E {
	_ = s[i:j]
	out := make([]E, 0, len(s)-(j-i)+len(v))
	out = append(out, s[:i]...)
	out = append(out, v...)
	return append(out, s[j:]...)
}

func Clone[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append([]E{}, s...)
}

func Compact[E comparable](s []E) []E {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

func CompactFunc[E any](s []E, eq func(E, E) bool) []E {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if !eq(out[len(out)-1], v) {
			out = append(out, v)
		}
	}
	return out
}

func Grow[E any](s []E, n int) []E {
	if n < 0 {
		panic("cannot be negative")
	}
	if cap(s)-len(s) < n {
		t := make([]E, len(s), len(s)+n)
		copy(t, s)
		return t
	}
	return s
}

func Clip[E any](s []E) []E { return s[:len(s):len(s)] }

func Reverse[E any](s []E) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func Concat[E any](first []E, more ...[]E) []E {
	out := append([]E{}, first...)
	for _, s := range more {
		out = append(out, s...)
	}
	return out
}

func SortedStableFunc[E any](seq func(yield func(E) bool), cmp func(E, E) int) []E {
	var s []E
	seq(func(v E) bool { s = append(s, v); return true })
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
	return s
}
`

const mapsSource = `package gruemaps

func Keys[K comparable, V any](m map[K]V) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func Values[K comparable, V any](m map[K]V) func(yield func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

func All[K comparable, V any](m map[K]V) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}

func Insert[K comparable, V any](m map[K]V, seq func(yield func(K, V) bool)) {
	seq(func(k K, v V) bool { m[k] = v; return true })
}

func Collect[K comparable, V any](seq func(yield func(K, V) bool)) map[K]V {
	m := map[K]V{}
	seq(func(k K, v V) bool { m[k] = v; return true })
	return m
}

func Clone[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func Copy[K comparable, V any](dst, src map[K]V) {
	for k, v := range src {
		dst[k] = v
	}
}

func DeleteFunc[K comparable, V any](m map[K]V, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

func Equal[K, V comparable](m1, m2 map[K]V) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || v1 != v2 {
			return false
		}
	}
	return true
}

func EqualFunc[K comparable, V1, V2 any](m1 map[K]V1, m2 map[K]V2, eq func(V1, V2) bool) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || !eq(v1, v2) {
			return false
		}
	}
	return true
}
`
