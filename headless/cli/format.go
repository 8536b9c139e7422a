package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/moneyfmt"
)

// money formats an amount for people, as reports do (moneyfmt).
func money(v float64, cur string) string { return moneyfmt.Format(v, cur) }

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
