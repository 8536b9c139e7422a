package service

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

func TestMixedCurrenciesNeedRates(t *testing.T) {
	yaml := "aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  export_paths: []\nazure:\n  enabled: true\n  source: export\n  export_paths: []\n"
	cfg, err := config.Parse([]byte(yaml), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := openDemo(t, cfg)
	ctx := adminCtx()
	line := func(p model.ProviderKey, cur, amount string) model.CostLine {
		n, _ := model.ParseNanos(amount)
		return model.CostLine{Provider: p, Day: "2026-05-01", Service: "Compute", Currency: cur, Billed: n, Effective: n, List: n}
	}
	err = s.store.ReplaceHistory(ctx,
		model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-05-01", To: "2026-05-01", Lines: []model.CostLine{line(model.AWS, "USD", "100")}},
		model.Batch{Provider: model.Azure, Source: model.SourceExport, From: "2026-05-01", To: "2026-05-01", Lines: []model.CostLine{line(model.Azure, "EUR", "50")}})
	if err != nil {
		t.Fatal(err)
	}
	q := model.CostQuery{Period: model.Period{Start: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 5, 2, 0, 0, 0, 0, time.UTC)}}
	_, err = s.AnalyzeCosts(ctx, q)
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Configuration || e.Details["field"] != "currency.rates" {
		t.Fatalf("want a ConfigurationError naming currency.rates, got %v", err)
	}
	// One currency alone needs no rate and keeps its own code.
	only, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: q.Period, Provider: model.Azure})
	if err != nil || only.Summary.Currency != "EUR" || only.Summary.TotalCost != 50 {
		t.Fatalf("azure alone: %+v %v", only.Summary, err)
	}
	s.cfg.Currency.Rates = map[string]float64{"EUR": 1.08}
	a, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if a.Summary.Currency != "USD" || !relClose(a.Summary.TotalCost, 154) || a.Summary.RatesUsed["EUR"] != 1.08 {
		t.Fatalf("converted summary %+v", a.Summary)
	}
}
