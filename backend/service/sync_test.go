package service

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// warned is recording whose inventory lists a resource and comes with
// two joined warnings, as the Azure connector's does.
type warned struct{ recording }

func (w warned) Inventory(context.Context) (model.Inventory, error) {
	inv := model.Inventory{Provider: model.GCP, Resources: []model.Resource{{Provider: model.GCP, ResourceID: "vm-1", Name: "vm-1"}}}
	return inv, errors.Join(
		apperr.E(apperr.Provider, "gcp: inventory: 1 malformed item skipped, the rest kept").WithProvider("gcp"),
		apperr.E(apperr.Provider, "gcp: Monitoring: the identity lacks a role this call needs").WithProvider("gcp"))
}

// openSyncing is a Service whose gcp api provider is p.
func openSyncing(t *testing.T, p provider.Provider) *Service {
	t.Helper()
	return openLive(t, "gcp: {enabled: true, source: api, project_id: p, billing_table: p.d.t}\n", model.GCP,
		func(*config.Config, provider.Credentials) (provider.Provider, error) { return p, nil })
}

// openLive is a Service on the config yml whose api provider k comes from f.
func openLive(t *testing.T, yml string, k model.ProviderKey, f provider.Factory) *Service {
	t.Helper()
	cfg, err := config.Parse([]byte(yml), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg := provider.NewRegistry()
	reg.Register(k, model.SourceAPI, f)
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(), Now: func() time.Time { return testNow }, Registry: reg, NoLive: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSyncBackfillsExactlyTheRange(t *testing.T) {
	var asked [][2]string
	s := openSyncing(t, recording{&asked})
	ctx := adminCtx()
	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	res, err := s.RunSync(ctx, SyncRequest{Start: "2026-03-01", End: "2026-03-05"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].From != "2026-03-01" || res[0].To != "2026-03-05" || res[0].Lines != 5 {
		t.Fatalf("result %+v", res)
	}
	// Start alone runs to yesterday.
	if _, err := s.RunSync(ctx, SyncRequest{Start: "2026-06-08"}); err != nil {
		t.Fatal(err)
	}
	// The backfill does not move where the next incremental sync starts.
	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"2026-05-31", "2026-06-09"}, {"2026-03-01", "2026-03-05"}, {"2026-06-08", "2026-06-09"}, {"2026-06-06", "2026-06-09"}}
	if !slices.Equal(asked, want) {
		t.Fatalf("asked %v, want %v", asked, want)
	}
	total := func(from, to string) float64 {
		t.Helper()
		p, err := PeriodForDates(from, to)
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p})
		if err != nil {
			t.Fatal(err)
		}
		return a.Summary.TotalCost
	}
	// The history holds the five days at 10 a day, and nothing around them.
	if got := total("2026-03-01", "2026-03-05"); got != 50 {
		t.Errorf("backfilled total %v, want 50", got)
	}
	if got := total("2026-02-01", "2026-05-30"); got != 50 {
		t.Errorf("total Feb..May %v, want only the 50 backfilled", got)
	}
}

func TestSyncRequestRules(t *testing.T) {
	days := 10
	tests := []struct {
		name  string
		req   SyncRequest
		field string
	}{
		{"days and start", SyncRequest{Days: &days, Start: "2026-03-01", End: "2026-03-05"}, "days"},
		{"end without start", SyncRequest{End: "2026-03-05"}, "start"},
		{"end before start", SyncRequest{Start: "2026-03-05", End: "2026-03-01"}, "end"},
		{"not a date", SyncRequest{Start: "2026-3-1"}, "start"},
		{"today is not over", SyncRequest{Start: "2026-06-01", End: "2026-06-10"}, "end"},
		{"start in the future", SyncRequest{Start: "2026-07-01"}, "end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked [][2]string
			s := openSyncing(t, recording{&asked})
			_, err := s.RunSync(adminCtx(), tt.req)
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.Validation || e.Details["field"] != tt.field {
				t.Fatalf("err = %v, want a validation error on %s", err, tt.field)
			}
			if len(asked) != 0 {
				t.Errorf("the provider was asked %v", asked)
			}
		})
	}
}

// TestSyncWarningsWhole: each joined warning is its own entry, whole, and
// the resources listed beside them are stored.
func TestSyncWarningsWhole(t *testing.T) {
	var asked [][2]string
	s := openSyncing(t, warned{recording{&asked}})
	res, err := s.RunSync(adminCtx(), SyncRequest{})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if len(r.Warnings) != 2 || r.Resources != 1 || r.Error != "" {
		t.Fatalf("result %+v, want 2 warnings and the resource stored", r)
	}
	want := []string{"gcp: inventory: 1 malformed item skipped, the rest kept", "gcp: Monitoring: the identity lacks a role this call needs"}
	if !slices.Equal(r.Warnings, want) || r.Warning != want[0]+"; "+want[1] {
		t.Errorf("warnings %q (joined %q), want %q", r.Warnings, r.Warning, want)
	}
}
