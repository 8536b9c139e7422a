package forecast

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// period is the weekly cycle. Days are indexed from the first day of the
// history, so index%period is the same weekday for history and forecast.
const period = 7

// yearDays is the mean length of a year; the yearly cycle is fitted as a
// Fourier series of this period so leap years need no special case.
const yearDays = 365.25

// weekProfile is the additive weekly pattern, by index%period.
type weekProfile [period]float64

// weeklyProfile estimates the weekly pattern of z from its last `weeks`
// weeks: each day's deviation from the centred 7-day mean, the median per
// weekday (medians so that one holiday or spike does not shape a weekday),
// centred to sum to zero.
func weeklyProfile(z []float64, weeks int) weekProfile {
	var p weekProfile
	n := len(z)
	if n < 2*period {
		return p
	}
	half := period / 2
	from := n - half - weeks*period
	if from < half {
		from = half
	}
	var dev [period][]float64
	sum := 0.0
	for i := 0; i < period; i++ {
		sum += z[from-half+i]
	}
	for t := from; t < n-half; t++ {
		if t > from {
			sum += z[t+half] - z[t-half-1]
		}
		dev[t%period] = append(dev[t%period], z[t]-sum/period)
	}
	mean := 0.0
	for d := range p {
		p[d] = median(dev[d])
		mean += p[d]
	}
	mean /= period
	for d := range p {
		p[d] -= mean
	}
	return p
}

// yearlyComponent fits a smooth yearly cycle to d (already free of the
// weekly pattern) by least squares on a piecewise-linear trend plus
// yearHarmonics Fourier pairs, over the last yearWindow days. The trend has
// a knot every knotDays days with a ridge penalty on its slope changes, so
// it follows level shifts without absorbing the yearly cycle. It returns
// the cycle for day indexes 0..n+h-1, or nil when there is too little
// history to tell a year's shape from trend.
func yearlyComponent(d []float64, h int) []float64 {
	const (
		minDays       = 400
		yearWindow    = 3 * 365
		knotDays      = 91
		yearHarmonics = 6
		ridge         = 4.0
	)
	n := len(d)
	if n < minDays {
		return nil
	}
	from := 0
	if n > yearWindow {
		from = n - yearWindow
	}
	m := n - from
	var knots []int
	for k := from + knotDays; k < n-knotDays/2; k += knotDays {
		knots = append(knots, k)
	}
	p := 2 + len(knots) + 2*yearHarmonics
	x := make([]float64, m*p) // the design matrix, row-major
	for i := 0; i < m; i++ {
		copy(x[i*p:(i+1)*p], yearlyRow(from+i, from, knots, yearHarmonics, p))
	}
	yv := d[from:]
	// Robust fit (Tukey's bisquare, reweighted): months that left the
	// usual yearly shape (a lockdown, an outage) are down-weighted rather
	// than repeated every year after.
	w := make([]float64, m)
	for i := range w {
		w[i] = 1
	}
	beta := mat.NewVecDense(p, nil)
	xtx := mat.NewSymDense(p, nil)
	xty := mat.NewVecDense(p, nil)
	g := make([]float64, p*p)
	gy := make([]float64, p)
	r := make([]float64, m)
	for iter := 0; ; iter++ {
		clear(g)
		clear(gy)
		wsum := 0.0
		for i := 0; i < m; i++ {
			wi := w[i]
			if wi == 0 {
				continue
			}
			wsum += wi
			row := x[i*p : (i+1)*p]
			for a, xa := range row {
				if xa == 0 {
					continue
				}
				v := wi * xa
				gy[a] += v * yv[i]
				ga := g[a*p:]
				for b := a; b < p; b++ {
					ga[b] += v * row[b]
				}
			}
		}
		for a := 0; a < p; a++ {
			for b := a; b < p; b++ {
				xtx.SetSym(a, b, g[a*p+b])
			}
			xty.SetVec(a, gy[a])
		}
		// Ridge on the slope changes only: they are the trend's flexibility.
		for j := 2; j < 2+len(knots); j++ {
			xtx.SetSym(j, j, xtx.At(j, j)+ridge*wsum)
		}
		var ch mat.Cholesky
		if !ch.Factorize(xtx) {
			return nil
		}
		if err := ch.SolveVecTo(beta, xty); err != nil {
			return nil
		}
		if iter == yearRobustIters {
			break
		}
		for i := range r {
			f := 0.0
			for a, xa := range x[i*p : (i+1)*p] {
				f += xa * beta.AtVec(a)
			}
			r[i] = math.Abs(yv[i] - f)
		}
		c := yearRobustK * 1.4826 * median(r)
		if c == 0 {
			break
		}
		for i, v := range r {
			u := v / c
			w[i] = 0
			if u < 1 {
				w[i] = (1 - u*u) * (1 - u*u)
			}
		}
	}
	out := make([]float64, n+h)
	off := 2 + len(knots)
	for t := range out {
		v := 0.0
		for k := 1; k <= yearHarmonics; k++ {
			w := 2 * math.Pi * float64(k) * float64(t) / yearDays
			v += beta.AtVec(off+2*(k-1))*math.Sin(w) + beta.AtVec(off+2*(k-1)+1)*math.Cos(w)
		}
		out[t] = v
	}
	return out
}

func yearlyRow(t, from int, knots []int, harmonics, p int) []float64 {
	row := make([]float64, p)
	row[0] = 1
	row[1] = float64(t-from) / yearDays
	for j, k := range knots {
		if t > k {
			row[2+j] = float64(t-k) / yearDays
		}
	}
	off := 2 + len(knots)
	for k := 1; k <= harmonics; k++ {
		w := 2 * math.Pi * float64(k) * float64(t) / yearDays
		row[off+2*(k-1)] = math.Sin(w)
		row[off+2*(k-1)+1] = math.Cos(w)
	}
	return row
}

const (
	yearRobustIters = 2
	yearRobustK     = 4.685
)

// median returns the median of v without changing it; 0 for no values.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// yearAgreement tells how much the last year's shape repeats the year
// before: the correlation of the 4-week means of the last 52 weeks with
// those of the 52 weeks before (each less its mean), over the blocks both
// years have, at least 0; yearUnchecked when fewer than yearMinBlocks pairs
// exist. A
// year unlike the one before (a lockdown, a launch) gives a cycle that will
// not repeat either, so the yearly component is scaled by it.
func yearAgreement(d []float64) float64 {
	const block, blocks = 4 * period, 13
	n := len(d)
	var a, b []float64
	for k := 0; k < blocks; k++ {
		s := n - blocks*block + k*block
		if s-52*period < 0 || s < 0 {
			continue
		}
		a = append(a, mean(d[s:s+block]))
		b = append(b, mean(d[s-52*period:s-52*period+block]))
	}
	if len(a) < yearMinBlocks {
		return yearUnchecked
	}
	c := stat.Correlation(a, b, nil)
	if math.IsNaN(c) || c < 0 {
		return 0
	}
	return c
}

const yearMinBlocks = 6

// yearUnchecked is the agreement of a cycle that cannot be checked (under
// about a year and a half of history): a shape fitted on little more than
// one year is half season and half that year's events (a page in the
// news, a launch), so it counts half.
const yearUnchecked = 0.5
