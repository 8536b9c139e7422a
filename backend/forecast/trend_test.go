package forecast

import (
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestTrend(t *testing.T) {
	tests := []struct {
		name      string
		values    []float64
		direction model.TrendDirection
		slopeSign float64
	}{
		{"rising 1 a day", synth(120, 1, 0.05, 11), model.TrendIncreasing, 1},
		{"falling 0.5 a day", synth(120, -0.5, 0.05, 12), model.TrendDecreasing, -1},
		{"flat, four weeks", synth(28, 0, 0.05, 14), model.TrendStable, 0},
		{"too short to test", []float64{1, 2, 3, 4, 5}, model.TrendStable, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Trend(tt.values)
			if got.TrendDirection != tt.direction {
				t.Fatalf("direction = %s (p %.3g, slope %.3g), want %s", got.TrendDirection, got.PValue, got.Slope, tt.direction)
			}
			if tt.slopeSign != 0 && got.Slope*tt.slopeSign <= 0 {
				t.Errorf("slope %v has the wrong sign", got.Slope)
			}
			if got.PValue < 0 || got.PValue > 1 {
				t.Errorf("p-value %v outside [0, 1]", got.PValue)
			}
		})
	}
}

// TestTrendErrorRates checks the test's size and power over many series:
// flat ones are called a trend about 5 % of the time, a growth of 0.3 % a
// day under 10 % noise nearly always is.
func TestTrendErrorRates(t *testing.T) {
	const runs = 200
	falsePos, misses := 0, 0
	for i := range uint64(runs) {
		if Trend(synth(84, 0, 0.1, 100+i)).TrendDirection != model.TrendStable {
			falsePos++
		}
		if Trend(synth(84, 0.3, 0.1, 1000+i)).TrendDirection != model.TrendIncreasing {
			misses++
		}
	}
	if falsePos > runs/10 {
		t.Errorf("%d of %d flat series called a trend, want about 5 %%", falsePos, runs)
	}
	if misses > runs/20 {
		t.Errorf("%d of %d rising series missed", misses, runs)
	}
}

func TestTrendSlopeMatchesGrowth(t *testing.T) {
	// Growth of 1 a day on a level of 100, weekly pattern averaging 1.
	got := Trend(synth(84, 1, 0.02, 15))
	if math.Abs(got.Slope-1) > 0.15 {
		t.Errorf("slope = %v a day, want about 1", got.Slope)
	}
}

func TestVolatility(t *testing.T) {
	tests := []struct {
		name     string
		noise    float64
		min, max float64
	}{
		{"no noise", 0, 0, 1e-9},
		{"5 % noise", 0.05, 0.035, 0.06},
		{"20 % noise", 0.20, 0.15, 0.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The weekly pattern alone must not count as volatility.
			v := Trend(synth(84, 0, tt.noise, 16)).Volatility
			if v < tt.min || v > tt.max {
				t.Errorf("volatility = %v, want in [%v, %v]", v, tt.min, tt.max)
			}
		})
	}
}
