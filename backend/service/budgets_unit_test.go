package service

import (
	"errors"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestBudgetOnCostPerUnit: a budget per a business metric measures the
// cost per unit of its scope over its period: its actual is the period's
// cost (as the same budget on spend reads it) over the period's units;
// its forecast divides the spend budget's projection by the units so
// far plus the (constant) units to come; a scoped metric divides only
// its scope's cost; crossing the limit raises an alert about the cost
// per unit; an unknown metric is refused naming the field, and a metric
// without units in the period leaves the budget unmeasured.
func TestBudgetOnCostPerUnit(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, nil)
	yday, _ := model.ParseDayNum("2026-06-09")
	const perDay = 1000.0
	orders := unitsCSV("date,metric,value", "orders", "", yday-200, yday, func(int) float64 { return perDay })
	awsOrders := unitsCSV("date,metric,value,provider", "aws_orders", ",aws", yday-200, yday, func(int) float64 { return perDay })
	old := unitsCSV("date,metric,value", "signups", "", yday-300, yday-200, func(int) float64 { return 5 })
	for name, csv := range map[string]string{"orders.csv": orders, "aws.csv": awsOrders, "old.csv": old} {
		if _, err := s.ImportUnits(ctx, name, strings.NewReader(csv)); err != nil {
			t.Fatal(err)
		}
	}
	daysSoFar := 9.0 // June 1st to 9th
	daysAhead := 21.0
	tests := []struct {
		name  string
		scope config.BudgetScope
		per   string
	}{
		{"all costs", config.BudgetScope{}, "orders"},
		{"aws scoped metric", config.BudgetScope{}, "aws_orders"},
		{"budget scope and metric", config.BudgetScope{Tag: "team:web"}, "orders"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spendScope := tt.scope
			if tt.per == "aws_orders" {
				spendScope.Provider = model.AWS
			}
			spend, err := s.SaveBudget(ctx, 0, config.Budget{Name: "spend " + tt.name, Amount: 1e9, Period: "monthly", Scope: spendScope}, "alice")
			if err != nil {
				t.Fatal(err)
			}
			v, err := s.SaveBudget(ctx, 0, config.Budget{Name: "per " + tt.name, Amount: 1e6, Period: "monthly", Scope: tt.scope, Per: tt.per}, "alice")
			if err != nil {
				t.Fatal(err)
			}
			st := v.Status
			if !v.Measured || st.Budget.Per != tt.per || st.Units != daysSoFar*perDay {
				t.Fatalf("per-unit budget %+v", v)
			}
			if spend.Status.Actual <= 0 || !relClose(st.Cost, spend.Status.Actual) || !relClose(st.Actual, spend.Status.Actual/(daysSoFar*perDay)) {
				t.Fatalf("cost %v, actual %v; spend budget %v over %v units", st.Cost, st.Actual, spend.Status.Actual, daysSoFar*perDay)
			}
			want := spend.Status.Projected / ((daysSoFar + daysAhead) * perDay)
			if !st.HasForecast || !spend.Status.HasForecast || st.Projected < 0.99*want || st.Projected > 1.01*want {
				t.Fatalf("projected %v (forecast %v), want about %v", st.Projected, st.HasForecast, want)
			}
		})
	}
	// The scoped metric's cost is a part of the whole's.
	all, err := s.Budgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]BudgetView{}
	for _, b := range all {
		byName[b.Status.Budget.Name] = b
	}
	if a, w := byName["per aws scoped metric"].Status.Cost, byName["per all costs"].Status.Cost; a <= 0 || a >= w {
		t.Fatalf("aws cost %v, all %v", a, w)
	}

	// A limit below the cost per unit alerts, in cost per unit.
	actual := byName["per all costs"].Status.Actual
	if _, err := s.SaveBudget(ctx, byName["per all costs"].ID, config.Budget{Name: "per all costs", Amount: actual / 2, Period: "monthly", Per: "orders"}, "bob"); err != nil {
		t.Fatal(err)
	}
	alerts, err := s.Alerts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range alerts {
		if a.ID == "budget:per-all-costs:2026-06:100" {
			found = strings.Contains(a.Message, "cost per orders") && a.Details["per"] == "orders" && a.Details["units"] == daysSoFar*perDay
		}
	}
	if !found {
		t.Fatalf("no cost-per-unit alert in %+v", alerts)
	}

	// A metric with no units in the period: listed, not measured.
	v, err := s.SaveBudget(ctx, 0, config.Budget{Name: "signups", Amount: 1, Period: "monthly", Per: "signups"}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if v.Measured || v.Unmeasured != UnmeasuredNoUnits {
		t.Fatalf("budget on a metric without units: %+v", v)
	}
	// An unknown metric is refused naming the field and the stored ones.
	_, err = s.SaveBudget(ctx, 0, config.Budget{Name: "x", Amount: 1, Period: "monthly", Per: "nope"}, "alice")
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.Validation || ae.Details["field"] != "per" {
		t.Fatalf("unknown metric: %v", err)
	}
	// A config file budget on a metric not stored is not measured.
	cfg := config.Default()
	cfg.Budgets = []config.Budget{{Name: "file", Amount: 1, Period: "monthly", Per: "orders"}}
	s2 := openDemo(t, cfg)
	list, err := s2.Budgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Measured || list[0].Unmeasured != UnmeasuredNoMetric {
		t.Fatalf("config budget on a missing metric: %+v", list)
	}
}
