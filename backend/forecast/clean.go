package forecast

import "math"

// spikeLimit is how many robust standard deviations a day may sit from its
// local level before it is treated as a spike. Cloud bills have one-off
// days (a reserved-instance purchase, a runaway job) that would otherwise
// drag level and weekly pattern for weeks.
const spikeLimit = 4.0

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
	const half = 7
	lvl := make([]float64, n)
	buf := make([]float64, 0, 2*half+1)
	for t := range d {
		lo, hi := max(0, t-half), min(n, t+half+1)
		buf = append(buf[:0], d[lo:hi]...)
		lvl[t] = median(buf)
	}
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
