// Package model holds the domain types shared by every part of costpilot.
// It imports nothing internal.
package model

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Nanos is an amount of money in billionths of a currency unit. Real billing
// line items go below $0.000001, so amounts are kept as exact integers and
// turned into floats only at the edge (JSON, display).
type Nanos int64

// NanosPerUnit is the number of Nanos in one currency unit.
const NanosPerUnit = 1_000_000_000

// Float64 returns the amount in currency units.
func (n Nanos) Float64() float64 {
	whole := int64(n) / NanosPerUnit
	frac := int64(n) % NanosPerUnit
	return float64(whole) + float64(frac)/NanosPerUnit
}

// String formats the amount with nine decimals, exactly.
func (n Nanos) String() string {
	sign := ""
	v := int64(n)
	if v < 0 {
		sign = "-"
		if v == math.MinInt64 {
			return "-9223372036.854775808"
		}
		v = -v
	}
	return fmt.Sprintf("%s%d.%09d", sign, v/NanosPerUnit, v%NanosPerUnit)
}

// NanosFromFloat converts a float amount, rounding to the nearest nano.
func NanosFromFloat(f float64) Nanos {
	return Nanos(math.Round(f * NanosPerUnit))
}

// ParseNanos parses a decimal number such as "12.5", "-0.0000001234" or
// "1e-7" into Nanos, rounding half away from zero beyond nine decimals.
// Anything else is an error: thousands separators, decimal commas,
// currency signs, NaN and infinities, and exponents beyond ±99 (an amount
// that large or small is not money). Plain decimals are parsed exactly,
// without going through float64.
func ParseNanos(s string) (Nanos, error) {
	s = strings.TrimSpace(s)
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	body := mant
	if body != "" && (body[0] == '-' || body[0] == '+') {
		body = body[1:]
	}
	intPart, fracPart, _ := strings.Cut(body, ".")
	if !allDigits(intPart) || !allDigits(fracPart) {
		return 0, fmt.Errorf("invalid amount %q: not a plain decimal number", s)
	}
	if len(intPart)+len(fracPart) == 0 {
		return 0, fmt.Errorf("invalid amount %q: no digits", s)
	}
	if hasExp {
		e := exp
		if e != "" && (e[0] == '-' || e[0] == '+') {
			e = e[1:]
		}
		if e == "" || !allDigits(e) || len(e) > 2 {
			return 0, fmt.Errorf("invalid amount %q: exponent out of range", s)
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return 0, fmt.Errorf("invalid amount %q", s)
		}
		return ratToNanos(r, s)
	}
	neg := mant[0] == '-'
	var whole int64
	if intPart != "" {
		if len(intPart) > 9 { // ten digits can overflow int64 nanos: exact path
			r, ok := new(big.Rat).SetString(intPart + "." + fracPart)
			if !ok {
				return 0, fmt.Errorf("invalid amount %q", s)
			}
			if neg {
				r.Neg(r)
			}
			return ratToNanos(r, s)
		}
		w, err := strconv.ParseInt(intPart, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid amount %q", s)
		}
		whole = w
	}
	var frac int64
	roundUp := false
	for i := 0; i < 9; i++ {
		frac *= 10
		if i < len(fracPart) {
			frac += int64(fracPart[i] - '0')
		}
	}
	if len(fracPart) > 9 && fracPart[9] >= '5' {
		roundUp = true
	}
	return nanosOf(whole, frac, roundUp, neg), nil
}

// ParseNanosBytes is ParseNanos of b. Plain decimals of up to nine
// integer digits, nearly every cell of an export, are read without copying
// b to a string: an import reads millions of them. Anything else (spaces,
// exponents, errors) goes through ParseNanos.
func ParseNanosBytes(b []byte) (Nanos, error) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var whole, frac int64
	ints, fracs := 0, 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		whole = whole*10 + int64(b[i]-'0')
		ints++
	}
	roundUp := false
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			switch {
			case fracs < 9:
				frac = frac*10 + int64(b[i]-'0')
			case fracs == 9:
				roundUp = b[i] >= '5'
			}
			fracs++
		}
	}
	if i != len(b) || ints > 9 || ints+fracs == 0 {
		return ParseNanos(string(b))
	}
	for k := fracs; k < 9; k++ {
		frac *= 10
	}
	return nanosOf(whole, frac, roundUp, neg), nil
}

// nanosOf is whole units and frac nanos, one more nano when the digits
// beyond the ninth round up, negated for a minus sign.
func nanosOf(whole, frac int64, roundUp, neg bool) Nanos {
	v := whole*NanosPerUnit + frac
	if roundUp {
		v++
	}
	if neg {
		v = -v
	}
	return Nanos(v)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func ratToNanos(r *big.Rat, orig string) (Nanos, error) {
	scaled := new(big.Rat).Mul(r, big.NewRat(NanosPerUnit, 1))
	num, den := scaled.Num(), scaled.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	// Round half away from zero.
	if new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2)).Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if !q.IsInt64() {
		return 0, fmt.Errorf("amount %q out of range", orig)
	}
	return Nanos(q.Int64()), nil
}
