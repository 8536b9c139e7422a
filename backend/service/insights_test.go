package service

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func TestRecommendationsOnDemoData(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[model.RecommendationType]int{}
	var savings float64
	seen := map[string]bool{}
	for _, r := range recs {
		kinds[r.Type]++
		savings += r.PotentialSavings
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Fatalf("confidence %v out of [0,1]: %+v", r.Confidence, r)
		}
		if r.Type == model.RecRightsizing && (r.CurrentConfig == nil || r.RecommendedConfig == nil || r.CurrentConfig.InstanceType == "" || r.RecommendedConfig.InstanceType == "") {
			t.Fatalf("rightsizing without configs: %+v", r)
		}
		if r.ResourceID != "" {
			key := string(r.Provider) + r.ResourceID
			if seen[key] {
				t.Fatalf("two recommendations for %s", key)
			}
			seen[key] = true
		}
	}
	for _, k := range []model.RecommendationType{model.RecRightsizing, model.RecIdle, model.RecAutoscaling, model.RecCostAllocation, model.RecCommitment} {
		if kinds[k] == 0 {
			t.Fatalf("no %s recommendation on the demo data (%v)", k, kinds)
		}
	}
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: model.LastDays(testNow, 30)})
	if err != nil {
		t.Fatal(err)
	}
	if savings <= 0 || savings >= a.Summary.TotalCost {
		t.Fatalf("savings %.2f against 30-day spend %.2f", savings, a.Summary.TotalCost)
	}
}

func TestForecastOnDemoData(t *testing.T) {
	s := openDemo(t, nil)
	fc, err := s.ForecastCosts(adminCtx(), 30, true)
	if err != nil {
		t.Fatal(err)
	}
	if fc.ForecastPeriod != 30 || len(fc.DailyForecast) != 30 || fc.DailyForecast[0].Date != "2026-06-10" {
		t.Fatalf("forecast shape: %d points from %v", len(fc.DailyForecast), fc.DailyForecast[0])
	}
	if !(fc.ConfidenceInterval[0] <= fc.TotalForecast && fc.TotalForecast <= fc.ConfidenceInterval[1]) {
		t.Fatalf("interval %v does not hold %v", fc.ConfidenceInterval, fc.TotalForecast)
	}
	if len(fc.ProviderForecasts) != 4 || fc.RecommendationsImpact == nil || fc.RecommendationsImpact.OptimizedForecast >= fc.RecommendationsImpact.BaseForecast {
		t.Fatalf("providers %d impact %+v", len(fc.ProviderForecasts), fc.RecommendationsImpact)
	}
	if _, err := s.ForecastCosts(adminCtx(), 0, false); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("days 0: %v", err)
	}
}

func TestAllocateReportAndOptimize(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	al, err := s.AllocateCosts(ctx, model.AllocationRules{Method: "tag_based", Tags: []string{"department"}})
	if err != nil {
		t.Fatal(err)
	}
	var alloc float64
	for _, v := range al.AllocatedCosts.ByDepartment {
		alloc += v
	}
	if len(al.AllocatedCosts.ByDepartment) < 3 || !relClose(alloc+al.AllocatedCosts.Unallocated, al.AllocatedCosts.Total) {
		t.Fatalf("allocation %+v", al.AllocatedCosts)
	}
	if _, err := s.AllocateCosts(ctx, model.AllocationRules{Method: "magic"}); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("unknown method: %v", err)
	}
	res, err := s.OptimizeAll(ctx, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(res.Path); err != nil || !filepath.IsAbs(res.Path) || res.ReportPath != filepath.Base(res.Path) {
		t.Fatalf("report %q (name %q): %v", res.Path, res.ReportPath, err)
	}
	if res.Summary.TotalRecommendations != len(res.Recommendations) || res.RunID == 0 {
		t.Fatalf("summary %+v run %d", res.Summary, res.RunID)
	}
	runs, err := s.Runs(ctx, 5)
	if err != nil || len(runs) != 1 || runs[0].Status != "ok" {
		t.Fatalf("runs %+v %v", runs, err)
	}
	// The HTML report, and the CSV of every recommendation beside it (the
	// demo has more than the report lists).
	list, err := s.ListReports(ctx)
	if err != nil || len(list) != 2 || list[0].Format != "html" && list[1].Format != "html" || list[0].Format != "csv" && list[1].Format != "csv" {
		t.Fatalf("reports %+v %v", list, err)
	}
	if _, err := s.ReportFilePath(adminCtx(), "../secret.key"); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("traversal: %v", err)
	}
	// Bad report input is the caller's mistake: a ValidationError, 400 over HTTP.
	for _, req := range []model.ReportRequest{{Type: "weekly"}, {Type: model.ReportSummary, Format: "docx"}} {
		_, err := s.GenerateReport(ctx, req)
		if apperr.KindOf(err) != apperr.Validation || apperr.HTTPStatus(err) != http.StatusBadRequest {
			t.Fatalf("%+v: kind %q status %d (%v), want ValidationError 400", req, apperr.KindOf(err), apperr.HTTPStatus(err), err)
		}
	}
}
