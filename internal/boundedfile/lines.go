package boundedfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong is matched (errors.Is) by the error [LineReader.Line]
// gives for a line longer than its limit.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads a file a line at a time without holding more than one
// line of at most a given length: a longer line (a file of a gigabyte
// with no newline) is skipped to its end, read but not kept, and reported
// with an error matching [ErrLineTooLong], after which reading goes on
// with the next line.
type LineReader struct {
	br   *bufio.Reader
	max  int
	line []byte
}

// NewLineReader reads lines of at most max bytes (newline excluded) from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Line returns the next line, without its newline (the slice is valid
// until the next call), or io.EOF after the last one; a last line with
// no newline is a line. A line longer than the limit gives no bytes and
// an error matching ErrLineTooLong that says how long the line was; the
// next call reads the line after it. Any other error is the reader's.
func (l *LineReader) Line() ([]byte, error) {
	l.line = l.line[:0]
	var n int64
	long := false
	for {
		b, err := l.br.ReadSlice('\n')
		n += int64(len(b))
		if !long {
			if len(l.line)+len(b) > l.max+1 { // +1: the newline
				long, l.line = true, l.line[:0]
			} else {
				l.line = append(l.line, b...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && n == 0:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		}
		if k := len(l.line); k > 0 && l.line[k-1] == '\n' {
			l.line = l.line[:k-1]
		}
		if long || len(l.line) > l.max {
			return nil, fmt.Errorf("a line of %s, longer than the limit of %s: %w", FormatSize(n), FormatSize(int64(l.max)), ErrLineTooLong)
		}
		return l.line, nil
	}
}
