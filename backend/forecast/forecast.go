// Package forecast forecasts daily cost series. Several simple models
// (seasonal naive, window means and exponential smoothing on the series
// without its weekly and yearly patterns) are backtested from rolling
// origins on the history itself; the best few are averaged, and the
// prediction intervals are the quantiles of the errors that combination
// made in the backtest, by lead time.
package forecast

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

// MinHistory is the number of days Forecast needs: four weeks, so the
// weekly pattern is seen four times and a backtest origin remains.
const MinHistory = 28

// Options are the forecast settings.
type Options struct {
	Horizon int     // days to forecast, at least 1
	Level   float64 // interval level: 0.80 or 0.95; 0 means 0.95
}

// Result is a forecast. Every slice has Horizon values, one per day after
// the history, with Lower <= Mean <= Upper.
type Result struct {
	Mean, Lower, Upper []float64 // Lower and Upper at the requested Level

	Lower80, Upper80, Lower95, Upper95 []float64

	// TotalMean is the forecast total over the horizon; TotalLower and
	// TotalUpper its interval at the requested Level.
	TotalMean, TotalLower, TotalUpper float64

	// Model names the transform and the averaged models.
	Model string
}

// Forecast fits values (one per day, consecutive: values[i] is day
// start+i) and forecasts opt.Horizon days after the last one. Fewer than
// MinHistory days is a Validation error that says how many there are.
// Only the day index matters to the models; start is accepted so the
// caller's days and the forecast's stay tied together.
func Forecast(values []float64, start time.Time, opt Options) (Result, error) {
	level, err := checkInput(values, opt)
	if err != nil {
		return Result{}, err
	}
	h := opt.Horizon
	tr := newTransform(values)
	bt := runBacktest(values, start, tr, h)
	chosen := bt.choose()
	dw := bt.chooseDateWeight(chosen)
	raw, cleaned := bt.combinedErrors(chosen, dw)
	cal := calibrate(raw, cleaned, bt.weights(), h)

	comps := decompose(tr.fwdAll(values), h)
	paths := make([][]float64, len(chosen))
	names := make([]string, len(chosen))
	for i, k := range chosen {
		c := candidates[bt.cands[k]]
		paths[i] = c.fc(comps, h)
		names[i] = c.name
	}
	all := make([][]float64, len(bt.cands))
	for k, ci := range bt.cands {
		all[k] = candidates[ci].fc(comps, h)
	}
	zc := bt.withDates(blendShort(combine(paths), combine(all)), len(values), dw)

	res := Result{
		Mean:    make([]float64, h),
		Lower80: make([]float64, h), Upper80: make([]float64, h),
		Lower95: make([]float64, h), Upper95: make([]float64, h),
	}
	q := cal.daily
	for i, f := range zc {
		s := cal.spread.scale(i + 1)
		res.Mean[i] = tr.inv(f)
		res.Lower95[i] = tr.inv(f + q.lo95*s)
		res.Lower80[i] = tr.inv(f + q.lo80*s)
		res.Upper80[i] = tr.inv(f + q.hi80*s)
		res.Upper95[i] = tr.inv(f + q.hi95*s)
		res.TotalMean += res.Mean[i]
	}
	res.Lower, res.Upper = res.Lower95, res.Upper95
	lo, hi := cal.total.lo95, cal.total.hi95
	if level == 0.80 {
		res.Lower, res.Upper = res.Lower80, res.Upper80
		lo, hi = cal.total.lo80, cal.total.hi80
	}
	res.TotalLower, res.TotalUpper = totalInterval(res.Mean, zc, tr, cal.spread.scale(h), lo, hi)
	model := "combo(" + strings.Join(names, ",") + ")"
	if dw > 0 {
		model += "+dates" + strconv.FormatFloat(dw, 'g', -1, 64)
	}
	if tr.log {
		model = "log " + model
	}
	res.Model = model
	return res, nil
}

// totalInterval returns the interval of the horizon's total. The backtest
// errors of the mean over a horizon are standardised like daily ones;
// on the log scale the total moves by a factor, otherwise by an amount.
func totalInterval(mean, zc []float64, tr transform, s, qlo, qhi float64) (lo, hi float64) {
	total := 0.0
	for _, v := range mean {
		total += v
	}
	if tr.log {
		return total * math.Exp(qlo*s), total * math.Exp(qhi*s)
	}
	n := float64(len(zc))
	return total + n*qlo*s, total + n*qhi*s
}

// checkInput validates the history and options and returns the level.
func checkInput(values []float64, opt Options) (float64, error) {
	if len(values) < MinHistory {
		return 0, apperr.E(apperr.Validation,
			"forecast: the history has %d days; at least %d days are needed", len(values), MinHistory).
			WithDetail("days", len(values)).WithDetail("required_days", MinHistory)
	}
	if opt.Horizon < 1 {
		return 0, apperr.E(apperr.Validation, "forecast: horizon must be at least 1 day, got %d", opt.Horizon)
	}
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, apperr.E(apperr.Validation, "forecast: value %d of the history is not a number", i)
		}
	}
	switch opt.Level {
	case 0, 0.95:
		return 0.95, nil
	case 0.80:
		return 0.80, nil
	}
	return 0, apperr.E(apperr.Validation, "forecast: level must be 0.80 or 0.95, got %g", opt.Level)
}
