package forecast

import (
	"math"

	"github.com/costpilot/costpilot/backend/model"
)

// RampDays is how long recommendations take to reach their full savings in
// Impact: changes get implemented over the first month, not on day one.
const RampDays = 30

// daysPerMonth converts monthly savings to daily ones (365/12).
const daysPerMonth = 365.0 / 12

// Impact phases the recommendations' monthly savings into a base daily
// forecast. Savings ramp in linearly over the first RampDays days (day i,
// counted from 1, saves min(i/RampDays, 1) of the full daily saving,
// monthlySavings/(365/12)), as changes get implemented; a day never drops
// below zero. It returns the base and optimized totals over the forecast,
// their difference and that difference as a percentage of the base.
// Negative savings count as none.
func Impact(baseDaily []float64, monthlySavings float64) model.RecommendationsImpact {
	full := math.Max(monthlySavings, 0) / daysPerMonth
	var base, opt float64
	for i, b := range baseDaily {
		ramp := math.Min(float64(i+1)/RampDays, 1)
		base += b
		opt += math.Max(b-ramp*full, 0)
	}
	out := model.RecommendationsImpact{BaseForecast: base, OptimizedForecast: opt, TotalSavings: base - opt}
	if base > 0 {
		out.SavingsPercentage = 100 * out.TotalSavings / base
	}
	return out
}
