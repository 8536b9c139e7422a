package forecast

import (
	"math"
	"sort"

	"github.com/costpilot/costpilot/backend/model"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

const (
	// trendWeeks is how much recent history the trend test looks at.
	trendWeeks = 12
	// trendAlpha is the significance level of the trend test.
	trendAlpha = 0.05
)

// Trend tests the recent history for a trend. It takes the weekly means of
// the last (up to) twelve whole weeks, which removes the weekly pattern and
// most of the day-to-day dependence, and applies the Mann-Kendall test;
// the direction is increasing or decreasing when the two-sided p-value is
// below 0.05, else stable. Slope is the Sen slope (median of pairwise
// slopes of the weekly means) per day. Volatility is defined in
// volatility.
func Trend(values []float64) model.TrendAnalysis {
	out := model.TrendAnalysis{TrendDirection: model.TrendStable, PValue: 1, Volatility: volatility(values)}
	w := weekMeans(values, trendWeeks)
	if len(w) < 3 {
		return out
	}
	out.Slope = senSlope(w) / period
	s, p := mannKendallTest(w)
	out.PValue = p
	if p < trendAlpha {
		if s > 0 {
			out.TrendDirection = model.TrendIncreasing
		} else {
			out.TrendDirection = model.TrendDecreasing
		}
	}
	return out
}

// weekMeans returns the means of the last k whole weeks of a (fewer when
// a is shorter), oldest first.
func weekMeans(a []float64, k int) []float64 {
	k = min(k, len(a)/period)
	out := make([]float64, k)
	for i := range out {
		from := len(a) - (k-i)*period
		out[i] = mean(a[from : from+period])
	}
	return out
}

// mannKendallTest returns the Mann-Kendall statistic S of x and its
// two-sided p-value under no trend (normal approximation with continuity
// correction); 1 when x has no variance to test.
func mannKendallTest(x []float64) (s, p float64) {
	s, varS := mannKendall(x)
	if varS <= 0 {
		return s, 1
	}
	var z float64
	switch {
	case s > 0:
		z = (s - 1) / math.Sqrt(varS)
	case s < 0:
		z = (s + 1) / math.Sqrt(varS)
	}
	return s, 2 * distuv.UnitNormal.Survival(math.Abs(z))
}

// mannKendall returns the Mann-Kendall statistic S of x and its variance
// under no trend, corrected for ties.
func mannKendall(x []float64) (s, varS float64) {
	n := len(x)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			switch {
			case x[j] > x[i]:
				s++
			case x[j] < x[i]:
				s--
			}
		}
	}
	fn := float64(n)
	varS = fn * (fn - 1) * (2*fn + 5)
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	for i := 0; i < n; {
		j := i
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			varS -= t * (t - 1) * (2*t + 5)
		}
		i = j
	}
	return s, varS / 18
}

// senSlope is the median of the pairwise slopes of x per step.
func senSlope(x []float64) float64 {
	var sl []float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			sl = append(sl, (x[j]-x[i])/float64(j-i))
		}
	}
	return median(sl)
}

// volatility is the coefficient of variation of the deseasonalised daily
// residuals over the last twelve weeks: each day's deviation from its
// centred 7-day mean plus its weekday's usual deviation, as a standard
// deviation relative to the mean daily cost. 0.1 means a typical day lands
// about 10 % away from what its week and weekday predict. Histories too
// short for a weekly pattern (under two weeks) use the plain coefficient
// of variation; a zero mean gives 0.
func volatility(values []float64) float64 {
	v := values
	if len(v) > trendWeeks*period {
		v = v[len(v)-trendWeeks*period:]
	}
	m := mean(v)
	if len(v) < 2 || m == 0 {
		return 0
	}
	if len(v) < 2*period {
		return stat.StdDev(v, nil) / math.Abs(m)
	}
	week := weeklyProfile(v, trendWeeks)
	half := period / 2
	var r []float64
	for t := half; t < len(v)-half; t++ {
		r = append(r, v[t]-mean(v[t-half:t+half+1])-week[t%period])
	}
	return stat.StdDev(r, nil) / math.Abs(m)
}
