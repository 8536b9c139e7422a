package forecast

import (
	"fmt"
	"math"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Cell is one bottom-level series of a forecast view: a provider's daily
// cost, or its share of one group (Group "" when the view is not grouped).
// Values[i] is day start+i.
type Cell struct {
	Provider model.ProviderKey
	Group    string
	Values   []float64
}

// Costs is the forecast of the next days days of each provider's daily
// cost history (series, every one starting on day start): per provider
// and in total, coherent (see View).
func Costs(series map[model.ProviderKey][]float64, keys []model.ProviderKey, start time.Time, days int, level float64) (model.Forecast, Result, error) {
	cells := make([]Cell, 0, len(keys))
	for _, k := range keys {
		cells = append(cells, Cell{Provider: k, Values: series[k]})
	}
	fc, _, mean, err := View(cells, keys, start, days, level)
	return fc, Result{Mean: mean, TotalMean: fc.TotalForecast}, err
}

// View is the forecast of the next days days of a view made of cells
// (all of one length, starting on day start): the total's, each provider
// of keys with cost, and, when the cells have groups, each group's (in
// the returned slice, in the order of their first cell), with intervals
// at level, the daily points and the current month's end. It also returns
// the total's daily means (they price the recommendations' impact).
//
// The total is the view's own forecast; every cell is forecast once
// (Part) and reconciled to add up to it (Reconcile), and a provider or a
// group is the sum of its reconciled cells (Aggregate): the providers' and
// the groups' forecasts add up to the total. Too short a
// total history is a Validation error with details.days_available and
// days_required.
func View(cells []Cell, keys []model.ProviderKey, start time.Time, days int, level float64) (model.Forecast, []model.GroupForecast, []float64, error) {
	fc := model.Forecast{ForecastPeriod: days, ConfidenceLevel: level, Reconciliation: Reconciliation,
		ProviderForecasts: map[model.ProviderKey]model.ProviderForecast{}, DailyForecast: []model.ForecastPoint{}, Model: BenchModel}
	n := 0
	if len(cells) > 0 {
		n = len(cells[0].Values)
	}
	total := make([]float64, n)
	for _, c := range cells {
		add(total, c.Values)
	}
	first, last := Span(total)
	if last-first+1 < MinHistory {
		return model.Forecast{}, nil, nil, apperr.E(apperr.Validation,
			"forecasting needs at least %d days of cost history; there are %d", MinHistory, max(0, last-first+1)).
			WithDetail("days_available", max(0, last-first+1)).WithDetail("days_required", MinHistory)
	}
	// Every series ends on the total's last day with cost, so all
	// forecasts cover the same days.
	end := last + 1
	opt := Options{Horizon: days, Level: level}
	paths := make([]Path, len(cells))
	for i, c := range cells {
		p, err := Part(c.Values[:end], start, opt)
		if err != nil {
			return model.Forecast{}, nil, nil, fmt.Errorf("forecast: %s %s: %w", c.Provider, c.Group, err)
		}
		paths[i] = p
	}
	tot, paths, err := Reconcile(total[:end], start, opt, paths)
	if err != nil {
		return model.Forecast{}, nil, nil, err
	}
	fc.TotalForecast = tot.TotalMean
	fc.ConfidenceInterval = [2]float64{tot.TotalLower, tot.TotalUpper}
	day0 := start.AddDate(0, 0, end)
	fc.DailyForecast = points(tot, day0)
	for _, k := range keys {
		sum, parts := sumOf(cells, paths, end, func(c Cell) bool { return c.Provider == k })
		if f, _ := Span(sum); f < 0 {
			continue
		}
		p, err := aggregateOf(sum, start, opt, parts)
		if err != nil {
			return model.Forecast{}, nil, nil, fmt.Errorf("forecast: provider %s: %w", k, err)
		}
		f, l := Span(sum)
		fc.ProviderForecasts[k] = model.ProviderForecast{TotalForecast: p.TotalMean,
			ConfidenceInterval: [2]float64{p.TotalLower, p.TotalUpper}, TrendAnalysis: Trend(sum[f : l+1])}
	}
	var groups []model.GroupForecast
	seen := map[string]bool{}
	for _, c := range cells {
		if c.Group == "" || seen[c.Group] {
			continue
		}
		seen[c.Group] = true
		g := c.Group
		sum, parts := sumOf(cells, paths, end, func(c Cell) bool { return c.Group == g })
		p, err := aggregateOf(sum, start, opt, parts)
		if err != nil {
			return model.Forecast{}, nil, nil, fmt.Errorf("forecast: group %s: %w", g, err)
		}
		groups = append(groups, model.GroupForecast{Key: g, TotalForecast: p.TotalMean,
			ConfidenceInterval: [2]float64{p.TotalLower, p.TotalUpper}, DailyForecast: points(p, day0), Model: p.Model})
	}
	origin := start.AddDate(0, 0, first)
	m, err := ForecastMonthEnd(total[first:end], origin, level)
	if err != nil {
		return model.Forecast{}, nil, nil, err
	}
	fc.MonthEnd = &model.MonthEndForecast{Month: m.Month.Format("2006-01"), MonthToDate: m.MonthToDate,
		RemainingDays: m.RemainingDays, RemainingCost: m.Remaining.TotalMean,
		Total: m.Total(), Lower: m.Lower(), Upper: m.Upper(), ConfidenceLevel: level}
	return fc, groups, tot.Mean, nil
}

// sumOf returns the summed history of the cells keep accepts (cut at
// end) and their forecasts.
func sumOf(cells []Cell, paths []Path, end int, keep func(Cell) bool) ([]float64, []Path) {
	sum := make([]float64, end)
	var parts []Path
	for i, c := range cells {
		if keep(c) {
			add(sum, c.Values[:end])
			parts = append(parts, paths[i])
		}
	}
	return sum, parts
}

// aggregateOf is the sum of reconciled parts (Aggregate) with the interval
// of the sum's own forecast; a single part is its own aggregate.
func aggregateOf(sum []float64, start time.Time, opt Options, parts []Path) (Path, error) {
	if len(parts) == 1 {
		return parts[0], nil
	}
	own, err := Part(sum, start, opt)
	if err != nil {
		return Path{}, err
	}
	return Aggregate(own, parts)
}

func add(dst, v []float64) {
	for i := range v {
		dst[i] += v[i]
	}
}

// points are a path's daily forecast points from day0 on.
func points(p Path, day0 time.Time) []model.ForecastPoint {
	out := make([]model.ForecastPoint, len(p.Mean))
	for i := range p.Mean {
		out[i] = model.ForecastPoint{Date: day0.AddDate(0, 0, i).Format(model.DateLayout),
			Forecast: p.Mean[i], Lower: p.Lower[i], Upper: p.Upper[i]}
	}
	return out
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
