package units

import (
	"math"
	"strconv"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/metrics/prometheus"
	"github.com/costpilot/costpilot/backend/model"
)

// Day is the step of a Prometheus source: one value per UTC day.
const Day = 24 * time.Hour

// QueryWindow is where a Prometheus source's query is evaluated for the
// inclusive days from..to: at the end of each day (the next day's
// midnight), so a range vector such as increase(orders_total[1d]) covers
// exactly that day.
func QueryWindow(from, to model.DayNum) (start, end time.Time) {
	return (from + 1).Time(), (to + 1).Time()
}

// DailyValues turns the series of a query evaluated over QueryWindow into
// a metric's value per day: the point at a day's end is that day's value,
// several series are summed, and a NaN point is no value. A negative or
// infinite value is an error naming the metric and day, as a negative
// value in a units CSV is.
func DailyValues(metric string, series []prometheus.Series, from, to model.DayNum) (map[model.DayNum]float64, error) {
	out := map[model.DayNum]float64{}
	for _, s := range series {
		for _, p := range s.Values {
			if math.IsNaN(p.V) {
				continue
			}
			d := model.DayOf(p.T.Add(-time.Nanosecond))
			if d < from || d > to {
				continue // outside the days asked for (a misaligned step)
			}
			if p.V < 0 || math.IsInf(p.V, 0) {
				return nil, apperr.E(apperr.Provider, "units source %s: the query gave %s for %s: business metrics are counts or measures, never negative or infinite",
					clip(metric), strconv.FormatFloat(p.V, 'g', -1, 64), d).WithDetail("metric", metric).WithDetail("day", d.String())
			}
			out[d] += p.V
		}
	}
	return out, nil
}

// ScopeOf is the scope of a configured source: each column name (a
// dimension or a tag key, as a units CSV's scope columns) to its value.
func ScopeOf(cols map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(cols))
	for col, v := range cols {
		k, err := ScopeKey(col)
		if err != nil {
			return nil, apperr.E(apperr.Configuration, "units source scope %q: %v", clip(col), err).WithDetail("field", "scope")
		}
		if err := checkName(v); err != nil {
			return nil, apperr.E(apperr.Configuration, "units source scope %s value %v", clip(col), err).WithDetail("field", "scope")
		}
		if k == string(model.DimProvider) && !model.ProviderKey(v).Valid() {
			return nil, apperr.E(apperr.Configuration, "units source scope: provider %q is not one of %s", clip(v), joinProviders()).WithDetail("field", "scope")
		}
		out[k] = v
	}
	return out, nil
}
