package forecast

// A direct forecast of the next month's level: for each lead span, a
// least-absolute-deviation regression, learnt on the series' own past
// year, of the span's mean level on where the last week's median stands
// against the 4- and 13-week medians. Page views and random walks differ
// in whether a gap to the longer medians closes or persists; a regression
// learns that per series, the median (not the mean) of the outcomes so
// that spikes do not steer it.

import "math"

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
	ladMinRows               = 20
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
// least squares).
func lad3(X [][3]float64, y []float64) ([3]float64, bool) {
	var b [3]float64
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 1
	}
	for it := 0; it < ladIters; it++ {
		var A [3][4]float64
		for r, x := range X {
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					A[i][j] += w[r] * x[i] * x[j]
				}
				A[i][3] += w[r] * x[i] * y[r]
			}
		}
		for i := 0; i < 3; i++ {
			A[i][i] = A[i][i]*1.0001 + 1e-9
		}
		var ok bool
		if b, ok = solve3(A); !ok {
			return b, false
		}
		for r, x := range X {
			w[r] = 1 / math.Max(math.Abs(y[r]-x[0]*b[0]-x[1]*b[1]-x[2]*b[2]), 1e-4)
		}
	}
	return b, true
}

// solve3 solves a 3x3 system given as an augmented matrix.
func solve3(A [3][4]float64) ([3]float64, bool) {
	var x [3]float64
	for c := 0; c < 3; c++ {
		piv := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[piv][c]) {
				piv = r
			}
		}
		if math.Abs(A[piv][c]) < 1e-14 {
			return x, false
		}
		A[c], A[piv] = A[piv], A[c]
		for r := c + 1; r < 3; r++ {
			f := A[r][c] / A[c][c]
			for k := c; k < 4; k++ {
				A[r][k] -= f * A[c][k]
			}
		}
	}
	for c := 2; c >= 0; c-- {
		s := A[c][3]
		for k := c + 1; k < 3; k++ {
			s -= A[c][k] * x[k]
		}
		x[c] = s / A[c][c]
	}
	return x, true
}
