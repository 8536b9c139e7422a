package forecast

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisyLevel returns n days of level 0 with normal noise of size sd.
func noisyLevel(n int, sd float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 2))
	a := make([]float64, n)
	for t := range a {
		a[t] = sd * r.NormFloat64()
	}
	return a
}

// TestRobustLevelIgnoresSpikes: single days far above the level (a page
// in the news for a day) barely move the robust level, while plain
// smoothing follows them.
func TestRobustLevelIgnoresSpikes(t *testing.T) {
	a := noisyLevel(300, 0.1, 1)
	for t := len(a) - 12; t < len(a); t += 3 {
		a[t] += 0.8
	}
	ses := fitETS(a, false).level
	for _, k := range []float64{0.5, 1} {
		got := robustLevel(a, k)
		if math.Abs(got) > 0.06 || math.Abs(got) >= math.Abs(ses) {
			t.Errorf("k=%g: robust level %.3f, want within 0.06 of 0 and closer than smoothing's %.3f", k, got, ses)
		}
	}
}

// TestRobustLevelFollowsShift: a lasting move of the level is followed
// within a few weeks, as clipping only slows single days.
func TestRobustLevelFollowsShift(t *testing.T) {
	a := noisyLevel(300, 0.1, 2)
	for t := 270; t < len(a); t++ {
		a[t]++
	}
	for _, k := range []float64{0.5, 1} {
		if got := robustLevel(a, k); math.Abs(got-1) > 0.1 {
			t.Errorf("k=%g: robust level %.3f four weeks after a shift to 1, want within 0.1 of 1", k, got)
		}
	}
}

// TestRobustLevelConstant: a constant series (no error scale at all)
// gives its value, not NaN.
func TestRobustLevelConstant(t *testing.T) {
	a := make([]float64, 60)
	for t := range a {
		a[t] = 4.2
	}
	if got := robustLevel(a, 1); math.Abs(got-4.2) > 1e-9 {
		t.Fatalf("robust level of a constant 4.2 = %v", got)
	}
}
