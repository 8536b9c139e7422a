package service

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// advised is a live AWS connector whose account pays half the list price
// and whose recommender reports one idle volume, with a warning for a
// recommender it could not read.
type advised struct {
	mu    *sync.Mutex
	asked *int
}

func (a advised) Key() model.ProviderKey      { return model.AWS }
func (a advised) Source() model.SourceKind    { return model.SourceAPI }
func (a advised) Check(context.Context) error { return nil }
func (a advised) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{Provider: model.AWS}, nil
}
func (a advised) FetchCosts(_ context.Context, from, to string) (model.Batch, error) {
	b := model.Batch{Provider: model.AWS, Source: model.SourceAPI, From: from, To: to, Accounts: []string{"payer"}}
	f, _ := time.Parse(model.DateLayout, from)
	t, _ := time.Parse(model.DateLayout, to)
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		b.Lines = append(b.Lines, model.CostLine{Provider: model.AWS, Day: d.Format(model.DateLayout), BillingAccount: "payer",
			SubAccount: "222222222222", Service: "Amazon Elastic Compute Cloud - Compute", ChargeCategory: "Usage", Currency: "USD",
			Billed: 50 * model.NanosPerUnit, Effective: 50 * model.NanosPerUnit, List: 100 * model.NanosPerUnit})
	}
	return b, nil
}
func (a advised) Recommendations(context.Context, model.Inventory) (model.ExternalRecommendations, error) {
	a.mu.Lock()
	*a.asked++
	a.mu.Unlock()
	return model.ExternalRecommendations{Items: []model.ExternalRecommendation{{
		Recommendation: model.Recommendation{Type: model.RecIdle, Provider: model.AWS, ResourceID: "vol-orphan",
			Description: "delete it", PotentialSavings: 100, Source: model.RecSourceAWSHub},
		Account: "222222222222", Currency: "USD", ExternalID: "rec-2",
	}}, Warnings: []string{"cloud recommendations not read: access denied; grant cost-optimization-hub:ListRecommendations"}}, nil
}

// TestExternalRecommendations: a live source's recommender findings are
// listed with their source at the account's effective rate, its warnings
// logged; a demo source's recommenders are never asked.
func TestExternalRecommendations(t *testing.T) {
	cfg, err := config.Parse([]byte(`
aws: {enabled: true, source: api, region: us-east-1}
azure: {enabled: true, source: demo}
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	asked := 0
	reg := provider.NewRegistry()
	reg.Register(model.AWS, model.SourceAPI, func(*config.Config, provider.Credentials) (provider.Provider, error) {
		return advised{&mu, &asked}, nil
	})
	var logs bytes.Buffer
	var logMu sync.Mutex
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(), Now: func() time.Time { return testNow }, Registry: reg, NoLive: true,
		Logger: slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := adminCtx()
	if _, err := s.Sync(ctx, "aws", 30); err != nil {
		t.Fatal(err)
	}
	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found []model.Recommendation
	for _, r := range recs {
		if r.Source == "" {
			t.Errorf("%s %s has no source", r.Provider, r.Type)
		}
		if r.Provider == model.Azure && r.Source != model.RecSourceCostpilot {
			t.Errorf("demo azure recommendation from %s", r.Source)
		}
		if r.ResourceID == "vol-orphan" {
			found = append(found, r)
		}
	}
	if len(found) != 1 || found[0].Source != model.RecSourceAWSHub || found[0].PotentialSavings != 50 || found[0].Lifecycle == nil {
		t.Fatalf("vol-orphan = %+v, want the hub's once, saving 100 at the account's rate 0.5", found)
	}
	if asked != 1 {
		t.Errorf("recommender asked %d times, want 1", asked)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if !strings.Contains(logs.String(), "grant cost-optimization-hub:ListRecommendations") {
		t.Errorf("warning not logged: %s", logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
