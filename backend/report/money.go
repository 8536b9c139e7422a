package report

import (
	"math"
	"strconv"
	"strings"
)

// currencySymbols are prefixes for the currencies people read most; other
// codes are written after the amount.
var currencySymbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹"}

// formatMoney rounds to cents for display (stored amounts stay exact) and
// groups thousands: -1234.5 in USD is "-$1,234.50".
func formatMoney(v float64, currency string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	sign := ""
	if v < 0 && math.Round(v*100) != 0 {
		sign = "-"
	}
	num := groupThousands(strconv.FormatFloat(math.Abs(v), 'f', 2, 64))
	if sym, ok := currencySymbols[currency]; ok {
		return sign + sym + num
	}
	if currency == "" {
		return sign + num
	}
	return sign + num + " " + currency
}

// formatShort is formatMoney without cents for axis labels.
func formatShort(v float64, currency string) string {
	s := formatMoney(v, currency)
	if i := strings.Index(s, "."); i >= 0 && i+3 <= len(s) {
		s = s[:i] + s[i+3:]
	}
	return s
}

func groupThousands(s string) string {
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// formatPercent writes a fraction as a percentage with one decimal.
func formatPercent(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}
