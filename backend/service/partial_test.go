package service

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// failing is an api provider whose cost call fails the way a connector
// reports bad credentials.
type failing struct{ key model.ProviderKey }

func (f failing) Key() model.ProviderKey      { return f.key }
func (f failing) Source() model.SourceKind    { return model.SourceAPI }
func (f failing) Check(context.Context) error { return f.err() }
func (f failing) FetchCosts(context.Context, string, string) (model.Batch, error) {
	return model.Batch{}, f.err()
}
func (f failing) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{}, f.err()
}
func (f failing) err() error {
	return apperr.E(apperr.Provider, "the security token included in the request is invalid").
		WithProvider(string(f.key)).WithDetail(model.FailureDetail, "bad_credentials")
}

func TestOneFailingProviderDoesNotStopTheOthers(t *testing.T) {
	cfg, err := config.Parse([]byte(`
aws: {enabled: true, source: api, region: us-east-1}
gcp: {enabled: true, source: demo}
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg := provider.NewRegistry()
	reg.Register(model.AWS, model.SourceAPI, func(*config.Config, provider.Credentials) (provider.Provider, error) {
		return failing{model.AWS}, nil
	})
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(), Now: func() time.Time { return testNow }, Registry: reg, NoLive: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := adminCtx()
	res, err := s.Sync(ctx, "", 30)
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Provider || e.Provider != "aws" {
		t.Fatalf("want aws's ProviderError, got %v", err)
	}
	if len(res) != 2 || res[0].Error == "" || res[1].Error != "" || res[1].Lines == 0 {
		t.Fatalf("results %+v", res)
	}
	st, err := s.ProviderStatus(ctx)
	if err != nil || st[model.AWS] || !st[model.GCP] {
		t.Fatalf("status %v %v", st, err)
	}
	d, _ := s.ProviderDetails(ctx)
	if d[0].Provider != model.AWS || d[0].Error == "" {
		t.Fatalf("details %+v", d[0])
	}
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{})
	if err != nil || a.Providers[model.GCP].TotalCost <= 0 || a.Providers[model.AWS].TotalCost != 0 {
		t.Fatalf("analysis with aws failing: %v %+v", err, a.Summary)
	}
	v, _ := s.ValidateCredentials(ctx)
	if v[model.AWS].Valid || v[model.AWS].Error == "" || !v[model.GCP].Valid {
		t.Fatalf("credentials %+v", v)
	}
}
