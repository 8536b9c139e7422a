package forecast

import (
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestViewAddsUp: a view of three cells over two providers and two groups
// (one with credits) gives providers and groups that add up to the total,
// every interval around its point and the total's within its parts'.
func TestViewAddsUp(t *testing.T) {
	const n, h = 200, 30
	mk := func(level, amp float64, seed uint64) []float64 {
		v := synth(n, 0, amp, seed)
		for i := range v {
			v[i] += level
		}
		return v
	}
	credits := mk(5, 0.5, 3)
	for i := range credits {
		if i%30 == 0 {
			credits[i] = -40 // a monthly credit
		}
	}
	cells := []Cell{
		{Provider: model.AWS, Group: "compute", Values: mk(100, 0.2, 1)},
		{Provider: model.AWS, Group: "storage", Values: mk(40, 0.1, 2)},
		{Provider: model.GCP, Group: "compute", Values: credits},
	}
	keys := []model.ProviderKey{model.AWS, model.GCP}
	fc, groups, mean, err := View(cells, keys, day0, h, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if fc.Reconciliation != Reconciliation || len(groups) != 2 || len(mean) != h {
		t.Fatalf("reconciliation %q, %d groups, %d means", fc.Reconciliation, len(groups), len(mean))
	}
	check := func(name string, point float64, ci [2]float64) {
		if !(ci[0] <= point && point <= ci[1]) {
			t.Errorf("%s: interval %v does not hold %v", name, ci, point)
		}
	}
	check("total", fc.TotalForecast, fc.ConfidenceInterval)
	var byProvider, byGroup, lo, hi float64
	for _, k := range keys {
		p := fc.ProviderForecasts[k]
		check(string(k), p.TotalForecast, p.ConfidenceInterval)
		byProvider += p.TotalForecast
	}
	for _, g := range groups {
		check(g.Key, g.TotalForecast, g.ConfidenceInterval)
		byGroup += g.TotalForecast
		lo += g.ConfidenceInterval[0]
		hi += g.ConfidenceInterval[1]
		for i, d := range g.DailyForecast {
			if !(d.Lower <= d.Forecast && d.Forecast <= d.Upper) {
				t.Errorf("%s day %d: %+v not nested", g.Key, i, d)
			}
		}
	}
	for name, sum := range map[string]float64{"providers": byProvider, "groups": byGroup} {
		if math.Abs(sum-fc.TotalForecast) > 1e-9 {
			t.Errorf("%s add up to %.12f, the total is %.12f", name, sum, fc.TotalForecast)
		}
	}
	if fc.ConfidenceInterval[0] < lo-1e-9 || fc.ConfidenceInterval[1] > hi+1e-9 {
		t.Errorf("total interval %v outside the groups' summed bounds [%v, %v]", fc.ConfidenceInterval, lo, hi)
	}
	for i := 0; i < h; i++ {
		s := 0.0
		for _, g := range groups {
			s += g.DailyForecast[i].Forecast
		}
		if math.Abs(s-fc.DailyForecast[i].Forecast) > 1e-9 {
			t.Errorf("day %d: groups add up to %v, the total is %v", i, s, fc.DailyForecast[i].Forecast)
		}
	}
	// The total is the view's own forecast, whatever its grouping.
	var sum []float64
	for _, c := range cells {
		if sum == nil {
			sum = make([]float64, n)
		}
		add(sum, c.Values)
	}
	own, err := Forecast(sum, day0, Options{Horizon: h})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(own.TotalMean-fc.TotalForecast) > 1e-6*math.Abs(own.TotalMean) {
		t.Errorf("total %v, the sum's own forecast %v", fc.TotalForecast, own.TotalMean)
	}
}
