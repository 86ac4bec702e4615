package glulx

import "math"

// The float helpers glulxe's osdepend.c wraps around the C library.

func expf(f float32) float32 { return float32(math.Exp(float64(f))) }
func logf(f float32) float32 { return float32(math.Log(float64(f))) }

// powf is glulx_powf: every special case handled, whatever powf does.
func powf(a, b float32) float32 {
	switch {
	case a == 1:
		return 1
	case b == 0:
		return 1
	case a == -1 && math.IsInf(float64(b), 0):
		return 1
	}
	return float32(math.Pow(float64(a), float64(b)))
}
