package monitor

import (
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCurrentPeriod(t *testing.T) {
	tests := []struct {
		period, day, key, start, end string
		days                         int
	}{
		{"monthly", "2026-06-10", "2026-06", "2026-06-01", "2026-06-30", 30},
		{"monthly", "2024-02-29", "2024-02", "2024-02-01", "2024-02-29", 29},
		{"monthly", "2026-12-31", "2026-12", "2026-12-01", "2026-12-31", 31},
		{"quarterly", "2026-06-10", "2026-Q2", "2026-04-01", "2026-06-30", 91},
		{"quarterly", "2026-01-01", "2026-Q1", "2026-01-01", "2026-03-31", 90},
		{"quarterly", "2026-11-30", "2026-Q4", "2026-10-01", "2026-12-31", 92},
	}
	for _, tt := range tests {
		t.Run(tt.period+" "+tt.day, func(t *testing.T) {
			p, err := CurrentPeriod(tt.period, day(tt.day).Add(15*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if p.Key != tt.key || p.Start.Format("2006-01-02") != tt.start || p.End.Format("2006-01-02") != tt.end || int(p.End.Sub(p.Start).Hours()/24)+1 != tt.days {
				t.Fatalf("got %s %s..%s", p.Key, p.Start, p.End)
			}
		})
	}
	if _, err := CurrentPeriod("weekly", day("2026-01-01")); apperr.KindOf(err) != apperr.Configuration {
		t.Fatalf("weekly: %v", err)
	}
}

func TestEvaluateBudget(t *testing.T) {
	b := config.Budget{Name: "Prod AWS", Amount: 1000, Period: "monthly", Scope: config.BudgetScope{Provider: "aws"}}
	p, _ := CurrentPeriod("monthly", day("2026-06-10"))
	now := day("2026-06-10").Add(12 * time.Hour)
	tests := []struct {
		name              string
		actual, projected float64
		hasForecast       bool
		thresholds        []float64
		actualThr, fcThr  float64
		ids               []string
		severities        []string
	}{
		{"under every threshold", 300, 700, true, nil, 0, 0, nil, nil},
		{"forecast heads past 100", 500, 1200, true, nil, 0, 100,
			[]string{"forecast_budget:prod-aws:2026-06:100"}, []string{SeverityWarning}},
		{"actual at 80, forecast at 100", 850, 1500, true, nil, 80, 100,
			[]string{"budget:prod-aws:2026-06:80", "forecast_budget:prod-aws:2026-06:100"}, []string{SeverityWarning, SeverityWarning}},
		{"actual past 100: forecast adds nothing", 1000, 1900, true, nil, 100, 100,
			[]string{"budget:prod-aws:2026-06:100"}, []string{SeverityCritical}},
		{"no forecast: only actual", 900, 900, false, nil, 80, 0,
			[]string{"budget:prod-aws:2026-06:80"}, []string{SeverityWarning}},
		{"custom thresholds", 510, 760, true, []float64{50, 75, 120}, 50, 75,
			[]string{"budget:prod-aws:2026-06:50", "forecast_budget:prod-aws:2026-06:75"}, []string{SeverityWarning, SeverityInfo}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := EvaluateBudget(b, p, tt.actual, tt.projected, tt.hasForecast, tt.thresholds, "USD")
			if st.ActualThreshold != tt.actualThr || st.ForecastThreshold != tt.fcThr {
				t.Fatalf("thresholds %v/%v, want %v/%v", st.ActualThreshold, st.ForecastThreshold, tt.actualThr, tt.fcThr)
			}
			as := st.Alerts(now)
			if len(as) != len(tt.ids) {
				t.Fatalf("%d alerts %+v, want %v", len(as), as, tt.ids)
			}
			for i, a := range as {
				if a.ID != tt.ids[i] || a.Severity != tt.severities[i] || a.Provider != "aws" {
					t.Fatalf("alert %d: %s %s %s", i, a.ID, a.Severity, a.Provider)
				}
				if !strings.Contains(a.Message, "Prod AWS") || a.Details["threshold"] == nil {
					t.Fatalf("alert %d lacks the budget or threshold: %+v", i, a)
				}
			}
			// Evaluating again gives the same ids (stable), at a later time.
			again := EvaluateBudget(b, p, tt.actual, tt.projected, tt.hasForecast, tt.thresholds, "USD").Alerts(now.Add(time.Hour))
			for i := range again {
				if again[i].ID != as[i].ID {
					t.Fatalf("id changed: %s -> %s", as[i].ID, again[i].ID)
				}
			}
		})
	}
}
