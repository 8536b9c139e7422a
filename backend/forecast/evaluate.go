package forecast

import (
	"math"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

// evalOrigins is how many origins Evaluate forecasts from. Each runs a
// whole Forecast, itself backtested; twelve, three weeks apart, span about
// nine months, so one event (a launch, a migration) cannot decide the
// score alone, as it did with six origins one week apart, whose windows
// mostly overlapped.
const evalOrigins = 12

// Evaluation is the accuracy of Forecast on a history, from rolling-origin
// backtests: Forecast is run on the history up to each origin and compared
// with the days that follow.
type Evaluation struct {
	MAE   float64 // mean absolute error, in the series' unit
	MAPE  float64 // mean absolute percentage error (%), over non-zero days
	SMAPE float64 // symmetric MAPE (%), 200|y-f|/(|y|+|f|), 0 when both are 0
	// MASE is the MAE relative to that of a seasonal naive forecast (last
	// week repeated) within each origin's history; below 1 beats it.
	MASE float64
	// Coverage80 and Coverage95 are the shares of days inside the 80 % and
	// 95 % intervals.
	Coverage80, Coverage95 float64
	Origins, Horizon       int
}

// Evaluate runs rolling-origin backtests of Forecast on values (one per
// day from start) for the given horizon and returns the error measures.
// Origins are up to evalOrigins, three weeks apart (a week more for each
// month of horizon beyond three), newest first, each with
// MinHistory days or more before it; when the history is too short for a
// full horizon after MinHistory days, the one origin forecasts the days
// there are.
func Evaluate(values []float64, start time.Time, horizon int) (Evaluation, error) {
	if horizon < 1 {
		return Evaluation{}, apperr.E(apperr.Validation, "forecast: horizon must be at least 1 day, got %d", horizon)
	}
	n := len(values)
	if n < MinHistory+1 {
		return Evaluation{}, apperr.E(apperr.Validation,
			"forecast: the history has %d days; evaluating needs at least %d", n, MinHistory+1).
			WithDetail("days", n).WithDetail("required_days", MinHistory+1)
	}
	step := period * max(3, (horizon+29)/30)
	var origins []int
	for k := 0; k < evalOrigins; k++ {
		o := n - horizon - k*step
		if o < MinHistory {
			break
		}
		origins = append(origins, o)
	}
	if len(origins) == 0 {
		origins = []int{MinHistory}
	}
	var ev Evaluation
	var cnt, pctCnt int
	var scaled float64
	for _, o := range origins {
		h := min(horizon, n-o)
		res, err := Forecast(values[:o], start, Options{Horizon: h})
		if err != nil {
			return Evaluation{}, err
		}
		scale := naiveScale(values[:o])
		for i := 0; i < h; i++ {
			y, f := values[o+i], res.Mean[i]
			e := math.Abs(y - f)
			ev.MAE += e
			if scale > 0 {
				scaled += e / scale
			}
			if y != 0 {
				ev.MAPE += 100 * e / math.Abs(y)
				pctCnt++
			}
			if d := math.Abs(y) + math.Abs(f); d > 0 {
				ev.SMAPE += 200 * e / d
			}
			if y >= res.Lower80[i] && y <= res.Upper80[i] {
				ev.Coverage80++
			}
			if y >= res.Lower95[i] && y <= res.Upper95[i] {
				ev.Coverage95++
			}
			cnt++
		}
	}
	c := float64(cnt)
	ev.MAE /= c
	ev.SMAPE /= c
	ev.MASE = scaled / c
	ev.Coverage80 /= c
	ev.Coverage95 /= c
	if pctCnt > 0 {
		ev.MAPE /= float64(pctCnt)
	}
	ev.Origins, ev.Horizon = len(origins), horizon
	return ev, nil
}

// naiveScale is the in-sample mean absolute error of the seasonal naive
// forecast (the value a week earlier), falling back to the one-day naive
// one for a series without weekly change, as the benchmark's MASE does.
func naiveScale(y []float64) float64 {
	for _, lag := range []int{period, 1} {
		s, k := 0.0, 0
		for t := lag; t < len(y); t++ {
			s += math.Abs(y[t] - y[t-lag])
			k++
		}
		if k > 0 && s > 0 {
			return s / float64(k)
		}
	}
	return 0
}
