package forecast

import (
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
)

func TestForecastRejectsBadInput(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		opt    Options
	}{
		{"no history", nil, Options{Horizon: 30}},
		{"27 days", synth(27, 0, 0.05, 1), Options{Horizon: 30}},
		{"zero horizon", synth(60, 0, 0.05, 1), Options{Horizon: 0}},
		{"level 0.9", synth(60, 0, 0.05, 1), Options{Horizon: 30, Level: 0.9}},
		{"NaN day", append(synth(59, 0, 0.05, 1), math.NaN()), Options{Horizon: 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Forecast(tt.values, day0, tt.opt)
			if apperr.KindOf(err) != apperr.Validation {
				t.Fatalf("Forecast error = %v, want a Validation error", err)
			}
		})
	}
}

func TestShortHistoryErrorSaysHowMany(t *testing.T) {
	_, err := Forecast(synth(20, 0, 0.05, 1), day0, Options{Horizon: 30})
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Validation {
		t.Fatalf("error = %v, want a Validation error", err)
	}
	if e.Details["days"] != 20 || e.Details["required_days"] != MinHistory {
		t.Fatalf("details = %v, want days 20 and required_days %d", e.Details, MinHistory)
	}
}

func TestForecastIntervals(t *testing.T) {
	tests := []struct {
		name    string
		values  []float64
		horizon int
		level   float64
	}{
		{"28 days, level 0.95", synth(28, 0, 0.1, 2), 30, 0},
		{"one year with growth, level 0.80", synth(365, 0.2, 0.1, 3), 90, 0.80},
		{"two years, level 0.95", synth(800, 0.05, 0.2, 4), 60, 0.95},
		{"credits make days negative", shift(synth(120, 0, 0.3, 5), -90), 30, 0.95},
		{"zero days", withZeros(synth(200, 0, 0.1, 6)), 14, 0.95},
		{"constant", repeat(42, 60), 30, 0.95},
		{"all zero", repeat(0, 60), 30, 0.80},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Forecast(tt.values, day0, Options{Horizon: tt.horizon, Level: tt.level})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range [][]float64{res.Mean, res.Lower, res.Upper, res.Lower80, res.Upper80, res.Lower95, res.Upper95} {
				if len(s) != tt.horizon {
					t.Fatalf("len = %d, want %d", len(s), tt.horizon)
				}
			}
			total := 0.0
			for i := range res.Mean {
				row := []float64{res.Lower95[i], res.Lower80[i], res.Mean[i], res.Upper80[i], res.Upper95[i]}
				for j := 1; j < len(row); j++ {
					if !(row[j-1] <= row[j]) || math.IsNaN(row[j]) {
						t.Fatalf("day %d: lo95, lo80, mean, hi80, hi95 = %v, not ordered", i, row)
					}
				}
				total += res.Mean[i]
			}
			wantLo, wantHi := res.Lower95, res.Upper95
			if tt.level == 0.80 {
				wantLo, wantHi = res.Lower80, res.Upper80
			}
			if &res.Lower[0] != &wantLo[0] || &res.Upper[0] != &wantHi[0] {
				t.Errorf("Lower/Upper are not the %v interval", tt.level)
			}
			if math.Abs(total-res.TotalMean) > 1e-9*math.Abs(total) {
				t.Errorf("TotalMean = %v, want the sum of Mean %v", res.TotalMean, total)
			}
			if !(res.TotalLower <= res.TotalMean && res.TotalMean <= res.TotalUpper) {
				t.Errorf("total interval %v <= %v <= %v does not hold", res.TotalLower, res.TotalMean, res.TotalUpper)
			}
			if res.Model == "" {
				t.Error("Model is empty")
			}
		})
	}
}

// TestForecastFollowsSeasonalSeries checks the point forecast on a
// noiseless-enough weekly series: within 5 % of the truth each day.
func TestForecastFollowsSeasonalSeries(t *testing.T) {
	all := synth(200+28, 0, 0.01, 7)
	hist, future := all[:200], all[200:]
	res, err := Forecast(hist, day0, Options{Horizon: 28})
	if err != nil {
		t.Fatal(err)
	}
	for i, y := range future {
		if math.Abs(res.Mean[i]-y) > 0.05*y {
			t.Fatalf("day %d: forecast %v, actual %v", i+1, res.Mean[i], y)
		}
	}
	// The weekly pattern carries into the forecast: day index t has
	// synth's weekday t%7, and 5 (weekend) is cheaper than 0.
	var sat, mon float64
	for i := range res.Mean {
		switch (200 + i) % 7 {
		case 5:
			sat = res.Mean[i]
		case 0:
			mon = res.Mean[i]
		}
	}
	if !(sat < 0.9*mon) {
		t.Errorf("weekend forecast %v not below weekday %v", sat, mon)
	}
}

func shift(v []float64, d float64) []float64 {
	for i := range v {
		v[i] += d
	}
	return v
}

func withZeros(v []float64) []float64 {
	for i := 3; i < len(v); i += 17 {
		v[i] = 0
	}
	return v
}
