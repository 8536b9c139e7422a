package forecast

import (
	"fmt"
	"math"
	"time"
)

// Reconciliation names how a view's forecasts are made to add up: the
// view's total is its own series' forecast; each bottom-level series (a
// provider, or a provider's share of a group) is forecast on its own and
// scaled, day by day, so that they add up to the total (top-down by
// forecast proportions); a provider or group is the sum of its cells.
const Reconciliation = "top_down_proportions"

// Path is one series' forecast over the horizon: daily points with their
// interval at the requested level, and the horizon's total with its own.
type Path struct {
	Mean, Lower, Upper                []float64
	TotalMean, TotalLower, TotalUpper float64
	// Model names what forecast the series: the combination Forecast chose,
	// "recent-mean" for a series too short for it, "none" for no cost.
	Model string
}

// Part forecasts one bottom-level series (values[i] is day start+i) over
// opt.Horizon days. The days before the first and after the last cost are
// left out, as in Costs. A series with cost but under MinHistory days is
// forecast flat at the mean of its last week, its interval the range of
// those days; one without cost is zero.
func Part(values []float64, start time.Time, opt Options) (Path, error) {
	h := opt.Horizon
	p := Path{Mean: make([]float64, h), Lower: make([]float64, h), Upper: make([]float64, h)}
	f, l := Span(values)
	switch {
	case l < 0:
		p.Model = "none"
		return p, nil
	case l-f+1 < MinHistory:
		last := values[max(f, l-period+1) : l+1]
		m, lo, hi := mean(last), math.Inf(1), math.Inf(-1)
		for _, v := range last {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		for i := range p.Mean {
			p.Mean[i], p.Lower[i], p.Upper[i] = m, lo, hi
		}
		p.TotalMean, p.TotalLower, p.TotalUpper = m*float64(h), lo*float64(h), hi*float64(h)
		p.Model = "recent-mean"
		return p, nil
	}
	res, err := Forecast(values[f:l+1], start.AddDate(0, 0, f), opt)
	if err != nil {
		return Path{}, err
	}
	return Path{Mean: res.Mean, Lower: res.Lower, Upper: res.Upper, TotalMean: res.TotalMean,
		TotalLower: res.TotalLower, TotalUpper: res.TotalUpper, Model: res.Model}, nil
}

// Reconcile makes parts add up to the forecast of their sum (values, the
// sum's history). The total is the sum's own forecast: its model was
// backtested on that very series, and the total of a view does not change
// with how the view is grouped. Each day, every part is scaled by the
// total's point over the parts' summed points, its interval with it (a
// factor of zero or more keeps lower <= point <= upper); parts that cannot
// be scaled that way (credits, or parts forecast at zero) share the
// difference equally instead. The total's interval is its own, placed
// around the summed point and kept within the sums of the parts' bounds.
// It returns the total and the reconciled parts.
func Reconcile(values []float64, start time.Time, opt Options, parts []Path) (Path, []Path, error) {
	if len(parts) == 0 {
		return Path{}, nil, fmt.Errorf("forecast: reconcile no parts")
	}
	own, err := Part(values, start, opt)
	if err != nil {
		return Path{}, nil, err
	}
	h := opt.Horizon
	out := make([]Path, len(parts))
	for j, p := range parts {
		out[j] = Path{Mean: make([]float64, h), Lower: make([]float64, h), Upper: make([]float64, h), Model: p.Model}
	}
	for i := 0; i < h; i++ {
		sum, scalable := 0.0, true
		for _, p := range parts {
			sum += p.Mean[i]
			scalable = scalable && p.Lower[i] >= 0
		}
		for j, p := range parts {
			q := &out[j]
			if scalable && sum > 0 {
				f := own.Mean[i] / sum
				q.Mean[i], q.Lower[i], q.Upper[i] = p.Mean[i]*f, p.Lower[i]*f, p.Upper[i]*f
			} else {
				d := (own.Mean[i] - sum) / float64(len(parts))
				q.Mean[i], q.Lower[i], q.Upper[i] = p.Mean[i]+d, p.Lower[i]+d, p.Upper[i]+d
			}
			q.TotalMean += q.Mean[i]
		}
	}
	// Each part's horizon interval moves with its point: scaled by the
	// same factor, or shifted when its forecast total is not positive.
	for j, p := range parts {
		q := &out[j]
		if p.TotalMean > 0 && q.TotalMean >= 0 {
			f := q.TotalMean / p.TotalMean
			q.TotalLower, q.TotalUpper = p.TotalLower*f, p.TotalUpper*f
		} else {
			d := q.TotalMean - p.TotalMean
			q.TotalLower, q.TotalUpper = p.TotalLower+d, p.TotalUpper+d
		}
	}
	tot, err := Aggregate(own, out)
	return tot, out, err
}

// Aggregate is the forecast of a sum of parts given its own forecast
// (own): its points are the sums of the parts' (so they add up by
// construction), its interval own's distance of the bounds from the
// point, placed around the summed point and kept within the sums of the
// parts' bounds (the interval the sum would have if every part moved
// together). So lower <= point <= upper, and the sum of the parts' lower
// bounds <= the aggregate's lower bound and its upper bound <= the sum of
// the parts' upper bounds, per day and for the horizon's total.
func Aggregate(own Path, parts []Path) (Path, error) {
	if len(parts) == 0 {
		return Path{}, fmt.Errorf("forecast: aggregate of no parts")
	}
	h := len(own.Mean)
	out := Path{Mean: make([]float64, h), Lower: make([]float64, h), Upper: make([]float64, h), Model: own.Model}
	sumLo, sumHi := make([]float64, h), make([]float64, h)
	var totLo, totHi float64
	for _, p := range parts {
		for i := 0; i < h; i++ {
			out.Mean[i] += p.Mean[i]
			sumLo[i] += p.Lower[i]
			sumHi[i] += p.Upper[i]
		}
		out.TotalMean += p.TotalMean
		totLo += p.TotalLower
		totHi += p.TotalUpper
	}
	for i := 0; i < h; i++ {
		out.Lower[i], out.Upper[i] = around(out.Mean[i], own.Mean[i]-own.Lower[i], own.Upper[i]-own.Mean[i], sumLo[i], sumHi[i])
	}
	out.TotalLower, out.TotalUpper = around(out.TotalMean, own.TotalMean-own.TotalLower, own.TotalUpper-own.TotalMean, totLo, totHi)
	return out, nil
}

// around places an interval reaching down and up from point, kept
// within [floor, ceil] and around the point.
func around(point, down, up, floor, ceil float64) (lo, hi float64) {
	lo = math.Min(math.Max(point-down, floor), point)
	hi = math.Max(math.Min(point+up, ceil), point)
	return lo, hi
}
