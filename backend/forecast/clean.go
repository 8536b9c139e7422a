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

// dipLimit is the limit below the level. On the log scale low days
// (holidays, lockdown weeks, quiet weekends) stand further out than high
// ones and are more often part of the pattern, so they are clipped only
// when far out.
const dipLimit = 4.5

// clean returns a copy of z with spikes pulled back to spikeLimit robust
// standard deviations above, and dips to dipLimit below, a local level (a 15-day running median of the
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
	up, down := spikeLimit*sigma, dipLimit*sigma
	for t := range d {
		dev := d[t] - lvl[t]
		if dev > up {
			out[t] = z[t] - dev + up
		} else if dev < -down {
			out[t] = z[t] - dev - down
		}
	}
	return out
}

// sortedWindow is a sliding window of values kept sorted, so each step
// moves a few values instead of sorting the window again.
type sortedWindow []float64

func (w *sortedWindow) add(x float64) {
	k := sort.SearchFloat64s(*w, x)
	*w = append(*w, 0)
	copy((*w)[k+1:], (*w)[k:])
	(*w)[k] = x
}

func (w *sortedWindow) remove(x float64) {
	k := sort.SearchFloat64s(*w, x)
	*w = append((*w)[:k], (*w)[k+1:]...)
}

func (w sortedWindow) median() float64 {
	m := len(w) / 2
	if len(w)%2 == 1 {
		return w[m]
	}
	return (w[m-1] + w[m]) / 2
}

// runningMedian returns the median of v over each centred window of
// 2*half+1 days (shorter at the ends).
func runningMedian(v []float64, half int) []float64 {
	n := len(v)
	out := make([]float64, n)
	win := make(sortedWindow, 0, 2*half+1)
	for t := 0; t < min(half, n); t++ {
		win.add(v[t])
	}
	for t := range v {
		if t+half < n {
			win.add(v[t+half])
		}
		if t-half-1 >= 0 {
			win.remove(v[t-half-1])
		}
		out[t] = win.median()
	}
	return out
}

// trailingMedians returns out[t] = the median of v[t-w:t] for t >= w (and
// of v[:t] before), for every t from 1 to len(v).
func trailingMedians(v []float64, w int) []float64 {
	out := make([]float64, len(v)+1)
	win := make(sortedWindow, 0, w+1)
	for t := 1; t <= len(v); t++ {
		win.add(v[t-1])
		if len(win) > w {
			win.remove(v[t-1-w])
		}
		out[t] = win.median()
	}
	return out
}
