package forecast

// A straight-line trend for bills that grow (or shrink) steadily: a robust
// line through the last weeks' means, carried on. Damped smoothing and the
// next month's median regressions bend a trend flat within weeks, which
// on a bill that has grown at a steady rate for half a year leaves the
// 90-day forecast short by about half the growth. Lines are dangerous on
// series whose rises fade (page views, a launch), so the model is a
// candidate only for a history whose trend is steady: significant over
// the last 26 weeks and in each half of them, the same way. The backtest
// still decides whether it is chosen.

const (
	driftWeeks = 26   // weeks the line and the steadiness test look at
	driftAlpha = 0.01 // significance of the trend in the whole window and in each half
	// driftAlone: when the line's backtest error is below this share of the
	// next best candidate's, it is the forecast alone.
	driftAlone = 0.9
)

// steadyTrend reports whether the last driftWeeks weeks of the history a
// (on the model scale; whole-week means cancel the weekly pattern) trend
// the same way, significantly, in the whole window and in each half of it.
func steadyTrend(a []float64) bool {
	if len(a) < driftWeeks*period {
		return false
	}
	w := weekMeans(a, driftWeeks)
	dir := 0
	for _, part := range [][]float64{w, w[:driftWeeks/2], w[driftWeeks/2:]} {
		d := mkDirection(part)
		if d == 0 || (dir != 0 && d != dir) {
			return false
		}
		dir = d
	}
	return true
}

// mkDirection is the direction of a significant Mann-Kendall trend in x
// (1 up, -1 down), or 0.
func mkDirection(x []float64) int {
	s, p := mannKendallTest(x)
	switch {
	case p >= driftAlpha:
		return 0
	case s > 0:
		return 1
	}
	return -1
}

// driftPath forecasts h days of the adjusted history a on the Sen line
// through its last weeks' means: the median of their pairwise slopes and
// the median intercept. With under four weeks it is the last week's mean.
func driftPath(a []float64, h int) []float64 {
	w := weekMeans(a, driftWeeks)
	path := make([]float64, h)
	if len(w) < 4 {
		for i := range path {
			path[i] = w[len(w)-1]
		}
		return path
	}
	s := senSlope(w) / period // per day
	// Week i's mean stands at its middle day, (k-i)*7 - 3.5 days before the end.
	k := len(w)
	icpt := make([]float64, k)
	for i, v := range w {
		icpt[i] = v + s*(float64(k-i)*period-3.5)
	}
	end := median(icpt) // the line's value half a day after the last day
	for i := range path {
		path[i] = end + s*(float64(i)+0.5)
	}
	return path
}
