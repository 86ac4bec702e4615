package openai

import (
	"testing"
	"time"
)

// FuzzParseRetryAfter: any header gives a wait that is not negative.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"2", "0.5", "-3", "1e300", "NaN", "Wed, 21 Oct 2015 07:28:00 GMT", "", "soon"} {
		f.Add(s)
	}
	now := time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := parseRetryAfter(v, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("parseRetryAfter(%q) = %v, %v", v, d, ok)
		}
	})
}
