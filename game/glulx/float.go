package glulx

import "math"

// The float helpers glulxe's osdepend.c wraps around the C library.

func expf(f float32) float32 { return f1(math.Exp, f) }
func logf(f float32) float32 { return f1(math.Log, f) }

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
	return f2(math.Pow, a, b)
}

// defaultNaN is the NaN that x86 arithmetic (and so the C library glulxe
// calls) makes from operands that are not NaN: negative, quiet. Go's math
// functions return a positive NaN instead.
var defaultNaN = math.Float64frombits(0xFFF8000000000000)

// cnan gives a math-library result the NaN the C library gives: the first
// NaN operand, quieted, when there is one (C propagates it), else the
// default NaN.
func cnan(r float64, in ...float64) float64 {
	if !math.IsNaN(r) {
		return r
	}
	for _, x := range in {
		if math.IsNaN(x) {
			return math.Float64frombits(math.Float64bits(x) | 0x0008000000000000)
		}
	}
	return defaultNaN
}

// f1 and f2 run a float64 math function on float32 operands and round
// the result to float32, with the C library's NaN.
func f1(fn func(float64) float64, a float32) float32 {
	x := float64(a)
	return float32(cnan(fn(x), x))
}

func f2(fn func(float64, float64) float64, a, b float32) float32 {
	x, y := float64(a), float64(b)
	return float32(cnan(fn(x, y), x, y))
}

// posNaN is the NaN glibc's asin and acos return outside their domain.
var posNaN = math.Float64frombits(0x7FF8000000000000)

// cnanPos is cnan for asin and acos: NaN operands propagate, a domain
// error is the positive NaN.
func cnanPos(r float64, in ...float64) float64 {
	if math.IsNaN(r) && !math.IsNaN(in[0]) {
		return posNaN
	}
	return cnan(r, in...)
}

func asinC(x float64) float64 { return cnanPos(math.Asin(x), x) }
func acosC(x float64) float64 { return cnanPos(math.Acos(x), x) }
