package forecast

// components is what the candidate models share at one forecast origin:
// the cleaned history on the model scale and its seasonal patterns.
type components struct {
	z         []float64   // cleaned, transformed history
	weekLong  weekProfile // weekly pattern of the last year
	weekShort weekProfile // weekly pattern of the last eight weeks
	year      []float64   // yearly cycle for days 0..len(z)+h-1, or nil
	halfYear  []float64   // half the yearly cycle, or nil
}

// decompose prepares the components of a transformed history for
// forecasting h days.
func decompose(z []float64, h int) *components {
	c := &components{z: clean(z)}
	c.weekLong = weeklyProfile(c.z, 52)
	c.weekShort = weeklyProfile(c.z, 8)
	if len(c.z) >= 400 {
		d := make([]float64, len(c.z))
		for t, v := range c.z {
			d[t] = v - c.weekLong[t%period]
		}
		c.year = yearlyComponent(d, h)
		if f := yearAgreement(d); f < 1 && c.year != nil {
			for t := range c.year {
				c.year[t] *= f
			}
		}
		if c.year != nil {
			c.halfYear = make([]float64, len(c.year))
			for t, v := range c.year {
				c.halfYear[t] = v / 2
			}
		}
	}
	return c
}

// candidate is one forecasting model: given the components at an origin it
// returns the h-day path on the model scale.
type candidate struct {
	name string
	// needYear marks models that need the yearly cycle.
	needYear bool
	// maxH, when set, is the longest horizon the model runs in.
	maxH int
	// needTrend marks models that run only on a steady trend (drift.go).
	needTrend bool
	fc        func(c *components, h int) []float64
}

// candidates are the models the rolling-origin backtest chooses among.
// They are deliberately simple and different from each other: the
// backtest, not in-sample fit, decides which suit a series. The yearly
// cycle comes at full and at half size (+hyear): a cycle fitted on two or
// three years is partly those years' events, and the backtest tells how
// much of it a series repeats.
var candidates = []candidate{
	{name: "snaive", fc: seasonalNaive},
	// The flat 28-day mean hedges a level that news moved for a few weeks;
	// at 90 days its flatness costs more than the hedge is worth (every
	// origin grid of the benchmark says so).
	{name: "mean28+week", maxH: meanMaxHorizon, fc: func(c *components, h int) []float64 {
		return windowMean(c, h, 28, c.weekLong, nil)
	}},
	{name: "damped+week", fc: func(c *components, h int) []float64 {
		return smoothed(c, h, c.weekLong, nil, true)
	}},
	// Robust smoothing, clipped at half and at one error scale: the one
	// tracks a median of the recent days more closely, the other a mean.
	{name: "robust0.5+week", fc: func(c *components, h int) []float64 {
		return robustSmoothed(c, h, c.weekLong, 0.5)
	}},
	{name: "robust1+week", fc: func(c *components, h int) []float64 {
		return robustSmoothed(c, h, c.weekLong, 1)
	}},
	{name: "ses+week8", fc: func(c *components, h int) []float64 {
		return smoothed(c, h, c.weekShort, nil, false)
	}},
	{name: "ses+week+year", needYear: true, fc: func(c *components, h int) []float64 {
		return smoothed(c, h, c.weekLong, c.year, false)
	}},
	{name: "damped+week+year", needYear: true, fc: func(c *components, h int) []float64 {
		return smoothed(c, h, c.weekLong, c.year, true)
	}},
	{name: "mean28+week+year", needYear: true, fc: func(c *components, h int) []float64 {
		return windowMean(c, h, 28, c.weekLong, c.year)
	}},
	{name: "ses+week+hyear", needYear: true, fc: func(c *components, h int) []float64 {
		return smoothed(c, h, c.weekLong, c.halfYear, false)
	}},
	// Direct median regressions per lead span (lad.go): whether the next
	// weeks revert towards the longer medians or keep the latest level,
	// which the smoothing models cannot tell apart on news-driven series.
	{name: "lad+week", maxH: ladMaxHorizon, fc: func(c *components, h int) []float64 {
		a := adjusted(c, c.weekLong, nil)
		return reseason(ladPath(a, h), len(a), c.weekLong, nil)
	}},
	{name: "lad+week8", maxH: ladMaxHorizon, fc: func(c *components, h int) []float64 {
		a := adjusted(c, c.weekShort, nil)
		return reseason(ladPath(a, h), len(a), c.weekShort, nil)
	}},
	// A straight line, only for a history with a steady half-year trend
	// (drift.go): the smoothing models bend a steady growth flat.
	{name: "drift+week", needTrend: true, fc: func(c *components, h int) []float64 {
		a := adjusted(c, c.weekLong, nil)
		return reseason(driftPath(a, h), len(a), c.weekLong, nil)
	}},
	{name: "mean28+week+hyear", needYear: true, fc: func(c *components, h int) []float64 {
		return windowMean(c, h, 28, c.weekLong, c.halfYear)
	}},
}

// meanMaxHorizon is the longest horizon the 28-day mean runs in.
const meanMaxHorizon = 60

// seasonalNaive repeats the last week.
func seasonalNaive(c *components, h int) []float64 {
	n := len(c.z)
	out := make([]float64, h)
	for i := range out {
		out[i] = c.z[n-period+i%period]
	}
	return out
}

// adjusted returns z without the weekly pattern and the yearly cycle.
func adjusted(c *components, week weekProfile, year []float64) []float64 {
	a := make([]float64, len(c.z))
	for t, v := range c.z {
		a[t] = v - week[t%period]
		if year != nil {
			a[t] -= year[t]
		}
	}
	return a
}

// reseason adds the seasonal patterns back onto a path of levels that
// starts the day after the history.
func reseason(path []float64, n int, week weekProfile, year []float64) []float64 {
	for i := range path {
		t := n + i
		path[i] += week[t%period]
		if year != nil {
			path[i] += year[t]
		}
	}
	return path
}

// windowMean forecasts the mean adjusted level of the last w days.
func windowMean(c *components, h, w int, week weekProfile, year []float64) []float64 {
	a := adjusted(c, week, year)
	lvl := mean(a[max(0, len(a)-w):])
	path := make([]float64, h)
	for i := range path {
		path[i] = lvl
	}
	return reseason(path, len(a), week, year)
}

// robustSmoothed forecasts the adjusted series by robust exponential
// smoothing with its errors clipped at k scales.
func robustSmoothed(c *components, h int, week weekProfile, k float64) []float64 {
	a := adjusted(c, week, nil)
	path := make([]float64, h)
	lvl := robustLevel(a, k)
	for i := range path {
		path[i] = lvl
	}
	return reseason(path, len(a), week, nil)
}

// smoothed forecasts the adjusted series by exponential smoothing.
func smoothed(c *components, h int, week weekProfile, year []float64, damped bool) []float64 {
	a := adjusted(c, week, year)
	return reseason(fitETS(a, damped).forecast(h), len(a), week, year)
}
