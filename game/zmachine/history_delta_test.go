package zmachine

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestDeltaRoundTrip checks that a difference turns each memory into the
// other, however the changes lie (none, all, single bytes, runs across
// the eight-byte steps, at either end), and that a turn's few changes
// make a small difference.
func TestDeltaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 64, 1000, 18703} {
		for _, changes := range []int{0, 1, 3, 50, n} {
			a := make([]byte, n)
			for i := range a {
				a[i] = byte(r.IntN(256))
			}
			b := bytes.Clone(a)
			for range changes {
				if n == 0 {
					break
				}
				i := r.IntN(n)
				for j := i; j < min(n, i+1+r.IntN(12)); j++ {
					b[j] ^= byte(1 + r.IntN(255))
				}
			}
			if n > 0 && changes == n {
				b[0], b[n-1] = ^a[0], ^a[n-1]
			}
			d := appendDelta(nil, a, b)
			if bytes.Equal(a, b) && len(d) != 0 {
				t.Errorf("n=%d: equal memories give a difference of %d bytes", n, len(d))
			}
			got := bytes.Clone(a)
			applyDelta(got, d)
			if !bytes.Equal(got, b) {
				t.Fatalf("n=%d changes=%d: a with the difference applied is not b", n, changes)
			}
			applyDelta(got, d)
			if !bytes.Equal(got, a) {
				t.Fatalf("n=%d changes=%d: b with the difference applied is not a", n, changes)
			}
			if changes <= 3 && len(d) > 3*(12+2*2) {
				t.Errorf("n=%d: %d changes of at most 12 bytes gave a difference of %d bytes", n, changes, len(d))
			}
		}
	}
}

// TestDeltaRejectsForeign checks that a difference that does not fit the
// memory panics with the machine's own error (a bug, caught where it is).
func TestDeltaRejectsForeign(t *testing.T) {
	a, b := make([]byte, 100), make([]byte, 100)
	b[90] = 1
	d := appendDelta(nil, a, b)
	defer func() {
		if _, ok := recover().(fault); !ok {
			t.Fatal("applying a difference past the end of memory did not fail")
		}
	}()
	applyDelta(make([]byte, 50), d)
}
