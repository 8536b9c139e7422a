package cli

import (
	"fmt"
	"slices"
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

// providerChoices names what a provider flag takes: a cloud, or the key
// of a provider imported from FOCUS files (an AI vendor, a SaaS).
func providerChoices() string {
	return oneOf(model.AllProviders) + " or an imported provider's key, e.g. anthropic (costpilot status --detailed lists them)"
}

// providerOrder lists m's providers: the clouds in their order, then the
// others by key.
func providerOrder[T any](m map[model.ProviderKey]T) []model.ProviderKey {
	var out, rest []model.ProviderKey
	for _, k := range model.AllProviders {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	for k := range m {
		if !k.Cloud() {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

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
