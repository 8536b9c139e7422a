package report

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestPlanOutlook(t *testing.T) {
	sum := func(kind model.PeriodKind, end string) model.CostSummary {
		return model.CostSummary{TotalCost: 500, Period: &model.PeriodInfo{Kind: kind, End: end}}
	}
	cut := sum(model.PeriodCustom, "2026-06-09")
	cut.Period.Cut, cut.Period.RequestedEnd = true, "2026-06-20"
	complete := sum(model.PeriodCustom, "2026-06-09")
	tests := []struct {
		name      string
		sum       model.CostSummary
		sc        Scope
		days      int
		end       string
		label     string
		toDateSet bool
	}{
		{name: "month to date", sum: sum(model.PeriodMonthToDate, "2026-06-09"), days: 21, end: "2026-06-30", label: "Forecast to 2026-06-30", toDateSet: true},
		{name: "quarter to date", sum: sum(model.PeriodQuarterToDate, "2026-05-09"), days: 52, end: "2026-06-30", label: "Forecast to 2026-06-30", toDateSet: true},
		{name: "year to date, at most maxDays", sum: sum(model.PeriodYearToDate, "2026-02-01"), days: 90, end: "2026-05-02", label: "Forecast to 2026-05-02", toDateSet: true},
		{name: "custom cut at today", sum: cut, days: 11, end: "2026-06-20", label: "Forecast to 2026-06-20", toDateSet: true},
		{name: "rolling days", sum: sum(model.PeriodDays, "2026-06-09"), days: 30, end: "2026-07-09", label: "Next 30 days"},
		{name: "complete custom range", sum: complete},
		{name: "last month", sum: sum(model.PeriodLastMonth, "2026-05-31")},
		{name: "month ending on its last day", sum: sum(model.PeriodMonthToDate, "2026-06-30")},
		{name: "narrowed", sum: sum(model.PeriodMonthToDate, "2026-06-09"), sc: Scope{Providers: []model.ProviderKey{model.AWS}}},
		{name: "unknown period", sum: model.CostSummary{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, note := PlanOutlook(tt.sum, tt.sc, 30, 90)
			if tt.days == 0 {
				if o != nil || note == "" {
					t.Fatalf("PlanOutlook = %+v, %q; want none, with a note", o, note)
				}
				return
			}
			if o == nil || note != "" {
				t.Fatalf("PlanOutlook = nil, %q", note)
			}
			if o.Days != tt.days || o.End != tt.end || o.Label != tt.label || o.ToDateSet != tt.toDateSet {
				t.Errorf("PlanOutlook = %+v, want %d days to %s, %q, to date %v", o, tt.days, tt.end, tt.label, tt.toDateSet)
			}
			if tt.toDateSet && o.ToDate != 500 {
				t.Errorf("to date = %v, want the period's 500", o.ToDate)
			}
			o.SetForecast(200, [2]float64{150, 260})
			if want := o.ToDate + 200; o.Projected != want || o.Interval != [2]float64{150, 260} {
				t.Errorf("after SetForecast: %+v, want projected %v", o, want)
			}
		})
	}
}

func TestInScope(t *testing.T) {
	recs := []model.Recommendation{{ID: "a", Provider: model.AWS}, {ID: "g", Provider: model.GCP}}
	a := model.CostAnalysis{Providers: map[model.ProviderKey]model.ProviderCosts{model.AWS: {}}}
	if got := InScope(recs, a, Scope{}); len(got) != 2 {
		t.Errorf("not narrowed: %v", got)
	}
	if got := InScope(recs, a, Scope{View: "prod"}); len(got) != 1 || got[0].ID != "a" {
		t.Errorf("narrowed: %v, want aws's only", got)
	}
	if got := InScope(recs, model.CostAnalysis{}, Scope{View: "prod"}); got == nil || len(got) != 0 {
		t.Errorf("narrowed to nothing: %v, want an empty list", got)
	}
}
