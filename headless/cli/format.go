package cli

import (
	"fmt"
	"math"
	"strings"
)

// money formats an amount for people: thousands separators, two decimals.
func money(v float64, cur string) string {
	neg := v < 0
	v = math.Abs(v)
	whole := int64(v)
	cents := int64(math.Round((v - float64(whole)) * 100))
	if cents == 100 {
		whole++
		cents = 0
	}
	s := fmt.Sprint(whole)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	sign := ""
	if neg {
		sign = "-"
	}
	sym := map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}[cur]
	if sym == "" {
		return fmt.Sprintf("%s%s.%02d %s", sign, b.String(), cents, cur)
	}
	return fmt.Sprintf("%s%s%s.%02d", sign, sym, b.String(), cents)
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
