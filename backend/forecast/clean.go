package forecast

import (
	"math"
	"sort"
)

// spikeLimit is how many robust standard deviations a day may sit from its
// local level before it is treated as a spike. Cloud bills have one-off
// days (a reserved-instance purchase, a runaway job) that would otherwise
// drag level and weekly pattern for weeks.
const spikeLimit = 2.5

// clean returns a copy of z with spikes pulled back to spikeLimit robust
// standard deviations from a local level (a 15-day running median of the
// weekly-adjusted series). A level shift moves the running median too, so
// it is kept, not clipped.
func clean(z []float64) []float64 {
	n := len(z)
	out := append([]float64(nil), z...)
	if n < 3*period {
		return out
	}
	w := weeklyProfile(z, 52)
	d := make([]float64, n)
	for t := range z {
		d[t] = z[t] - w[t%period]
	}
	lvl := runningMedian(d, 7)
	r := make([]float64, n)
	for t := range d {
		r[t] = math.Abs(d[t] - lvl[t])
	}
	sigma := 1.4826 * median(r)
	if sigma == 0 {
		return out
	}
	lim := spikeLimit * sigma
	for t := range d {
		dev := d[t] - lvl[t]
		if dev > lim {
			out[t] = z[t] - dev + lim
		} else if dev < -lim {
			out[t] = z[t] - dev - lim
		}
	}
	return out
}

// runningMedian returns the median of v over each centred window of
// 2*half+1 days (shorter at the ends). It keeps the window sorted as it
// slides, so each step moves a few values instead of sorting.
func runningMedian(v []float64, half int) []float64 {
	n := len(v)
	out := make([]float64, n)
	win := make([]float64, 0, 2*half+1)
	add := func(x float64) {
		k := sort.SearchFloat64s(win, x)
		win = append(win, 0)
		copy(win[k+1:], win[k:])
		win[k] = x
	}
	for t := 0; t < min(half, n); t++ {
		add(v[t])
	}
	for t := range v {
		if t+half < n {
			add(v[t+half])
		}
		if t-half-1 >= 0 {
			k := sort.SearchFloat64s(win, v[t-half-1])
			win = append(win[:k], win[k+1:]...)
		}
		m := len(win) / 2
		if len(win)%2 == 1 {
			out[t] = win[m]
		} else {
			out[t] = (win[m-1] + win[m]) / 2
		}
	}
	return out
}
