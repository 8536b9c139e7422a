package forecast

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// steadyGrowth is a bill growing 15 % a year, with a weekday pattern and
// day-to-day noise of relative size noise; riseDays > 0 stops the growth
// after that many days (a launch that levelled off).
func steadyGrowth(n, riseDays int, noise float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 3))
	week := [7]float64{1.1, 1.1, 1.05, 1.05, 1.0, 0.8, 0.8}
	out := make([]float64, n)
	for t := range out {
		g := t
		if riseDays > 0 {
			g = min(t, riseDays)
		}
		out[t] = 1000 * math.Pow(1.15, float64(g)/365) * week[t%7] * math.Exp(noise*r.NormFloat64())
	}
	return out
}

// TestSteadyTrendTellsALineFromAFadedRise: half a year of steady growth or
// decline is a steady trend; a rise that levelled off halfway, noise, or
// less than half a year of history is not.
func TestSteadyTrendTellsALineFromAFadedRise(t *testing.T) {
	decline := steadyGrowth(300, 0, 0.01, 2)
	for i, j := 0, len(decline)-1; i < j; i, j = i+1, j-1 {
		decline[i], decline[j] = decline[j], decline[i]
	}
	for _, c := range []struct {
		name string
		y    []float64
		want bool
	}{
		{"steady growth", steadyGrowth(300, 0, 0.01, 1), true},
		{"steady decline", decline, true},
		{"rise levelled off 13 weeks ago", steadyGrowth(300, 300-13*7, 0.01, 3), false},
		{"no growth", steadyGrowth(300, 1, 0.01, 4), false},
		{"a day short of 26 weeks", steadyGrowth(26*7-1, 0, 0.01, 5), false},
	} {
		if got := steadyTrend(clean(newTransform(c.y).fwdAll(c.y))); got != c.want {
			t.Errorf("%s: steadyTrend = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDriftPathContinuesTheLine: on an exact line the path is the line's
// next days.
func TestDriftPathContinuesTheLine(t *testing.T) {
	a := make([]float64, 200)
	for i := range a {
		a[i] = 5 + 0.01*float64(i)
	}
	for i, v := range driftPath(a, 90) {
		if want := 5 + 0.01*float64(len(a)+i); math.Abs(v-want) > 1e-9 {
			t.Fatalf("day %d: %g, want %g", i+1, v, want)
		}
	}
	short := driftPath(a[:20], 3) // under four weeks: the last week's mean
	if want := mean(a[13:20]); short[0] != want || short[2] != want {
		t.Errorf("short history: %v, want the last week's mean %g", short, want)
	}
}

// TestForecastCarriesASteadyTrend: on a bill that has grown steadily for
// 300 days, the 90-day forecast is the line alone and lands within 0.5 %
// of the days to come (a flat forecast would be off by about 2 % on
// average); after a rise that levelled off, the line is not a candidate.
func TestForecastCarriesASteadyTrend(t *testing.T) {
	const n, h = 300, 90
	y := steadyGrowth(n+h, 0, 0.003, 7)
	truth := steadyGrowth(n+h, 0, 0, 7)
	res, err := Forecast(y[:n], day0, Options{Horizon: h})
	if err != nil {
		t.Fatal(err)
	}
	if res.Model != "log combo(drift+week)" {
		t.Errorf("model %q, want the line alone", res.Model)
	}
	ape := 0.0
	for i, f := range res.Mean {
		ape += math.Abs(f-truth[n+i]) / truth[n+i]
	}
	if mape := 100 * ape / h; mape > 0.5 {
		t.Errorf("MAPE %.2f %% over %d days, want under 0.5 %%", mape, h)
	}

	faded := steadyGrowth(n, n-13*7, 0.003, 8)
	bt := runBacktest(faded, day0, newTransform(faded), h)
	for _, ci := range bt.cands {
		if strings.HasPrefix(candidates[ci].name, "drift") {
			t.Errorf("a rise that levelled off 13 weeks ago has the line as a candidate")
		}
	}
}
