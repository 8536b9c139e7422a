package forecast

import (
	"fmt"
	"math"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Costs is the forecast of the next days days from each provider's daily
// cost history (series, every one starting on day start), of their total
// and of each provider of keys with enough history of its own, with the
// interval at level, the daily points and the current month's end. The
// history before the first and after the last day with a cost is left
// out, so a history that starts late or stops early is not read as zero
// spend. It returns the total's Result too (its daily means price the
// recommendations' impact). Too short a total history is a Validation
// error with details.days_available and days_required.
func Costs(series map[model.ProviderKey][]float64, keys []model.ProviderKey, start time.Time, days int, level float64) (model.Forecast, Result, error) {
	fc := model.Forecast{ForecastPeriod: days, ConfidenceLevel: level,
		ProviderForecasts: map[model.ProviderKey]model.ProviderForecast{}, DailyForecast: []model.ForecastPoint{}, Model: BenchModel}
	var total []float64
	for _, k := range keys {
		v := series[k]
		if total == nil {
			total = make([]float64, len(v))
		}
		for i := range v {
			total[i] += v[i]
		}
	}
	first, last := Span(total)
	if last-first+1 < MinHistory {
		return model.Forecast{}, Result{}, apperr.E(apperr.Validation,
			"forecasting needs at least %d days of cost history; there are %d", MinHistory, max(0, last-first+1)).
			WithDetail("days_available", max(0, last-first+1)).WithDetail("days_required", MinHistory)
	}
	origin := start.AddDate(0, 0, first)
	opt := Options{Horizon: days, Level: level}
	res, err := Forecast(total[first:last+1], origin, opt)
	if err != nil {
		return model.Forecast{}, Result{}, err
	}
	fc.TotalForecast = res.TotalMean
	fc.ConfidenceInterval = [2]float64{res.TotalLower, res.TotalUpper}
	day0 := start.AddDate(0, 0, last+1)
	for i := range res.Mean {
		fc.DailyForecast = append(fc.DailyForecast, model.ForecastPoint{Date: day0.AddDate(0, 0, i).Format(model.DateLayout),
			Forecast: res.Mean[i], Lower: res.Lower[i], Upper: res.Upper[i]})
	}
	for _, k := range keys {
		v := series[k]
		f, l := Span(v)
		if l < 0 || l-f+1 < MinHistory {
			continue // too little history for this provider alone; the total still has it
		}
		pr, err := Forecast(v[f:l+1], start.AddDate(0, 0, f), opt)
		if err != nil {
			return model.Forecast{}, Result{}, fmt.Errorf("forecast: provider %s: %w", k, err)
		}
		fc.ProviderForecasts[k] = model.ProviderForecast{TotalForecast: pr.TotalMean,
			ConfidenceInterval: [2]float64{pr.TotalLower, pr.TotalUpper}, TrendAnalysis: Trend(v[f : l+1])}
	}
	m, err := ForecastMonthEnd(total[first:last+1], origin, level)
	if err != nil {
		return model.Forecast{}, Result{}, err
	}
	fc.MonthEnd = &model.MonthEndForecast{Month: m.Month.Format("2006-01"), MonthToDate: m.MonthToDate,
		RemainingDays: m.RemainingDays, RemainingCost: m.Remaining.TotalMean,
		Total: m.Total(), Lower: m.Lower(), Upper: m.Upper(), ConfidenceLevel: level}
	return fc, res, nil
}

// Span returns the first and last index with a non-zero value (-1, -1
// when all are zero).
func Span(v []float64) (int, int) {
	first, last := -1, -1
	for i, x := range v {
		if x != 0 && !math.IsNaN(x) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}
