package service

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// recording is an api provider that answers one line a day and records
// the spans it was asked for.
type recording struct{ asked *[][2]string }

func (r recording) Key() model.ProviderKey      { return model.GCP }
func (r recording) Source() model.SourceKind    { return model.SourceAPI }
func (r recording) Check(context.Context) error { return nil }
func (r recording) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{Provider: model.GCP}, nil
}
func (r recording) FetchCosts(_ context.Context, from, to string) (model.Batch, error) {
	*r.asked = append(*r.asked, [2]string{from, to})
	b := model.Batch{Provider: model.GCP, Source: model.SourceAPI, From: from, To: to}
	f, _ := time.Parse(model.DateLayout, from)
	t, _ := time.Parse(model.DateLayout, to)
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		b.Lines = append(b.Lines, model.CostLine{Provider: model.GCP, Day: d.Format(model.DateLayout), Service: "Compute Engine",
			Currency: "USD", Billed: 10 * model.NanosPerUnit, Effective: 10 * model.NanosPerUnit, List: 10 * model.NanosPerUnit})
	}
	return b, nil
}

func TestIncrementalSyncFetchesOnlyMissingDays(t *testing.T) {
	cfg, err := config.Parse([]byte("gcp: {enabled: true, source: api, project_id: p, billing_table: p.d.t}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var asked [][2]string
	reg := provider.NewRegistry()
	reg.Register(model.GCP, model.SourceAPI, func(*config.Config, provider.Credentials) (provider.Provider, error) {
		return recording{&asked}, nil
	})
	now := testNow
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(), Now: func() time.Time { return now }, Registry: reg, NoLive: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := adminCtx()
	// First sync: the last 10 days up to yesterday (2026-06-09).
	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	// Five days later: only the new days plus the last three again.
	now = now.AddDate(0, 0, 5)
	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"2026-05-31", "2026-06-09"}, {"2026-06-06", "2026-06-14"}}
	if len(asked) != 2 || asked[0] != want[0] || asked[1] != want[1] {
		t.Fatalf("asked %v, want %v", asked, want)
	}
	// The re-fetched days replaced, not doubled: 15 days at 10 a day.
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: model.Period{Start: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), End: now}})
	if err != nil || a.Summary.TotalCost != 150 {
		t.Fatalf("total %v %v", a.Summary.TotalCost, err)
	}
}
