package service

import (
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/anomaly"
	"github.com/costpilot/costpilot/backend/model"
)

// TestCostPerUnitAnomaly: with a flat daily cost and the units halved on
// one day, that day's cost per unit doubles: it is listed as a
// cost-per-unit anomaly with its cost and units and their usual values,
// it alerts, and no cost anomaly is found; acknowledging it silences the
// alert.
func TestCostPerUnitAnomaly(t *testing.T) {
	ctx := adminCtx()
	s := openFresh(t, exportConfig(t))
	start, _ := model.ParseDayNum("2026-02-01")
	last, _ := model.ParseDayNum("2026-06-09") // yesterday at testNow
	spike := last - 2
	var lines []model.CostLine
	for d := start; d <= last; d++ {
		n := nanos(t, "20")
		lines = append(lines, model.CostLine{Provider: model.AWS, Day: d.String(), BillingAccount: "a1", Service: "EC2",
			ResourceID: "i-1", Currency: "USD", Billed: n, Effective: n, List: n})
	}
	if err := s.store.ReplaceHistory(ctx, model.Batch{Provider: model.AWS, Source: model.SourceExport,
		From: start.String(), To: last.String(), Lines: lines}); err != nil {
		t.Fatal(err)
	}
	csv := unitsCSV("date,metric,value", "orders", "", start, last, func(i int) float64 {
		if start+model.DayNum(i) == spike {
			return 500
		}
		return 1000
	})
	if _, err := s.ImportUnits(ctx, "orders.csv", strings.NewReader(csv)); err != nil {
		t.Fatal(err)
	}
	list, err := s.Anomalies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id := anomaly.PerUnitID("orders", spike.String())
	var found *AnomalyView
	for i, a := range list.Anomalies {
		if a.Scope != AnomalyPerUnit {
			t.Errorf("a cost anomaly with a flat cost: %+v", a)
			continue
		}
		if a.ID == id {
			found = &list.Anomalies[i]
		}
	}
	if found == nil || len(list.Anomalies) != 1 {
		t.Fatalf("want only %s, got %+v", id, list.Anomalies)
	}
	pu := found.PerUnit
	if pu == nil || pu.Metric != "orders" || pu.Cost != 20 || pu.Units != 500 || pu.UsualCost != 20 || pu.UsualUnits != 1000 ||
		!relClose(found.Actual, 0.04) || !relClose(found.Expected, 0.02) {
		t.Fatalf("anomaly %+v, per unit %+v", found, pu)
	}
	alertIDs := func() map[string]string {
		alerts, err := s.Alerts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, a := range alerts {
			out[a.ID] = a.Message
		}
		return out
	}
	if msg, ok := alertIDs()[id]; !ok || !strings.Contains(msg, "Cost per orders") {
		t.Fatalf("no alert %s: %v", id, alertIDs())
	}
	if _, err := s.DecideAnomaly(ctx, id, AnomalyDecisionRequest{Action: AnomalyAcknowledged, Reason: "a sales outage"}, "alice"); err != nil {
		t.Fatal(err)
	}
	if _, ok := alertIDs()[id]; ok {
		t.Fatal("an acknowledged cost-per-unit anomaly still alerts")
	}
}
