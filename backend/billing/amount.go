package billing

import (
	"math"
	"math/big"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// exact is an amount kept to 18 decimals: n nanos plus f units of 1e-18
// (|f| < 1e9). Rows are summed exactly and a daily line is rounded to
// nanos once, when its sum is stored: rounding each row drifted the totals
// of many tiny rows.
type exact struct {
	n model.Nanos
	f int64
}

const fracUnit = 1_000_000_000 // units of f in a nano

func (a exact) isZero() bool { return a.n == 0 && a.f == 0 }

// add sums exactly; false on overflow.
func (a exact) add(b exact) (exact, bool) {
	n, ok := addNanos(a.n, b.n)
	if !ok {
		return a, false
	}
	f := a.f + b.f
	switch {
	case f >= fracUnit:
		n, ok = addNanos(n, 1)
		f -= fracUnit
	case f <= -fracUnit:
		n, ok = addNanos(n, -1)
		f += fracUnit
	}
	return exact{n, f}, ok
}

func (a exact) neg() exact { return exact{-a.n, -a.f} }

// rat is a as a rational number.
func (a exact) rat() *big.Rat {
	x := big.NewRat(int64(a.n), 1e9)
	return x.Add(x, big.NewRat(a.f, 1e18))
}

// round is the nearest nano, half away from zero.
func (a exact) round() model.Nanos {
	const half = fracUnit / 2
	switch {
	case a.f > half || (a.f == half && a.n >= 0):
		return a.n + 1
	case a.f < -half || (a.f == -half && a.n <= 0):
		return a.n - 1
	}
	return a.n
}

// split is the rounded nanos and what the exact value has beyond them, in
// 1e-18 units.
func (a exact) split() (model.Nanos, int64) {
	r := a.round()
	return r, int64(a.n-r)*fracUnit + a.f
}

// exactRat is x to 18 decimals (half away from zero); false when it does
// not fit.
func exactRat(x *big.Rat) (exact, bool) {
	scaled := new(big.Rat).Mul(x, big.NewRat(1e18, 1))
	q, r := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	// Round the 1e-18 units half away from zero.
	if r.Sign() != 0 {
		twice := new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2))
		if twice.Cmp(scaled.Denom()) >= 0 {
			q.Add(q, big.NewInt(int64(r.Sign())))
		}
	}
	n, f := new(big.Int).QuoRem(q, big.NewInt(fracUnit), new(big.Int))
	if !n.IsInt64() {
		return exact{}, false
	}
	return exact{model.Nanos(n.Int64()), f.Int64()}, true
}

// pow10 holds 10^0 .. 10^18.
var pow10 = func() [19]uint64 {
	var p [19]uint64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// parseAmount parses a decimal cell exactly (to 18 decimals), accepting
// what model.ParseNanos accepts; rounded, it is ParseNanos' result. The
// fast path handles plain and exponent notation of up to 18 significant
// digits without allocating; anything else falls back to model.ParseNanos
// (which checks the syntax) and big.Rat. Profiling the 1M-row benchmark
// showed ParseNanos' string work as a top cost, hence this path.
func parseAmount(b []byte) (exact, bool) {
	if v, ok := fastExact(b, 0); ok {
		return v, true
	}
	if _, err := model.ParseNanos(string(b)); err != nil {
		return exact{}, false
	}
	x, ok := new(big.Rat).SetString(strings.TrimSpace(string(b)))
	if !ok {
		return exact{}, false
	}
	return exactRat(x)
}

// fastExact parses b times 10^shift.
func fastExact(b []byte, shift int) (exact, bool) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var m uint64
	sig, digits, fracDigits := 0, 0, 0
	dot := false
	for ; i < len(b); i++ {
		c := b[i]
		if c >= '0' && c <= '9' {
			digits++
			if dot {
				fracDigits++
			}
			if m == 0 && c == '0' {
				continue // leading zeros cost nothing
			}
			sig++
			if sig > 18 {
				return exact{}, false
			}
			m = m*10 + uint64(c-'0')
			continue
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		break
	}
	if digits == 0 {
		return exact{}, false
	}
	exp := 0
	if i < len(b) {
		if b[i] != 'e' && b[i] != 'E' {
			return exact{}, false
		}
		i++
		eneg := false
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		if i == len(b) {
			return exact{}, false
		}
		for n := 0; i < len(b); i, n = i+1, n+1 {
			c := b[i]
			if c < '0' || c > '9' || n == 2 { // at most two exponent digits, as ParseNanos
				return exact{}, false
			}
			exp = exp*10 + int(c-'0')
		}
		if eneg {
			exp = -exp
		}
	}
	k := exp + shift - fracDigits + 9 // nanos = m * 10^k
	var v, f uint64                   // nanos and 1e-18 units
	switch {
	case m == 0:
	case k >= 0:
		if k > 18 || m > math.MaxInt64/pow10[k] {
			return exact{}, false
		}
		v = m * pow10[k]
	case -k > 18:
		return exact{}, false // rare: left to the exact slow path
	default:
		d := pow10[-k]
		v = m / d
		r := m % d // r / 10^-k nanos
		if -k <= 9 {
			f = r * pow10[9+k]
		} else {
			e := pow10[-k-9]
			f = r / e
			if (r%e)*2 >= e {
				f++ // beyond 18 decimals: half away from zero
			}
			if f == fracUnit {
				v, f = v+1, 0
			}
		}
	}
	if v > math.MaxInt64 {
		return exact{}, false
	}
	if neg {
		return exact{-model.Nanos(v), -int64(f)}, true
	}
	return exact{model.Nanos(v), int64(f)}, true
}

// Quantities are summed exactly too, so a daily sum does not depend on
// the order the workers met its rows. They are held as exact values of
// millions of units: 18 decimals of those are 1e-12 units, far below
// any bill's precision, and a daily line may reach 9.2e15 units (nanos
// of money stop at 9.2e9, too few for request counts or bytes).
const qtyShift = 6

// parseQuantity parses a usage quantity cell into millions of units.
func parseQuantity(b []byte) (exact, bool) {
	if v, ok := fastExact(b, -qtyShift); ok {
		return v, true
	}
	s := strings.TrimSpace(string(b))
	if !plainNumber(s) {
		return exact{}, false
	}
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		return exact{}, false
	}
	return exactRat(x.Quo(x, big.NewRat(1e6, 1)))
}

// plainNumber reports whether s is a decimal number, with an optional
// sign and exponent: big.Rat alone also takes fractions and hex.
func plainNumber(s string) bool {
	digits, dot, exp := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && digits && !exp:
			exp, digits = true, false
		case (c == '-' || c == '+') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		default:
			return false
		}
	}
	return digits
}

// quantity is a sum of quantities in units: the nearest float where the
// sum in 1e-12 units fits 53 bits (below 9,007 units), within an ulp or
// two above.
func (a exact) quantity() float64 {
	const most = math.MaxInt64/fracUnit - 1
	if a.n > -most && a.n < most {
		return float64(int64(a.n)*fracUnit+a.f) / 1e12
	}
	return float64(a.n)/1e3 + float64(a.f)/1e12
}
