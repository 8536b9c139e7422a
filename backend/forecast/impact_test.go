package forecast

import (
	"math"
	"testing"
)

func TestImpact(t *testing.T) {
	const full = 10.0 // daily saving once fully phased in
	monthly := full * 365 / 12
	tests := []struct {
		name                       string
		base                       []float64
		monthly                    float64
		wantBase, wantOpt, wantPct float64
	}{
		// 60 days of 100: the first 30 days save 10*(1+2+...+30)/30 = 155,
		// the next 30 save 300; 455 of 6000 is 7.5833 %.
		{"60 days", repeat(100, 60), monthly, 6000, 5545, 455.0 / 6000 * 100},
		// 10 days: 10*(1+...+10)/30 = 18.333.
		{"inside the ramp", repeat(50, 10), monthly, 500, 500 - 55.0/3, 55.0 / 3 / 500 * 100},
		{"no savings", repeat(100, 30), 0, 3000, 3000, 0},
		{"negative savings count as none", repeat(100, 30), -500, 3000, 3000, 0},
		// Savings larger than the cost stop at zero cost: day 1 saves 1/3,
		// day 2 2/3, every later day all of its 1.
		{"savings above cost", repeat(1, 40), monthly, 40, 1, 97.5},
		{"empty forecast", nil, monthly, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Impact(tt.base, tt.monthly)
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }
			if !near(got.BaseForecast, tt.wantBase) || !near(got.OptimizedForecast, tt.wantOpt) ||
				!near(got.SavingsPercentage, tt.wantPct) || !near(got.TotalSavings, tt.wantBase-tt.wantOpt) {
				t.Errorf("Impact = %+v, want base %v, optimized %v, savings %v, %v %%",
					got, tt.wantBase, tt.wantOpt, tt.wantBase-tt.wantOpt, tt.wantPct)
			}
		})
	}
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
