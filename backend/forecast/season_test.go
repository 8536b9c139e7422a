package forecast

import (
	"math"
	"testing"
)

// TestYearAgreement: a cycle that repeats agrees with itself; a last year
// that holds a months-long drop the year before did not have agrees less;
// under a year and a half there is nothing to compare, so the cycle
// counts half.
func TestYearAgreement(t *testing.T) {
	cycle := func(n int) []float64 {
		d := make([]float64, n)
		for i := range d {
			d[i] = math.Sin(2 * math.Pi * float64(i) / yearDays)
		}
		return d
	}
	if a := yearAgreement(cycle(800)); a < 0.95 {
		t.Errorf("repeating cycle: agreement %.3f, want >= 0.95", a)
	}
	d := cycle(800)
	for i := 440; i < 540; i++ { // where the cycle is high
		d[i] -= 2 // a lockdown
	}
	if a := yearAgreement(d); a > 0.5 {
		t.Errorf("cycle with a lockdown: agreement %.3f, want <= 0.5", a)
	}
	if a := yearAgreement(cycle(400)); a != yearUnchecked {
		t.Errorf("short history: agreement %.3f, want %v", a, yearUnchecked)
	}
}
