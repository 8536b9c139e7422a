package service

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestBudgetsAndAnomaliesOnAISpend: beside an AWS export with compute and
// Bedrock lines, the OpenAI connector's synced costs are counted by a
// budget scoped to provider openai, and with the Bedrock line by one
// scoped to the category AI and Machine Learning (which leaves compute
// out); a budget stored through the service keeps its category; a spike
// in the OpenAI costs is an anomaly of provider openai.
func TestBudgetsAndAnomaliesOnAISpend(t *testing.T) {
	const key = "sk-admin-budget-test"
	spike := time.Date(2026, 6, 8, 0, 0, 0, 0, time.UTC)
	srv, _ := openAICostsServer(t, key, func(d time.Time) float64 {
		if d.Equal(spike) {
			return 40
		}
		return 1.25 + 0.05*float64(d.Weekday()) // a little weekly shape
	})
	t.Setenv("OPENAI_ADMIN_KEY", key)
	now := testNow // June 2026, yesterday 2026-06-09
	s, _, _ := openVendor(t, `openai: {enabled: true, endpoint: `+srv.URL+`}
aws: {enabled: true, source: export, region: us-east-1}
budgets:
  - {name: all, amount: 1000, period: monthly}
  - {name: openai, amount: 100, period: monthly, scope: {provider: openai}}
  - {name: ai, amount: 100, period: monthly, scope: {category: AI and Machine Learning}}
`, &now)
	ctx := adminCtx()
	if _, err := s.Sync(ctx, "openai", 60); err != nil {
		t.Fatal(err)
	}
	aws := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-06-01", To: "2026-06-09", Lines: []model.CostLine{
		{Day: "2026-06-02", Provider: model.AWS, Service: "Amazon Elastic Compute Cloud", ServiceCategory: "Compute", ChargeCategory: "Usage",
			Billed: model.NanosFromFloat(100), Effective: model.NanosFromFloat(100), Currency: "USD"},
		{Day: "2026-06-03", Provider: model.AWS, Service: "Amazon Bedrock", ServiceCategory: "AI and Machine Learning", ChargeCategory: "Usage",
			Usage: "USE1-NovaPro-input-tokens", Unit: "1K tokens", Quantity: 1000,
			Billed: model.NanosFromFloat(7.5), Effective: model.NanosFromFloat(7.5), Currency: "USD"},
	}}
	if err := s.store.ReplaceHistory(ctx, aws); err != nil {
		t.Fatal(err)
	}
	var openaiJune float64 // June 1-9, computed as the server makes it
	for d := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC); !d.After(time.Date(2026, 6, 9, 0, 0, 0, 0, time.UTC)); d = d.AddDate(0, 0, 1) {
		in := 1.25 + 0.05*float64(d.Weekday())
		if d.Equal(spike) {
			in = 40
		}
		openaiJune += in + 0.5
	}
	views, err := s.Budgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"all": openaiJune + 107.5, "openai": openaiJune, "ai": openaiJune + 7.5}
	for _, v := range views {
		w, ok := want[v.Status.Budget.Name]
		if !ok || !v.Measured || !relClose(v.Status.Actual, w) {
			t.Errorf("budget %s: measured %v, actual %v, want %v", v.Status.Budget.Name, v.Measured, v.Status.Actual, w)
		}
	}

	// A stored budget keeps its category.
	saved, err := s.SaveBudget(ctx, 0, config.Budget{Name: "ai stored", Amount: 50, Period: "monthly",
		Scope: config.BudgetScope{Category: "AI and Machine Learning", Provider: model.AWS}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if saved.Status.Budget.Scope.Category != "AI and Machine Learning" || !relClose(saved.Status.Actual, 7.5) {
		t.Errorf("stored budget %+v, want the Bedrock line's 7.5", saved.Status)
	}

	list, err := s.Anomalies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range list.Anomalies {
		found = found || (a.Provider == model.OpenAI && a.Day == "2026-06-08")
	}
	if !found || len(list.Series[model.OpenAI]) == 0 {
		t.Errorf("no openai anomaly on 2026-06-08 among %+v", list.Anomalies)
	}
}
