// Package wordset is a set of words written as one string and built on its
// first use, for package-level word lists: a map built in a package-level
// var (a literal, or a loop over strings.Fields) runs at the start of every
// grue command that links the package, grue play included, whether or not
// the command ever looks a word up (docs/performance.md).
package wordset

import (
	"strings"
	"sync"
)

// Set is a set of words, built on its first use. It is safe for
// concurrent use.
type Set struct {
	words func() map[string]bool
}

// New returns the set of the words of text, as strings.Fields splits it.
func New(text string) *Set {
	return &Set{words: sync.OnceValue(func() map[string]bool {
		f := strings.Fields(text)
		m := make(map[string]bool, len(f))
		for _, w := range f {
			m[w] = true
		}
		return m
	})}
}

// Has reports whether w is one of the set's words.
func (s *Set) Has(w string) bool { return s.words()[w] }

// Len is the number of words in the set.
func (s *Set) Len() int { return len(s.words()) }
