package forecast

// A direct forecast of the next month's level: for each lead span, a
// least-absolute-deviation regression, learnt on the series' own past
// year, of the span's mean level on where the last week's median stands
// against the 4- and 13-week medians. Page views and random walks differ
// in whether a gap to the longer medians closes or persists; a regression
// learns that per series, the median (not the mean) of the outcomes so
// that spikes do not steer it.

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ladBuckets are the lead-time spans the direct regressions forecast, one
// regression each: the mean adjusted level over the span.
var ladBuckets = [][2]int{{1, 7}, {8, 14}, {15, 21}, {22, 30}}

const (
	// ladBase, ladMid and ladLong are the medians' windows (days): the
	// forecast starts at the last week's median and the regressions learn
	// how much of the gap to the 4- and 13-week medians the next weeks close.
	ladBase, ladMid, ladLong = 7, 28, 91
	ladBack                  = 364 // days of origins the regressions learn from
	ladStep                  = 3   // days between those origins
	ladIters                 = 12  // reweightings of least absolute deviations
	ladMinRows               = 20  // fewer origins than this: no regression, the last week's median
	// ladMaxHorizon bounds the forecasts the model runs in: it learns the
	// next month's level, not a trend or a year.
	ladMaxHorizon = 30
)

// ladPath forecasts the adjusted series a by direct least-absolute-deviation
// regressions per lead span on robust level features.
func ladPath(a []float64, h int) []float64 {
	n := len(a)
	if n <= ladLong+ladBase {
		// Too short to learn from: the last week's median.
		path := make([]float64, h)
		l := median(a[max(0, n-ladBase):])
		for i := range path {
			path[i] = l
		}
		return path
	}
	lo := max(ladLong, n-ladBack)
	// m[k][t-from] is the median of the w days before day t.
	from := lo - ladLong
	seg := a[from:]
	m := [3][]float64{trailingMedians(seg, ladBase), trailingMedians(seg, ladMid), trailingMedians(seg, ladLong)}
	feat := func(t int) (float64, [3]float64) {
		l := m[0][t-from]
		return l, [3]float64{1, m[1][t-from] - l, m[2][t-from] - l}
	}
	L, xf := feat(n)
	path := make([]float64, h)
	for i := range path {
		path[i] = L
	}
	for _, bk := range ladBuckets {
		if bk[0] > h {
			break
		}
		var X [][3]float64
		var y []float64
		for t := n - bk[1]; t >= lo; t -= ladStep {
			b, f := feat(t)
			X = append(X, f)
			y = append(y, mean(a[t+bk[0]-1:t+bk[1]])-b)
		}
		adj := 0.0
		if len(y) >= ladMinRows {
			if b, ok := lad3(X, y); ok {
				adj = xf[0]*b[0] + xf[1]*b[1] + xf[2]*b[2]
			}
		}
		for i := bk[0] - 1; i < min(h, bk[1]); i++ {
			path[i] = L + adj
		}
	}
	return path
}

// lad3 fits y ≈ X b by least absolute deviations (iteratively reweighted
// least squares, each step's normal equations solved by Cholesky as the
// yearly cycle's are).
func lad3(X [][3]float64, y []float64) ([3]float64, bool) {
	var b [3]float64
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 1
	}
	xtx := mat.NewSymDense(3, nil)
	xty := mat.NewVecDense(3, nil)
	beta := mat.NewVecDense(3, nil)
	var ch mat.Cholesky
	for it := 0; it < ladIters; it++ {
		var g [3][3]float64
		var gy [3]float64
		for r, x := range X {
			for i := 0; i < 3; i++ {
				v := w[r] * x[i]
				for j := i; j < 3; j++ {
					g[i][j] += v * x[j]
				}
				gy[i] += v * y[r]
			}
		}
		for i := 0; i < 3; i++ {
			for j := i; j < 3; j++ {
				xtx.SetSym(i, j, g[i][j])
			}
			// A tiny ridge keeps a constant feature solvable.
			xtx.SetSym(i, i, g[i][i]*1.0001+1e-9)
			xty.SetVec(i, gy[i])
		}
		if !ch.Factorize(xtx) || ch.SolveVecTo(beta, xty) != nil {
			return b, false
		}
		b = [3]float64{beta.AtVec(0), beta.AtVec(1), beta.AtVec(2)}
		for r, x := range X {
			w[r] = 1 / math.Max(math.Abs(y[r]-x[0]*b[0]-x[1]*b[1]-x[2]*b[2]), 1e-4)
		}
	}
	return b, true
}
