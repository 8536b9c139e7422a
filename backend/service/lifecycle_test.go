package service

import (
	"errors"
	"io"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/lifecycle"
	"github.com/costpilot/costpilot/backend/model"
)

func savingsOf(recs []model.Recommendation) float64 {
	var n float64
	for _, r := range recs {
		n += r.PotentialSavings
	}
	return n
}

// TestRecommendationLifecycle walks every transition on the demo: what is
// listed and counted, who and when in the audit log, and the states kept
// across a restart and a regeneration.
func TestRecommendationLifecycle(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, nil)
	open, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) < 4 {
		t.Fatalf("%d recommendations on the demo", len(open))
	}
	total := savingsOf(open)
	a, b, c := open[0], open[1], open[2]

	// Dismissing needs a reason; an unknown state or id is refused.
	for _, bad := range []struct {
		id string
		c  StateChange
	}{
		{a.ID, StateChange{State: "dismissed"}},
		{a.ID, StateChange{State: "closed"}},
		{a.ID, StateChange{State: "snoozed", Until: "2026-06-09"}},
		{a.ID, StateChange{State: "done", Until: "2026-07-01"}},
		{"ffffffffffffffff", StateChange{State: "done"}},
	} {
		if _, err := s.SetRecommendationState(ctx, bad.id, bad.c, "alice"); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
	r, err := s.SetRecommendationState(ctx, a.ID, StateChange{State: "dismissed", Reason: "reserved for the launch"}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if lc := r.Lifecycle; lc.State != model.RecDismissed || lc.Reason != "reserved for the launch" || lc.By != "alice" || lc.At == "" {
		t.Fatalf("dismissed: %+v", lc)
	}
	// A unique prefix of 8 names it too (the CLI shows 8 characters).
	if _, err := s.SetRecommendationState(ctx, b.ID[:8], StateChange{State: "snoozed", Until: "2026-06-20"}, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRecommendationState(ctx, c.ID, StateChange{State: "done"}, "carol"); err != nil {
		t.Fatal(err)
	}
	now, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := total - a.PotentialSavings - b.PotentialSavings - c.PotentialSavings
	if len(now) != len(open)-3 || math.Abs(savingsOf(now)-want) > 1e-6 {
		t.Fatalf("open now %d (%.2f), want %d (%.2f)", len(now), savingsOf(now), len(open)-3, want)
	}
	for state, id := range map[string]string{"dismissed": a.ID, "snoozed": b.ID, "done": c.ID} {
		got, err := s.Recommendations(ctx, RecommendationFilter{State: state})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].ID != id {
			t.Fatalf("state %s lists %d", state, len(got))
		}
	}
	all, err := s.Recommendations(ctx, RecommendationFilter{State: "all"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(open) {
		t.Fatalf("all lists %d of %d", len(all), len(open))
	}
	if _, err := s.Recommendations(ctx, RecommendationFilter{State: "closed"}); !errors.Is(err, apperr.E(apperr.Validation, "")) {
		t.Fatalf("unknown state filter: %v", err)
	}
	done, err := s.Recommendation(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs := done.Recommendation.Lifecycle.Realized; rs == nil || rs.DoneOn != "2026-06-10" || rs.DaysBefore != lifecycle.RealizedDays {
		t.Fatalf("realized of a done recommendation: %+v", rs)
	}
	if len(done.DailyCost) != detailDays {
		t.Fatalf("detail has %d days of cost", len(done.DailyCost))
	}
	events, err := s.store.AuditEvents(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) < 3 || events[0].Event != AuditRecState || events[0].Username != "carol" || events[0].Details["state"] != "done" {
		t.Fatalf("audit: %+v", events[:min(3, len(events))])
	}

	// Kept across a restart, after the snooze ends, and a regeneration
	// (the history changes, so the recommendations are computed again).
	dir := s.dataDir
	s.Close()
	later, err := OpenWith(ctx, config.Default(), Options{DataDir: dir, Now: func() time.Time { return testNow.AddDate(0, 0, 12) },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NoLive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if err := later.store.BumpHistoryVersion(ctx); err != nil {
		t.Fatal(err)
	}
	byID := map[string]model.RecState{}
	all, err = later.Recommendations(ctx, RecommendationFilter{State: "all"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		byID[r.ID] = r.Lifecycle.State
	}
	if byID[a.ID] != model.RecDismissed || byID[b.ID] != model.RecOpen || byID[c.ID] != model.RecDone {
		t.Fatalf("after restart and the snooze's end: %s %s %s", byID[a.ID], byID[b.ID], byID[c.ID])
	}
	// Reopen.
	r, err = later.SetRecommendationState(ctx, a.ID, StateChange{State: "open"}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if r.Lifecycle.State != model.RecOpen {
		t.Fatalf("reopened: %+v", r.Lifecycle)
	}
}

// TestRealizedSavings: a resource that cost 10 a day and 4 a day after its
// recommendation was done saved 6 a day.
func TestRealizedSavings(t *testing.T) {
	ctx := adminCtx()
	cfg := exportConfig(t)
	s := openFresh(t, cfg)
	done := "2026-05-21" // testNow is 2026-06-10: 20 days since, through yesterday
	var lines []model.CostLine
	for d := -40; d < 20; d++ {
		day := time.Date(2026, 5, 21, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d).Format(model.DateLayout)
		cost := "10"
		if d >= 0 {
			cost = "4"
		}
		n, _ := model.ParseNanos(cost)
		lines = append(lines, model.CostLine{Provider: model.AWS, Day: day, BillingAccount: "a1", Service: "EC2",
			ResourceID: "i-1", Currency: "USD", Billed: n, Effective: n, List: n},
			model.CostLine{Provider: model.AWS, Day: day, BillingAccount: "a1", Service: "EC2",
				ResourceID: "i-2", Currency: "USD", Billed: n * 3, Effective: n * 3, List: n * 3})
	}
	if err := s.store.ReplaceHistory(ctx, model.Batch{Provider: model.AWS, Source: model.SourceExport,
		From: lines[0].Day, To: lines[len(lines)-1].Day, Lines: lines}); err != nil {
		t.Fatal(err)
	}
	rec := model.Recommendation{Type: model.RecRightsizing, Provider: model.AWS, ResourceID: "i-1"}
	rs, err := s.realized(ctx, rec, done+"T09:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	if rs.DoneOn != done || rs.DaysAfter != 20 || rs.DailyBefore != 10 || rs.DailyAfter != 4 ||
		math.Abs(rs.Monthly-6*model.DaysPerMonth) > 1e-9 || rs.Currency != "USD" {
		t.Fatalf("realized %+v, want 10 → 4 a day, %.4f a month", rs, 6*model.DaysPerMonth)
	}
}
