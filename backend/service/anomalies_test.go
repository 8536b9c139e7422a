package service

import (
	"errors"
	"testing"

	"github.com/costpilot/costpilot/backend/anomaly"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/demo"
)

// TestAnomaliesFindTheDemosSpikes: over the whole history, every spike the
// demo injects (a provider's data transfer multiplied on four days) is
// listed for its service, and each provider-level anomaly that day names
// that service as its first driver; the detail names the resources.
func TestAnomaliesFindTheDemosSpikes(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, nil)
	list, err := s.Anomalies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]AnomalyView{}
	for _, a := range list.Anomalies {
		byID[a.ID] = a
	}
	for _, k := range model.AllProviders {
		days, svc := demo.Spikes(k, testNow)
		if len(days) == 0 || svc == "" {
			t.Fatalf("%s: demo spikes %v of %q", k, days, svc)
		}
		for _, d := range days {
			if d > list.To {
				continue // not billed yet
			}
			a, ok := byID[anomaly.ID(k, d, svc)]
			if !ok {
				t.Errorf("%s %s: the injected %s spike is not listed", k, d, svc)
				continue
			}
			if a.Actual < 2*a.Expected {
				t.Errorf("%s %s %s: actual %.2f against %.2f", k, d, svc, a.Actual, a.Expected)
			}
			if p, ok := byID[anomaly.ID(k, d, "")]; ok && (len(p.Drivers) == 0 || p.Drivers[0].Service != svc) {
				t.Errorf("%s %s: provider anomaly driven by %+v, want %s first", k, d, p.Drivers, svc)
			}
		}
		if len(list.Series[k]) < 300 {
			t.Errorf("%s: %d days of series", k, len(list.Series[k]))
		}
	}
	// The demo's growth, launches and migration are level shifts, not
	// spikes: nearly everything listed is an injected spike.
	spike := 0
	for _, a := range list.Anomalies {
		days, _ := demo.Spikes(a.Provider, testNow)
		for _, d := range days {
			if d == a.Day {
				spike++
				break
			}
		}
	}
	if len(list.Anomalies) == 0 || float64(spike) < 0.8*float64(len(list.Anomalies)) {
		t.Errorf("%d of %d anomalies listed are injected spikes", spike, len(list.Anomalies))
	}
}

// TestAnomalyResources: the detail of a service's spike names the
// resource whose cost jumped, against its own same-weekday baseline.
func TestAnomalyResources(t *testing.T) {
	ctx := adminCtx()
	s := openFresh(t, exportConfig(t))
	start, _ := model.ParseDayNum("2026-03-01")
	spike := start + 60
	var lines []model.CostLine
	for d := start; d < start+90; d++ {
		for _, r := range []struct {
			id   string
			cost string
		}{{"i-steady", "10"}, {"i-jumpy", "5"}} {
			c := r.cost
			if r.id == "i-jumpy" && d == spike {
				c = "45"
			}
			n := nanos(t, c)
			lines = append(lines, model.CostLine{Provider: model.AWS, Day: d.String(), BillingAccount: "a1", Service: "EC2",
				ResourceID: r.id, Currency: "USD", Billed: n, Effective: n, List: n})
		}
	}
	if err := s.store.ReplaceHistory(ctx, model.Batch{Provider: model.AWS, Source: model.SourceExport,
		From: start.String(), To: (start + 89).String(), Lines: lines}); err != nil {
		t.Fatal(err)
	}
	d, err := s.Anomaly(ctx, anomaly.ID(model.AWS, spike.String(), "EC2"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Resources) != 1 || d.Resources[0].ResourceID != "i-jumpy" || d.Resources[0].Excess != 40 || d.Resources[0].Expected != 5 {
		t.Fatalf("resources %+v, want i-jumpy 45 against 5", d.Resources)
	}
}

// TestAnomalyDecisions: acknowledging needs a reason; an ignored pattern
// covers the provider's other anomalies of that service; "open" takes a
// decision back.
func TestAnomalyDecisions(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, nil)
	days, svc := demo.Spikes(model.Azure, testNow)
	id := anomaly.ID(model.Azure, days[0], svc)
	if _, err := s.DecideAnomaly(ctx, id, AnomalyDecisionRequest{Action: AnomalyAcknowledged}, "alice"); !errors.Is(err, apperr.E(apperr.Validation, "")) {
		t.Fatalf("no reason: %v", err)
	}
	if _, err := s.DecideAnomaly(ctx, "anomaly:aws:1999-01-01", AnomalyDecisionRequest{Action: AnomalyIgnored, Reason: "x"}, "alice"); !errors.Is(err, apperr.E(apperr.NotFound, "")) {
		t.Fatalf("unknown id: %v", err)
	}
	a, err := s.DecideAnomaly(ctx, id, AnomalyDecisionRequest{Action: AnomalyIgnored, Reason: "backup transfer, planned", Pattern: true}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if a.Decision == nil || a.Decision.Action != AnomalyIgnored || !a.Decision.Pattern || a.Decision.Service != svc || a.Decision.By != "alice" {
		t.Fatalf("decision %+v", a.Decision)
	}
	list, err := s.Anomalies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range list.Anomalies {
		if x.Provider == model.Azure && x.Service == svc && !x.Suppressed {
			t.Fatalf("%s not covered by the ignored pattern", x.ID)
		}
	}
	if _, err := s.DecideAnomaly(ctx, id, AnomalyDecisionRequest{Action: "open"}, "alice"); err != nil {
		t.Fatal(err)
	}
	list, _ = s.Anomalies(ctx)
	for _, x := range list.Anomalies {
		if x.Suppressed || x.Decision != nil {
			t.Fatalf("%s still decided after open: %+v", x.ID, x.Decision)
		}
	}
}
