package forecast

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRunningMedian: the sliding window gives the medians a fresh sort of
// each window gives, ends included.
func TestRunningMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 15, 16, 100} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(10)) // ties too
		}
		got := runningMedian(v, 7)
		for i := range v {
			want := median(v[max(0, i-7):min(n, i+8)])
			if got[i] != want {
				t.Fatalf("n=%d day %d: median %g, want %g", n, i, got[i], want)
			}
		}
	}
}

// TestCleanClipsSpikesSoonerThanDips: a day 3.5 robust deviations above
// the level is a spike and is pulled back; one 3.5 below is kept (low days
// are more often holidays than errors), one 8 below is pulled back too.
func TestCleanClipsSpikesSoonerThanDips(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	z := make([]float64, 140)
	for i := range z {
		z[i] = 5 + 0.1*r.NormFloat64()
	}
	// The robust deviation of the noise around its running median is
	// about 0.1; measure it as clean does rather than assume it.
	d := make([]float64, len(z))
	w := weeklyProfile(z, 52)
	for i := range z {
		d[i] = z[i] - w[i%period]
	}
	lvl := runningMedian(d, 7)
	for i := range d {
		d[i] = math.Abs(d[i] - lvl[i])
	}
	sigma := 1.4826 * median(d)
	z[50] = lvl[50] + w[50%period] + 3.5*sigma
	z[80] = lvl[80] + w[80%period] - 3.5*sigma
	z[110] = lvl[110] + w[110%period] - 8*sigma
	c := clean(z)
	if !(c[50] < z[50]-0.5*sigma) {
		t.Errorf("spike 3.5 deviations up: cleaned %g, was %g: not pulled back", c[50], z[50])
	}
	if math.Abs(c[80]-z[80]) > 1e-12 {
		t.Errorf("dip 3.5 deviations down: cleaned %g, was %g: should be kept", c[80], z[80])
	}
	if !(c[110] > z[110]+2*sigma) {
		t.Errorf("dip 8 deviations down: cleaned %g, was %g: not pulled back", c[110], z[110])
	}
}
