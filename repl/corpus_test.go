package repl

import (
	"context"
	"testing"

	"github.com/grue-lab/grue/repl/internal/corpus"
)

// TestCorpus runs the cells of testdata/cells, ordinary Go and REPL
// habits, each file in a fresh session, against their expected outputs.
func TestCorpus(t *testing.T) {
	corpus.Run(t, "testdata/cells/*.txt", func(t *testing.T) func(string) (string, error) {
		s, _ := newSession(t)
		return func(src string) (string, error) {
			res, err := s.Eval(context.Background(), src)
			return res.Output, err
		}
	})
}
