package service

import (
	"errors"
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestBudgetsCRUD: budgets made through the Service sit beside the config
// file's, are measured like them (actual = an independent sum of the
// period's daily cost), change, refuse bad input naming the field, and go.
func TestBudgetsCRUD(t *testing.T) {
	ctx := adminCtx()
	cfg := config.Default()
	cfg.Budgets = []config.Budget{{Name: "from-file", Amount: 1000, Period: "monthly"}}
	s := openDemo(t, cfg)
	v, err := s.SaveBudget(ctx, 0, config.Budget{Name: "aws monthly", Amount: 5000, Period: "monthly",
		Scope: config.BudgetScope{Provider: model.AWS}}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if v.ID == 0 || v.Source != BudgetFromDashboard || !v.Measured || v.ChangedBy != "alice" {
		t.Fatalf("saved %+v", v)
	}
	// Independent: AWS's daily cost from the 1st of the month to yesterday.
	series, _, err := s.DailySeries(ctx, v.Status.PeriodStart, "2026-06-09", s.cfg.Analysis.CostMetric)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for _, x := range series[model.AWS] {
		want += x
	}
	if math.Abs(v.Status.Actual-want) > 1e-6*want || v.Status.Period != "2026-06" {
		t.Fatalf("actual %.4f in %s, the daily series sum to %.4f", v.Status.Actual, v.Status.Period, want)
	}
	all, err := s.Budgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Source != BudgetFromConfig || all[1].ID != v.ID {
		t.Fatalf("budgets %+v", all)
	}
	// Change it; its status follows.
	v2, err := s.SaveBudget(ctx, v.ID, config.Budget{Name: "aws monthly", Amount: want / 2, Period: "monthly",
		Scope: config.BudgetScope{Provider: model.AWS}}, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if v2.Status.ActualThreshold != 100 || v2.ChangedBy != "bob" {
		t.Fatalf("halved budget %+v", v2.Status)
	}
	// Bad input, each naming its field.
	for field, b := range map[string]config.Budget{
		"name":           {Amount: 1, Period: "monthly"},
		"amount":         {Name: "x", Amount: -1, Period: "monthly"},
		"period":         {Name: "x", Amount: 1, Period: "weekly"},
		"scope.provider": {Name: "x", Amount: 1, Period: "monthly", Scope: config.BudgetScope{Provider: "IBM Cloud"}},
		"scope.tag":      {Name: "x", Amount: 1, Period: "monthly", Scope: config.BudgetScope{Tag: "team"}},
	} {
		_, err := s.SaveBudget(ctx, 0, b, "alice")
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Details["field"] != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	for _, name := range []string{"from-file", "aws monthly"} {
		if _, err := s.SaveBudget(ctx, 0, config.Budget{Name: name, Amount: 1, Period: "monthly"}, "alice"); err == nil {
			t.Errorf("a second budget named %q was saved", name)
		}
	}
	if err := s.DeleteBudget(ctx, v.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteBudget(ctx, v.ID, "alice"); !errors.Is(err, apperr.E(apperr.NotFound, "")) {
		t.Fatalf("deleting again: %v", err)
	}
	if all, _ = s.Budgets(ctx); len(all) != 1 {
		t.Fatalf("after delete: %+v", all)
	}
	ev, err := s.store.AuditEvents(ctx, 5)
	if err != nil || ev[0].Event != AuditBudgetDelete || ev[1].Event != AuditBudgetSave || ev[1].Username != "bob" {
		t.Fatalf("audit %+v %v", ev, err)
	}
}
