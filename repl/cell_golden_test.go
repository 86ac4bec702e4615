package repl

import (
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/jsonms/jsonmstest"
)

// A cell writes its duration as every duration in grue's JSON is
// written, in milliseconds rounded to the microsecond; and what it writes
// reads back and writes the same again (1.001ms once came back as
// 1000999ns, so written again as 1, and the largest duration came back
// negative).
func TestCellJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		v    Cell
		want string
	}{
		{"cell", Cell{N: 3, Input: "1+1", Output: "2\n", Duration: 1234567}, `{"n":3,"input":"1+1","output":"2\n","duration_ms":1.235}`},
		{"failed cell", Cell{N: 4, Input: "x", Error: "undefined: x", Duration: 1999}, `{"n":4,"input":"x","output":"","error":"undefined: x","duration_ms":0.002}`},
		{"negative", Cell{Duration: -1500}, `{"n":0,"input":"","output":"","duration_ms":-0.002}`},
		{"read without losing a nanosecond", Cell{N: 5, Duration: 1001 * time.Microsecond}, `{"n":5,"input":"","output":"","duration_ms":1.001}`},
		{"largest", Cell{Duration: 1<<63 - 1}, `{"n":0,"input":"","output":"","duration_ms":9223372036854.775}`},
		{"empty cell", Cell{}, `{"n":0,"input":"","output":"","duration_ms":0}`},
	} {
		jsonmstest.AsBefore(t, c.name, c.v, c.want)
	}
}
