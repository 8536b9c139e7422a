// Package moneyfmt writes amounts for people: one rule for the CLI,
// reports and the sentences recommendations are described in. Stored and
// computed amounts stay exact; only their text is rounded.
package moneyfmt

import (
	"math"
	"strconv"
	"strings"
)

// symbols are prefixes for the currencies people read most; other codes
// are written after the amount.
var symbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹"}

// Format rounds to cents and groups thousands: -1234.5 in USD is
// "-$1,234.50", in CAD "-1,234.50 CAD", with no currency "-1,234.50".
// NaN and infinities are "n/a"; an amount that rounds to zero has no sign.
func Format(v float64, currency string) string {
	return withDecimals(v, currency, 2)
}

// Rate is Format for a price per unit (an hour of compute, a GB): cents
// from a dollar up, else the four decimals that small prices need
// ("$0.0416").
func Rate(v float64, currency string) string {
	if math.Abs(v) >= 1 {
		return withDecimals(v, currency, 2)
	}
	return withDecimals(v, currency, 4)
}

// Short is Format without cents, for chart axes.
func Short(v float64, currency string) string {
	return withDecimals(v, currency, 0)
}

// USD is Format in US dollars, the currency recommendations are priced in.
func USD(v float64) string { return Format(v, "USD") }

func withDecimals(v float64, currency string, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	sign := ""
	scale := math.Pow(10, float64(decimals))
	if v < 0 && math.Round(v*scale) != 0 {
		sign = "-"
	}
	num := groupThousands(strconv.FormatFloat(math.Abs(v), 'f', decimals, 64))
	if sym, ok := symbols[currency]; ok {
		return sign + sym + num
	}
	if currency == "" {
		return sign + num
	}
	return sign + num + " " + currency
}

// Count writes a whole number with thousands separators: "1,762".
func Count(n int) string {
	if n < 0 {
		return "-" + groupThousands(strconv.Itoa(-n))
	}
	return groupThousands(strconv.Itoa(n))
}

func groupThousands(s string) string {
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
