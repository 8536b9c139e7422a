package service

import (
	"math"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestDemoForecastsAddUp: the demo's per-service forecasts add up to the
// total, as do its per-provider ones, day by day and over the horizon;
// every interval holds its point and the total's lies within the parts'
// summed bounds (forecast.Aggregate); the total does not change with the
// grouping (forecast.Reconcile: it is the view's own forecast).
func TestDemoForecastsAddUp(t *testing.T) {
	s := openDemo(t, nil)
	days := 30
	whole, err := s.ForecastCosts(adminCtx(), days, false)
	if err != nil {
		t.Fatal(err)
	}
	fc, err := s.ForecastView(adminCtx(), ForecastRequest{Days: &days, GroupBy: "service"})
	if err != nil {
		t.Fatal(err)
	}
	if fc.GroupBy != model.DimService || len(fc.Groups) < 3 || fc.Reconciliation != "top_down_proportions" {
		t.Fatalf("group_by %q, %d groups, reconciliation %q", fc.GroupBy, len(fc.Groups), fc.Reconciliation)
	}
	nested := func(name string, point float64, ci [2]float64) {
		if !(ci[0] <= point && point <= ci[1]) {
			t.Errorf("%s: interval %v does not hold %v", name, ci, point)
		}
	}
	nested("total", fc.TotalForecast, fc.ConfidenceInterval)
	var sum, lo, hi float64
	daily := make([]float64, days)
	for _, g := range fc.Groups {
		nested(g.Label, g.TotalForecast, g.ConfidenceInterval)
		sum += g.TotalForecast
		lo += g.ConfidenceInterval[0]
		hi += g.ConfidenceInterval[1]
		for i, d := range g.DailyForecast {
			nested(g.Label+" "+d.Date, d.Forecast, [2]float64{d.Lower, d.Upper})
			daily[i] += d.Forecast
		}
	}
	if math.Abs(sum-fc.TotalForecast) > 1e-9 {
		t.Errorf("services add up to %.10f, the total is %.10f", sum, fc.TotalForecast)
	}
	if fc.ConfidenceInterval[0] < lo-1e-9 || fc.ConfidenceInterval[1] > hi+1e-9 {
		t.Errorf("total interval %v outside the services' summed bounds [%v, %v]", fc.ConfidenceInterval, lo, hi)
	}
	for i, d := range fc.DailyForecast {
		nested("total "+d.Date, d.Forecast, [2]float64{d.Lower, d.Upper})
		if math.Abs(daily[i]-d.Forecast) > 1e-9 {
			t.Errorf("%s: services add up to %v, the total is %v", d.Date, daily[i], d.Forecast)
		}
	}
	for _, f := range []model.Forecast{whole, fc} {
		var p float64
		for _, pf := range f.ProviderForecasts {
			p += pf.TotalForecast
		}
		if len(f.ProviderForecasts) != 4 || math.Abs(p-f.TotalForecast) > 1e-9 {
			t.Errorf("%d providers add up to %.10f, the total is %.10f", len(f.ProviderForecasts), p, f.TotalForecast)
		}
	}
	if math.Abs(whole.TotalForecast-fc.TotalForecast) > 1e-9*whole.TotalForecast {
		t.Errorf("total %v by service, %v ungrouped", fc.TotalForecast, whole.TotalForecast)
	}
}

// TestForecastViewFilters: a filtered forecast is the forecast of that
// view alone; bad filters and groupings are Validation errors naming
// their field.
func TestForecastViewFilters(t *testing.T) {
	s := openDemo(t, nil)
	days := 14
	whole, err := s.ForecastCosts(adminCtx(), days, false)
	if err != nil {
		t.Fatal(err)
	}
	aws, err := s.ForecastView(adminCtx(), ForecastRequest{Days: &days, Filters: map[string][]string{"provider": {"aws"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(aws.ProviderForecasts) != 1 || len(aws.Filters) != 1 || aws.TotalForecast <= 0 || aws.TotalForecast >= whole.TotalForecast {
		t.Fatalf("aws alone: %d providers, filters %v, total %v of %v", len(aws.ProviderForecasts), aws.Filters, aws.TotalForecast, whole.TotalForecast)
	}
	// The recommendations' savings are the whole bill's: a filtered view
	// has no impact rather than every recommendation's.
	yes := true
	withRecs, err := s.ForecastView(adminCtx(), ForecastRequest{Days: &days, IncludeRecommendations: &yes, Filters: map[string][]string{"provider": {"aws"}}})
	if err != nil {
		t.Fatal(err)
	}
	if withRecs.RecommendationsImpact != nil {
		t.Fatalf("a filtered view claims the whole bill's savings: %+v", withRecs.RecommendationsImpact)
	}
	for name, r := range map[string]ForecastRequest{
		"group_by": {GroupBy: "colour"},
		"filter":   {Filters: map[string][]string{"colour": {"red"}}},
		"provider": {Filters: map[string][]string{"provider": {"ibm"}}},
	} {
		_, err := s.ForecastView(adminCtx(), r)
		if e, ok := apperr.As(err); !ok || e.Kind != apperr.Validation || e.Details["field"] != name {
			t.Errorf("%s: err = %v, want a Validation error on field %s", name, err, name)
		}
	}
}

// TestBudgetForecastIsItsScope: a budget scoped to one service projects
// that service's forecast (the forecast view filtered to it), not the
// whole bill's.
func TestBudgetForecastIsItsScope(t *testing.T) {
	days := 30
	probe := openDemo(t, nil)
	byService, err := probe.ForecastView(adminCtx(), ForecastRequest{Days: &days, GroupBy: "service"})
	if err != nil {
		t.Fatal(err)
	}
	svc := byService.Groups[0].Key
	cfg := config.Default()
	cfg.Budgets = []config.Budget{{Name: "one service", Amount: 1000, Period: "monthly", Scope: config.BudgetScope{Service: svc}}}
	s := openDemo(t, cfg)
	st, err := s.BudgetStatuses(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || !st[0].HasForecast {
		t.Fatalf("statuses %+v", st)
	}
	end, _ := time.Parse(model.DateLayout, st[0].PeriodEnd)
	yday, _ := time.Parse(model.DateLayout, yesterday(testNow))
	h := int(end.Sub(yday).Hours() / 24)
	view, err := s.ForecastView(adminCtx(), ForecastRequest{Days: &h, Filters: map[string][]string{"service": {svc}}})
	if err != nil {
		t.Fatal(err)
	}
	got := st[0].Projected - st[0].Actual
	if math.Abs(got-view.TotalForecast) > 1e-6*view.TotalForecast || view.TotalForecast <= 0 {
		t.Errorf("budget on %s projects %v beyond its actual, the view's forecast is %v", svc, got, view.TotalForecast)
	}
	whole, err := s.ForecastCosts(adminCtx(), h, false)
	if err != nil {
		t.Fatal(err)
	}
	if got >= whole.TotalForecast/2 {
		t.Errorf("budget on %s projects %v, most of the whole bill's %v", svc, got, whole.TotalForecast)
	}
}
