package forecast

import (
	"math"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func TestSpan(t *testing.T) {
	tests := []struct {
		name        string
		v           []float64
		first, last int
	}{
		{"all zero", []float64{0, 0}, -1, -1},
		{"inside", []float64{0, 1, 0, 2, 0}, 1, 3},
		{"NaN is no cost", []float64{math.NaN(), 3, math.NaN()}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if f, l := Span(tt.v); f != tt.first || l != tt.last {
				t.Errorf("Span = %d, %d; want %d, %d", f, l, tt.first, tt.last)
			}
		})
	}
}

func TestCosts(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	const n = 90
	aws, gcp := make([]float64, n), make([]float64, n)
	for i := range n {
		if i < n-2 { // the last two days not yet billed
			aws[i] = 100 + float64(i%7)
		}
		if i >= n-12 && i < n-2 { // ten days: too few for gcp alone
			gcp[i] = 10
		}
	}
	keys := []model.ProviderKey{model.AWS, model.GCP}
	fc, res, err := Costs(map[model.ProviderKey][]float64{model.AWS: aws, model.GCP: gcp}, keys, start, 14, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	if fc.ForecastPeriod != 14 || fc.ConfidenceLevel != 0.8 || fc.Model != BenchModel || len(fc.DailyForecast) != 14 || len(res.Mean) != 14 {
		t.Fatalf("forecast = %+v", fc)
	}
	// The forecast starts the day after the last day with a cost.
	if want := start.AddDate(0, 0, n-2).Format(model.DateLayout); fc.DailyForecast[0].Date != want {
		t.Errorf("first forecast day = %s, want %s", fc.DailyForecast[0].Date, want)
	}
	if fc.TotalForecast != res.TotalMean || fc.ConfidenceInterval[0] > fc.TotalForecast || fc.ConfidenceInterval[1] < fc.TotalForecast {
		t.Errorf("total %v interval %v", fc.TotalForecast, fc.ConfidenceInterval)
	}
	// About 103 a day from aws and 10 from gcp over 14 days.
	if fc.TotalForecast < 14*100 || fc.TotalForecast > 14*125 {
		t.Errorf("total forecast = %v, want about %v", fc.TotalForecast, 14*113)
	}
	if _, ok := fc.ProviderForecasts[model.AWS]; !ok {
		t.Error("aws has enough history but no forecast of its own")
	}
	// Ten days are too few for gcp's own model: it goes on at its last
	// week's mean (140 over 14 days), scaled a little with aws so that the
	// providers add up to the total.
	if g := fc.ProviderForecasts[model.GCP]; math.Abs(g.TotalForecast-140) > 7 {
		t.Errorf("gcp forecast = %+v, want about its recent mean, 140", g)
	}
	if sum := fc.ProviderForecasts[model.AWS].TotalForecast + fc.ProviderForecasts[model.GCP].TotalForecast; math.Abs(sum-fc.TotalForecast) > 1e-9 {
		t.Errorf("providers sum to %v, the total is %v", sum, fc.TotalForecast)
	}
	if fc.MonthEnd == nil || fc.MonthEnd.Month != "2026-05" || fc.MonthEnd.ConfidenceLevel != 0.8 {
		t.Errorf("month end = %+v", fc.MonthEnd)
	}
}

func TestCostsNeedsHistory(t *testing.T) {
	v := make([]float64, 80)
	for i := 40; i < 40+MinHistory-1; i++ {
		v[i] = 5
	}
	_, _, err := Costs(map[model.ProviderKey][]float64{model.AWS: v}, []model.ProviderKey{model.AWS}, time.Now(), 7, 0.8)
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Validation || e.Details["days_available"] != MinHistory-1 || e.Details["days_required"] != MinHistory {
		t.Fatalf("err = %v, want a Validation error with days_available %d", err, MinHistory-1)
	}
}
