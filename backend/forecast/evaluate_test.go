package forecast

import (
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
)

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name        string
		values      []float64
		horizon     int
		wantOrigins int
	}{
		{"a year, 30 days", synth(365, 0.1, 0.1, 21), 30, evalOrigins},
		{"ten weeks, 30 days", synth(70, 0, 0.1, 22), 30, 1},
		{"five weeks, 30 days: one partial origin", synth(35, 0, 0.1, 23), 30, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Evaluate(tt.values, day0, tt.horizon)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Origins != tt.wantOrigins || ev.Horizon != tt.horizon {
				t.Errorf("origins, horizon = %d, %d, want %d, %d", ev.Origins, ev.Horizon, tt.wantOrigins, tt.horizon)
			}
			for name, v := range map[string]float64{"MAE": ev.MAE, "MAPE": ev.MAPE, "sMAPE": ev.SMAPE, "MASE": ev.MASE} {
				if !(v > 0) || math.IsInf(v, 0) {
					t.Errorf("%s = %v, want a positive number", name, v)
				}
			}
			// 10 % multiplicative noise: the errors are about 8 % of the level.
			if ev.MAPE > 20 || ev.SMAPE > 20 {
				t.Errorf("MAPE %v, sMAPE %v: too large for 10 %% noise", ev.MAPE, ev.SMAPE)
			}
			if ev.Coverage80 < 0.5 || ev.Coverage95 < ev.Coverage80 || ev.Coverage95 > 1 {
				t.Errorf("coverage 80 %% = %v, 95 %% = %v", ev.Coverage80, ev.Coverage95)
			}
		})
	}
}

// TestEvaluateBeatsSeasonalNaive: on a steady weekly series with noise, the
// forecaster averages the noise away, and seasonal naive does not.
func TestEvaluateBeatsSeasonalNaive(t *testing.T) {
	ev, err := Evaluate(synth(300, 0, 0.1, 24), day0, 28)
	if err != nil {
		t.Fatal(err)
	}
	if ev.MASE >= 0.9 {
		t.Errorf("MASE = %v, want well below 1", ev.MASE)
	}
}

func TestEvaluateRejects(t *testing.T) {
	tests := []struct {
		name    string
		values  []float64
		horizon int
	}{
		{"28 days", synth(28, 0, 0.1, 25), 7},
		{"zero horizon", synth(100, 0, 0.1, 25), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Evaluate(tt.values, day0, tt.horizon); apperr.KindOf(err) != apperr.Validation {
				t.Errorf("error = %v, want a Validation error", err)
			}
		})
	}
}
