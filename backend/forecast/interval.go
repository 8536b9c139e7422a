package forecast

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// spread models how the size of forecast errors grows with lead time h
// (days ahead): scale(h) = exp(a) * h^b, fitted to backtest errors. A power
// law covers the usual shapes, from noise that does not grow (b = 0) to a
// random walk (b = 1/2) and a trend error (b = 1).
type spread struct{ a, b float64 }

func (s spread) scale(h int) float64 { return math.Exp(s.a) * math.Pow(float64(h), s.b) }

// quantiles are the 2.5, 10, 90 and 97.5 % points of the standardised
// backtest errors: the central 95 % and 80 % intervals.
type quantiles struct{ lo95, lo80, hi80, hi95 float64 }

// calibration turns backtest errors into prediction intervals. Intervals
// come from the errors the model actually made at each lead time, not from
// a model's own variance formula, so they are honest about what the
// model gets wrong.
type calibration struct {
	spread spread
	daily  quantiles
	total  quantiles // for the error of the mean over the horizon
}

// widen scales the backtest's error quantiles up. The chosen models are
// the ones that did best on these very origins, so their backtest errors
// understate the errors to come, and the future can hold changes the
// backtest window did not.
const widen = 1.15

// calibrate fits the spread and the standardised error quantiles to errs,
// the backtest errors by origin and lead time (index 0 is one day ahead).
func calibrate(errs [][]float64) calibration {
	var sum []float64
	var cnt []int
	for _, e := range errs {
		for i, v := range e {
			if i >= len(sum) {
				sum = append(sum, 0)
				cnt = append(cnt, 0)
			}
			sum[i] += math.Abs(v)
			cnt[i]++
		}
	}
	sp := fitSpread(sum, cnt)
	if !(sp.scale(1) > 0) {
		// No errors at all (a constant series): intervals of zero width.
		return calibration{spread: spread{a: math.Inf(-1)}}
	}
	var u, tot []float64
	for _, e := range errs {
		if len(e) == 0 {
			continue
		}
		for i, v := range e {
			u = append(u, v/sp.scale(i+1))
		}
		tot = append(tot, mean(e)/sp.scale(len(e)))
	}
	sp.a += math.Log(widen)
	return calibration{spread: sp, daily: errorQuantiles(u), total: errorQuantiles(tot)}
}

// fitSpread fits log mean|error| = a + b log h by least squares, each lead
// time weighted by its number of origins; b is kept in [0, 1].
func fitSpread(sum []float64, cnt []int) spread {
	var xs, ys, ws []float64
	for i := range sum {
		if cnt[i] == 0 || sum[i] <= 0 {
			continue
		}
		xs = append(xs, math.Log(float64(i+1)))
		ys = append(ys, math.Log(sum[i]/float64(cnt[i])))
		ws = append(ws, float64(cnt[i]))
	}
	switch len(xs) {
	case 0:
		return spread{a: math.Inf(-1)}
	case 1:
		return spread{a: ys[0] - 0.5*xs[0], b: 0.5}
	}
	a, b := stat.LinearRegression(xs, ys, ws, false)
	if b < 0 || b > 1 {
		b = math.Max(0, math.Min(1, b))
		// Refit the intercept for the clamped slope.
		sw, s := 0.0, 0.0
		for i := range xs {
			sw += ws[i]
			s += ws[i] * (ys[i] - b*xs[i])
		}
		a = s / sw
	}
	return spread{a: a, b: b}
}

// errorQuantiles returns the interval quantiles of standardised errors,
// widened so that the 80 % interval always contains the point forecast.
func errorQuantiles(u []float64) quantiles {
	if len(u) == 0 {
		return quantiles{}
	}
	s := append([]float64(nil), u...)
	sort.Float64s(s)
	q := func(p float64) float64 { return stat.Quantile(p, stat.LinInterp, s, nil) }
	out := quantiles{lo95: q(0.025), lo80: q(0.10), hi80: q(0.90), hi95: q(0.975)}
	out.lo80 = math.Min(out.lo80, 0)
	out.hi80 = math.Max(out.hi80, 0)
	out.lo95 = math.Min(out.lo95, out.lo80)
	out.hi95 = math.Max(out.hi95, out.hi80)
	return out
}
