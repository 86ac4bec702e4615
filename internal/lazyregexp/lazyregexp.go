// Package lazyregexp is a regular expression compiled on its first use,
// for package-level patterns: a [regexp.MustCompile] in a package-level
// var runs at the start of every grue command that links the package
// (grue play included), whether or not the command ever matches it.
//
// It follows the Go distribution's cmd/go/internal/lazyregexp, which is
// not importable.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a [regexp.Regexp] compiled on its first use. Its methods are
// those of [regexp.Regexp] that grue calls; [Regexp.Regexp] gives the
// compiled expression for the others. It is safe for concurrent use.
type Regexp struct {
	compiled func() *regexp.Regexp
}

// New returns the expression str, to be compiled on its first use. As
// with [regexp.MustCompile], an invalid expression panics, though only
// then: every package-level pattern should be used by a test.
func New(str string) *Regexp {
	return &Regexp{compiled: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(str) })}
}

// Regexp returns the compiled expression, compiling it on the first call.
func (r *Regexp) Regexp() *regexp.Regexp { return r.compiled() }

// String is [regexp.Regexp.String].
func (r *Regexp) String() string { return r.compiled().String() }

// MatchString is [regexp.Regexp.MatchString].
func (r *Regexp) MatchString(s string) bool { return r.compiled().MatchString(s) }

// Match is [regexp.Regexp.Match].
func (r *Regexp) Match(b []byte) bool { return r.compiled().Match(b) }

// FindString is [regexp.Regexp.FindString].
func (r *Regexp) FindString(s string) string { return r.compiled().FindString(s) }

// FindStringIndex is [regexp.Regexp.FindStringIndex].
func (r *Regexp) FindStringIndex(s string) []int { return r.compiled().FindStringIndex(s) }

// FindStringSubmatch is [regexp.Regexp.FindStringSubmatch].
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compiled().FindStringSubmatch(s) }

// FindStringSubmatchIndex is [regexp.Regexp.FindStringSubmatchIndex].
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.compiled().FindStringSubmatchIndex(s)
}

// FindAllString is [regexp.Regexp.FindAllString].
func (r *Regexp) FindAllString(s string, n int) []string { return r.compiled().FindAllString(s, n) }

// FindAllStringIndex is [regexp.Regexp.FindAllStringIndex].
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.compiled().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is [regexp.Regexp.FindAllStringSubmatch].
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.compiled().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is [regexp.Regexp.FindAllStringSubmatchIndex].
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.compiled().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is [regexp.Regexp.ReplaceAllString].
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compiled().ReplaceAllString(src, repl)
}

// ReplaceAllLiteralString is [regexp.Regexp.ReplaceAllLiteralString].
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.compiled().ReplaceAllLiteralString(src, repl)
}

// ReplaceAllStringFunc is [regexp.Regexp.ReplaceAllStringFunc].
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.compiled().ReplaceAllStringFunc(src, repl)
}

// Split is [regexp.Regexp.Split].
func (r *Regexp) Split(s string, n int) []string { return r.compiled().Split(s, n) }

// SubexpIndex is [regexp.Regexp.SubexpIndex].
func (r *Regexp) SubexpIndex(name string) int { return r.compiled().SubexpIndex(name) }
