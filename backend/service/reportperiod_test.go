package service

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/report"
)

// closeTo is equality of amounts summed in different orders.
func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// TestReportBoundToItsPeriod: every section of every report type of last
// month (May 2026 on the demo, whose today is 10 June) comes from May: the
// totals, the services and accounts, the allocation, the tag coverage and
// the budgets (a quarter's as of 31 May) equal what the Service answers
// for May; the movers are per day (31 days against April's 30); there is
// no forecast. Every format's file is named after May and its providers.
func TestReportBoundToItsPeriod(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	for _, b := range []config.Budget{{Name: "Month", Amount: 40000, Period: "monthly"}, {Name: "Quarter", Amount: 120000, Period: "quarterly"}} {
		if _, err := s.SaveBudget(ctx, 0, b, "tester"); err != nil {
			t.Fatal(err)
		}
	}
	may := CostRequest{Period: string(model.PeriodLastMonth), GroupBy: string(model.DimService)}
	api, err := s.Costs(ctx, may)
	if err != nil {
		t.Fatal(err)
	}
	if p := api.Summary.Period; p == nil || p.Start != "2026-05-01" || p.End != "2026-05-31" {
		t.Fatalf("last month is %+v", api.Summary.Period)
	}
	may.GroupBy = string(model.DimSubAccount)
	accounts, err := s.Costs(ctx, may)
	if err != nil {
		t.Fatal(err)
	}
	alloc, err := s.AllocateCosts(ctx, model.AllocationRules{Method: defaultAllocation.Method, Tags: defaultAllocation.Tags, Start: "2026-05-01", End: "2026-05-31"})
	if err != nil {
		t.Fatal(err)
	}
	quarter, err := s.Costs(ctx, CostRequest{Start: "2026-04-01", End: "2026-05-31"})
	if err != nil {
		t.Fatal(err)
	}
	sum := func(gs []model.CostGroup) float64 {
		var v float64
		for _, g := range gs {
			v += g.Cost
		}
		return v
	}
	for _, typ := range model.ReportTypes {
		t.Run(string(typ), func(t *testing.T) {
			d, err := s.reportData(ctx, model.ReportRequest{Type: typ, Period: model.PeriodLastMonth}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.Analysis.Summary.TotalCost != api.Summary.TotalCost {
				t.Errorf("analysis total %v, API %v", d.Analysis.Summary.TotalCost, api.Summary.TotalCost)
			}
			if d.Forecast != nil {
				t.Errorf("a report of a month that is over has a forecast from %s", d.Forecast.DailyForecast[0].Date)
			}
			if typ == model.ReportRecommendations {
				return
			}
			if !closeTo(sum(d.ServiceGroups), api.Summary.TotalCost) || !closeTo(sum(d.AccountGroups), sum(accounts.Summary.Groups)) {
				t.Errorf("services %v, accounts %v; API %v and %v", sum(d.ServiceGroups), sum(d.AccountGroups), api.Summary.TotalCost, sum(accounts.Summary.Groups))
			}
			budgets := map[string]report.Budget{}
			for _, b := range d.Budgets {
				budgets[b.Name] = b
			}
			if b := budgets["Month"]; b.Period != "2026-05" || !closeTo(b.Actual, api.Summary.TotalCost) {
				t.Errorf("monthly budget %+v, want May's %v", b, api.Summary.TotalCost)
			}
			if b := budgets["Quarter"]; !closeTo(b.Actual, quarter.Summary.TotalCost) {
				t.Errorf("quarterly budget %+v, want April and May, %v (not the quarter to date)", b, quarter.Summary.TotalCost)
			}
			e := summarizeFor(t, s, typ)
			if len(e.Movers) == 0 {
				t.Fatal("no movers on the demo")
			}
			for _, m := range e.Movers {
				if !closeTo(m.DailyChange, m.Cost/31-m.Previous/30) || m.RunRateChange == nil || !closeTo(*m.RunRateChange, (m.Cost/31)/(m.Previous/30)-1) {
					t.Errorf("mover %+v is not per day (31 against 30 days)", m)
				}
			}
			if typ != model.ReportComprehensive {
				return
			}
			if d.Allocation == nil || !closeTo(d.Allocation.AllocatedCosts.Total, alloc.AllocatedCosts.Total) || d.Allocation.Period != alloc.Period {
				t.Errorf("allocation %+v, want May's %+v", d.Allocation, alloc)
			}
			if c := d.Coverage; c == nil || c.From != "2026-05-01" || c.To != "2026-05-31" {
				t.Errorf("coverage %+v, want May", c)
			}
		})
	}
	for _, typ := range model.ReportTypes {
		for _, f := range model.ReportFormats {
			res, err := s.GenerateReport(ctx, model.ReportRequest{Type: typ, Format: f, Period: model.PeriodLastMonth, Providers: []model.ProviderKey{model.AWS}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.ReportPath, "costpilot-"+string(typ)+"-2026-05-01_2026-05-31-aws-") {
				t.Errorf("%s/%s named %s", typ, f, res.ReportPath)
			}
		}
	}
}

// summarizeFor is the executive summary of typ's JSON report of last month.
func summarizeFor(t *testing.T, s *Service, typ model.ReportType) *report.Executive {
	t.Helper()
	res, err := s.GenerateReport(adminCtx(), model.ReportRequest{Type: typ, Format: model.FormatJSON, Period: model.PeriodLastMonth})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	var d report.Data
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d.Executive
}

// TestCurrentMonthForecastIsDated: a comprehensive report of this month
// has the forecast, drawn from the day after the last day with data as a
// series named by its first day.
func TestCurrentMonthForecastIsDated(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportComprehensive, Format: model.FormatHTML, Period: model.PeriodMonthToDate})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if body := string(b); !strings.Contains(body, "forecast from 2026-06-10") || !strings.Contains(body, "actual to 2026-06-09") {
		t.Errorf("the forecast chart does not name its series by day")
	}
}
