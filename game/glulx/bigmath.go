package glulx

import (
	"math"
	"math/big"
	"sync"
)

// Double-precision sin, cos, tan, exp, log and pow, correctly rounded
// through math/big. glulxe calls the C library, whose results for these
// are (nearly always) the correctly rounded ones; Go's math package is
// within an ulp but rounds differently in places, and its amd64 Log is
// wrong for subnormal arguments. Glulx games rarely call these, so their
// cost does not matter.

const bigPrec = 160

var (
	constOnce sync.Once
	bigPi     *big.Float // 1300 bits, for argument reduction
	bigLn2    *big.Float
)

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// atanInv is atan(1/n) to prec bits.
func atanInv(n int64, prec uint) *big.Float {
	x := newF(prec).Quo(newF(prec).SetInt64(1), newF(prec).SetInt64(n))
	x2 := newF(prec).Mul(x, x)
	sum := newF(prec).Set(x)
	term := newF(prec).Set(x)
	eps := newF(prec).SetMantExp(newF(prec).SetInt64(1), -int(prec)-8)
	for k := int64(1); ; k++ {
		term.Mul(term, x2)
		t := newF(prec).Quo(term, newF(prec).SetInt64(2*k+1))
		if k%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if t.Cmp(eps) < 0 {
			return sum
		}
	}
}

// atanhSeries is atanh(z) = z + z^3/3 + ... for small z.
func atanhSeries(z *big.Float, prec uint) *big.Float {
	z2 := newF(prec).Mul(z, z)
	sum := newF(prec).Set(z)
	term := newF(prec).Set(z)
	eps := newF(prec).SetMantExp(newF(prec).SetInt64(1), -int(prec)-8)
	for k := int64(1); k < 10000; k++ {
		term.Mul(term, z2)
		t := newF(prec).Quo(term, newF(prec).SetInt64(2*k+1))
		sum.Add(sum, t)
		if t.Sign() == 0 || newF(prec).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum
}

func consts() {
	constOnce.Do(func() {
		const p = 1300
		a := atanInv(5, p)
		a.Mul(a, newF(p).SetInt64(16))
		b := atanInv(239, p)
		b.Mul(b, newF(p).SetInt64(4))
		bigPi = a.Sub(a, b)
		third := newF(bigPrec).Quo(newF(bigPrec).SetInt64(1), newF(bigPrec).SetInt64(3))
		l := atanhSeries(third, bigPrec)
		bigLn2 = l.Mul(l, newF(bigPrec).SetInt64(2))
	})
}

// sinCos returns sin x and cos x at bigPrec bits (x finite).
func sinCos(x float64) (*big.Float, *big.Float) {
	consts()
	const p = 1400
	bx := newF(p).SetFloat64(x)
	halfPi := newF(p).Quo(bigPi, newF(p).SetInt64(2))
	q := newF(p).Quo(bx, halfPi)
	// k = nearest integer to q
	kf := newF(p).Add(q, newF(p).SetFloat64(0.5*float64(sign(q))))
	ki, _ := kf.Int(nil)
	r := newF(p).Sub(bx, newF(p).Mul(newF(p).SetInt(ki), halfPi))
	r.SetPrec(bigPrec)
	s, c := taylorSinCos(r)
	switch new(big.Int).And(ki, big.NewInt(3)).Int64() {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	return s, c
}

func sign(f *big.Float) int {
	if f.Sign() < 0 {
		return -1
	}
	return 1
}

func taylorSinCos(r *big.Float) (*big.Float, *big.Float) {
	p := uint(bigPrec)
	r2 := newF(p).Mul(r, r)
	s, c := newF(p).Set(r), newF(p).SetInt64(1)
	ts, tc := newF(p).Set(r), newF(p).SetInt64(1)
	for k := int64(1); k < 60; k++ {
		ts.Mul(ts, r2)
		ts.Quo(ts, newF(p).SetInt64((2*k)*(2*k+1)))
		tc.Mul(tc, r2)
		tc.Quo(tc, newF(p).SetInt64((2*k-1)*(2*k)))
		if k%2 == 1 {
			s.Sub(s, ts)
			c.Sub(c, tc)
		} else {
			s.Add(s, ts)
			c.Add(c, tc)
		}
	}
	return s, c
}

func f64of(f *big.Float) float64 {
	v, _ := f.Float64()
	return v
}

func dsin(x float64) float64 {
	if math.IsInf(x, 0) {
		return defaultNaN
	}
	if math.IsNaN(x) || x == 0 {
		return cnan(x, x)
	}
	s, _ := sinCos(x)
	return f64of(s)
}

func dcos(x float64) float64 {
	if math.IsInf(x, 0) {
		return defaultNaN
	}
	if math.IsNaN(x) {
		return cnan(x, x)
	}
	_, c := sinCos(x)
	return f64of(c)
}

func dtan(x float64) float64 {
	if math.IsInf(x, 0) {
		return defaultNaN
	}
	if math.IsNaN(x) || x == 0 {
		return cnan(x, x)
	}
	s, c := sinCos(x)
	return f64of(newF(bigPrec).Quo(s, c))
}

// bigLog is log x for finite x > 0.
func bigLog(x float64) *big.Float {
	consts()
	p := uint(bigPrec)
	frac, e := math.Frexp(x) // x = frac * 2^e, frac in [0.5, 1)
	m := newF(p).SetFloat64(frac * 2)
	e--
	if frac < math.Sqrt2/2 {
		// keep m near 1: m in [sqrt2/2, sqrt2)
	} else {
		m.Quo(m, newF(p).SetInt64(2))
		e++
	}
	z := newF(p).Quo(newF(p).Sub(m, newF(p).SetInt64(1)), newF(p).Add(m, newF(p).SetInt64(1)))
	l := atanhSeries(z, p)
	l.Mul(l, newF(p).SetInt64(2))
	return l.Add(l, newF(p).Mul(newF(p).SetInt64(int64(e)), bigLn2))
}

// bigExp is e^y as a float64, correctly rounded (overflow to +Inf,
// underflow to 0).
func bigExp(y *big.Float) float64 {
	consts()
	p := uint(bigPrec)
	yf, _ := y.Float64()
	if yf > 710 {
		return math.Inf(1)
	}
	if yf < -746 {
		return 0
	}
	kf := math.Round(yf / math.Ln2)
	r := newF(p).Sub(y, newF(p).Mul(newF(p).SetFloat64(kf), bigLn2))
	sum, term := newF(p).SetInt64(1), newF(p).SetInt64(1)
	for n := int64(1); n < 80; n++ {
		term.Mul(term, r)
		term.Quo(term, newF(p).SetInt64(n))
		sum.Add(sum, term)
	}
	sum.SetMantExp(sum, int(kf))
	return f64of(sum)
}

func dexp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return cnan(x, x)
	case math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1):
		return 0
	case x == 0:
		return 1
	}
	return bigExp(newF(bigPrec).SetFloat64(x))
}

func dlog(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return cnan(x, x)
	case x < 0:
		return defaultNaN
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	case x == 1:
		return 0
	}
	return f64of(bigLog(x))
}

// dpow is glulx_pow, with the finite cases correctly rounded.
func dpow(a, b float64) float64 {
	switch {
	case a == 1, b == 0:
		return 1
	case a == -1 && math.IsInf(b, 0):
		return 1
	case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || a == 0:
		return cnan(math.Pow(a, b), a, b)
	}
	neg := false
	if a < 0 {
		if b != math.Trunc(b) {
			return defaultNaN
		}
		a = -a
		neg = math.Mod(b, 2) != 0
	}
	y := newF(bigPrec).Mul(bigLog(a), newF(bigPrec).SetFloat64(b))
	r := bigExp(y)
	if neg {
		return -r
	}
	return r
}
