package forecast

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
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
	x := mat.NewDense(m, p, nil)
	yv := mat.NewVecDense(m, nil)
	for i := 0; i < m; i++ {
		t := from + i
		row := yearlyRow(t, from, knots, yearHarmonics, p)
		x.SetRow(i, row)
		yv.SetVec(i, d[t])
	}
	var xtx mat.SymDense
	xtx.SymOuterK(1, x.T())
	// Ridge on the slope changes only: they are the trend's flexibility.
	scale := float64(m)
	for j := 2; j < 2+len(knots); j++ {
		xtx.SetSym(j, j, xtx.At(j, j)+ridge*scale)
	}
	var xty mat.VecDense
	xty.MulVec(x.T(), yv)
	var ch mat.Cholesky
	if !ch.Factorize(&xtx) {
		return nil
	}
	var beta mat.VecDense
	if err := ch.SolveVecTo(&beta, &xty); err != nil {
		return nil
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
