package report

import (
	"math"
	"strconv"

	"github.com/costpilot/costpilot/backend/moneyfmt"
)

// formatMoney and formatShort are moneyfmt's rule, as the CLI writes it.
func formatMoney(v float64, currency string) string { return moneyfmt.Format(v, currency) }

func formatShort(v float64, currency string) string { return moneyfmt.Short(v, currency) }

// formatRate is a cost per unit: four decimals below 1.
func formatRate(v float64, currency string) string { return moneyfmt.Rate(v, currency) }

// formatPercent writes a fraction as a percentage with one decimal.
func formatPercent(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}
