package repl

import (
	"context"
	"strings"
	"testing"

	"github.com/grue-lab/grue/repl/internal/corpus"
)

// TestCorpusPipe runs the corpus as grue < cells does: each cell's lines
// through RunPipe, which finds where cells end as it reads them, its
// output after the CellMark line.
func TestCorpusPipe(t *testing.T) {
	corpus.Run(t, "testdata/cells/*.txt", func(t *testing.T) func(string) (string, error) {
		s, out := newSession(t)
		return func(src string) (string, error) {
			out.Reset()
			err := s.RunPipe(context.Background(), strings.NewReader(src+"\n"))
			return corpus.Unmark(out.String(), CellMark), err
		}
	})
}
