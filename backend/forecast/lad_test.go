package forecast

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestTrailingMedians: each value is the median a fresh sort of the w
// days before gives, including the first days with fewer than w before.
func TestTrailingMedians(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	v := make([]float64, 200)
	for i := range v {
		v[i] = float64(r.IntN(12)) // ties too
	}
	for _, w := range []int{1, 2, 7, 28, 91} {
		got := trailingMedians(v, w)
		for i := 1; i <= len(v); i++ {
			win := append([]float64(nil), v[max(0, i-w):i]...)
			sort.Float64s(win)
			want := median(win)
			if got[i] != want {
				t.Fatalf("w=%d day %d: %g, want %g", w, i, got[i], want)
			}
		}
	}
}

// TestLad3IsAMedianFit: with a fifth of the outcomes wild, the fit still
// finds the line the other four fifths lie on (least squares would not).
func TestLad3IsAMedianFit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var X [][3]float64
	var y []float64
	for i := 0; i < 200; i++ {
		x1, x2 := r.NormFloat64(), r.NormFloat64()
		v := 1 + 2*x1 - 0.5*x2 + 0.01*r.NormFloat64()
		if i%5 == 0 {
			v += 50 + 10*r.Float64()
		}
		X = append(X, [3]float64{1, x1, x2})
		y = append(y, v)
	}
	b, ok := lad3(X, y)
	if !ok {
		t.Fatal("lad3 found no fit")
	}
	want := [3]float64{1, 2, -0.5}
	for i := range b {
		if math.Abs(b[i]-want[i]) > 0.05 {
			t.Fatalf("coefficients %v, want about %v", b, want)
		}
	}
}

// TestLadPathLearnsWhetherGapsClose: the same last week (a rise over the
// longer medians) is forecast to fade on a series whose rises always
// faded, and to stay on one whose rises always stayed.
func TestLadPathLearnsWhetherGapsClose(t *testing.T) {
	const n = 500
	r := rand.New(rand.NewPCG(11, 12))
	noise := func(i int) float64 { return 0.02 * math.Sin(float64(i)*1.7) }
	// Events 40-70 days apart, the last one 5 days before the end.
	event := make([]bool, n)
	for i := n - 5; i >= 0; i -= 40 + r.IntN(31) {
		event[i] = true
	}
	fading := make([]float64, n)
	staying := make([]float64, n)
	since, level := 1000, 0.0
	for i := range fading {
		if event[i] {
			since = 0
			level++
		}
		// A bump of 1 for 10 days from each event, always gone after.
		if since < 10 {
			fading[i] = 1
		}
		since++
		fading[i] += noise(i)
		// A staircase: one more at each event, kept.
		staying[i] = level + noise(i)
	}
	last := level
	f := ladPath(fading, 30)
	// Leads 1-7 are days 5-11 of the bump, five of them still high; the
	// regression sees a week at the bump's level, which in the past was
	// days 4-13 of a bump, and forecasts their median outcome.
	if f[0] < 0.2 || math.Abs(f[29]) > 0.15 {
		t.Errorf("fading bumps: lead 1 %.2f (want over 0.2), lead 30 %.2f (want near 0)", f[0], f[29])
	}
	s := ladPath(staying, 30)
	if math.Abs(s[0]-last) > 0.25 || s[29] < last-0.1 {
		t.Errorf("staircase: lead 1 %.2f, lead 30 %.2f, want both at the last level %g or above, not back to %g", s[0], s[29], last, last-1)
	}
}

// TestLadPathShortHistory: with too little history to learn from, the path
// is the last week's median.
func TestLadPathShortHistory(t *testing.T) {
	a := make([]float64, ladLong+ladBase)
	for i := range a {
		a[i] = float64(i)
	}
	p := ladPath(a, 10)
	want := median(a[len(a)-ladBase:])
	for i, v := range p {
		if v != want {
			t.Fatalf("lead %d: %g, want the last week's median %g", i+1, v, want)
		}
	}
}

// TestLadOnlyUpToItsHorizon: the regressions learn the next month only, so
// they are candidates for a 30-day forecast and not for a 60-day one.
func TestLadOnlyUpToItsHorizon(t *testing.T) {
	y := synth(400, 0.05, 0.05, 9)
	has := func(h int) bool {
		tr := newTransform(y)
		bt := runBacktest(y, day0, tr, h)
		for _, ci := range bt.cands {
			if candidates[ci].name == "lad+week" {
				return true
			}
		}
		return false
	}
	if !has(30) {
		t.Error("a 30-day forecast does not consider the median regressions")
	}
	if has(60) {
		t.Error("a 60-day forecast considers the median regressions")
	}
}
