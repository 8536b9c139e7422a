package cli

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
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

// oneOf lists an enumeration's values for a flag's help.
func oneOf[T ~string](values []T) string { return strings.Join(model.Names(values), ", ") }

// parseTime reads the timestamps and dates the Service returns.
func parseTime(s string) (time.Time, bool) {
	for _, l := range []string{time.RFC3339, model.TimestampLayout, model.DateLayout} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// day prints a timestamp or date as its UTC day, "1 Nov 2026".
func day(s string) string {
	if t, ok := parseTime(s); ok {
		return t.Format("2 Jan 2006")
	}
	return s
}

// span prints an inclusive range of days, "1 Nov 2026 – 30 Nov 2026".
func span(from, to string) string {
	if from == "" && to == "" {
		return ""
	}
	return day(from) + " – " + day(to)
}

// stamp prints a timestamp to the minute, in UTC: "2026-11-01 14:05".
func stamp(s string) string {
	if t, ok := parseTime(s); ok {
		return t.Format("2006-01-02 15:04")
	}
	return s
}
