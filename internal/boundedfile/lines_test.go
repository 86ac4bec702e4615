package boundedfile

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// LineReader gives each line up to its limit, skips a longer one with an
// error that says so and goes on, and gives a last line with no newline.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // longer than the reader's buffer
	in := "abcd\n" + "abcde\n" + long + "\n\n" + "last"
	lr := NewLineReader(strings.NewReader(in), 4)
	var got []string
	for {
		b, err := lr.Line()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ErrLineTooLong) {
			got = append(got, "LONG")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	want := []string{"abcd", "LONG", "LONG", "", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
}
