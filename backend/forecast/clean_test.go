package forecast

import (
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
