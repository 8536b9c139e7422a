package service

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// committing is a live AWS connector that reads commitments: each day one
// reservation covering $30 of list usage for $20, bought at $24, and $10
// of eligible usage on demand; or, when note is set, none, saying why.
type committing struct{ note *string }

func (c committing) Key() model.ProviderKey      { return model.AWS }
func (c committing) Source() model.SourceKind    { return model.SourceAPI }
func (c committing) Check(context.Context) error { return nil }
func (c committing) CommitmentsNote() string     { return "" }
func (c committing) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{Provider: model.AWS}, nil
}
func (c committing) FetchCosts(_ context.Context, from, to string) (model.Batch, error) {
	b := model.Batch{Provider: model.AWS, Source: model.SourceAPI, From: from, To: to, Accounts: []string{"111111111111"}}
	f, _ := time.Parse(model.DateLayout, from)
	t, _ := time.Parse(model.DateLayout, to)
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		b.Lines = append(b.Lines, model.CostLine{Provider: model.AWS, Day: d.Format(model.DateLayout), BillingAccount: "111111111111",
			Service: "Amazon Elastic Compute Cloud - Compute", Currency: "USD", Billed: 30 * model.NanosPerUnit,
			Effective: 30 * model.NanosPerUnit, List: 30 * model.NanosPerUnit})
		if *c.note != "" {
			continue
		}
		day := model.DayOf(d)
		b.Commitments = append(b.Commitments,
			model.CommitmentFact{Account: "111111111111", Day: day, Currency: "USD", OnDemand: 10 * model.NanosPerUnit},
			model.CommitmentFact{Account: "111111111111", Day: day, Currency: "USD", ID: "ri-1", Type: "Reserved Instance", Category: "Usage",
				CoveredList: 30 * model.NanosPerUnit, CoveredCost: 20 * model.NanosPerUnit, Used: 20 * model.NanosPerUnit, Unused: 4 * model.NanosPerUnit})
	}
	b.CommitmentsNote = *c.note
	return b, nil
}

// TestLiveCommitments: a live connector that reads commitments shows its
// numbers; one that does not (GCP here) says so; a sync whose commitment
// calls failed makes its days "not reported" with the connector's reason,
// and a period that also has earlier days is reported with a note.
func TestLiveCommitments(t *testing.T) {
	cfg, err := config.Parse([]byte(`
aws: {enabled: true, source: api, region: us-east-1}
gcp: {enabled: true, source: api, project_id: p, billing_table: p.d.t}
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	note := ""
	var asked [][2]string
	reg := provider.NewRegistry()
	reg.Register(model.AWS, model.SourceAPI, func(*config.Config, provider.Credentials) (provider.Provider, error) {
		return committing{&note}, nil
	})
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
	row := func(rep model.CommitmentReport, k model.ProviderKey) model.CommitmentSummary {
		t.Helper()
		for _, r := range rep.Providers {
			if r.Provider == k && r.Type == "" {
				return r
			}
		}
		t.Fatalf("no %s row in %+v", k, rep.Providers)
		return model.CommitmentSummary{}
	}
	period := func(days int) model.Period {
		p, err := s.CommitmentPeriod(CommitmentRequest{Days: &days})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	// Before any sync: the AWS connector reads commitments, but nothing is
	// stored yet.
	rep, err := s.Commitments(ctx, period(10))
	if err != nil {
		t.Fatal(err)
	}
	if r := row(rep, model.AWS); r.Reported || r.Note == "" {
		t.Errorf("aws before a sync: %+v, want not reported with a reason", r)
	}

	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	rep, err = s.Commitments(ctx, period(10))
	if err != nil {
		t.Fatal(err)
	}
	aws := row(rep, model.AWS)
	// 10 days: covered list 300 of eligible 400; utilization 200/240;
	// net savings 300 - 200 - 40 = 60.
	if !aws.Reported || aws.Note != "" || aws.Coverage == nil || *aws.Coverage != 0.75 ||
		aws.Utilization == nil || *aws.Utilization != 200.0/240 || aws.NetSavings != 60 {
		t.Errorf("aws = %+v, want reported: coverage 0.75, utilization 200/240, net savings 60", aws)
	}
	if g := row(rep, model.GCP); g.Reported || !strings.Contains(g.Note, "does not read commitment discounts") {
		t.Errorf("gcp (a connector without commitments) = %+v, want not reported, saying so", g)
	}

	// The commitment calls fail from now on: the sync warns, and the days
	// it replaced have no facts.
	note = "commitment discounts not read in the last sync (its costs are complete): aws: Cost Explorer GetReservationUtilization: the credentials lack a permission this call needs"
	now = now.AddDate(0, 0, 1)
	res, err := s.Sync(ctx, model.AWS, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || !strings.Contains(res[0].Warning, note) {
		t.Errorf("sync results %+v, want the note as a warning", res)
	}
	rep, err = s.Commitments(ctx, period(3))
	if err != nil {
		t.Fatal(err)
	}
	if r := row(rep, model.AWS); r.Reported || !strings.Contains(r.Note, note) {
		t.Errorf("aws over the failed sync's days = %+v, want not reported with the failure", r)
	}
	rep, err = s.Commitments(ctx, period(10))
	if err != nil {
		t.Fatal(err)
	}
	if r := row(rep, model.AWS); !r.Reported || !strings.HasPrefix(r.Note, "partly reported") || !strings.Contains(r.Note, note) {
		t.Errorf("aws over earlier days too = %+v, want reported, noting the failure", r)
	}

	// A later sync that reads them again clears the note.
	note = ""
	if _, err := s.Sync(ctx, model.AWS, 10); err != nil {
		t.Fatal(err)
	}
	rep, err = s.Commitments(ctx, period(3))
	if err != nil {
		t.Fatal(err)
	}
	if r := row(rep, model.AWS); !r.Reported || r.Note != "" {
		t.Errorf("aws after a good sync = %+v, want reported without a note", r)
	}
}

// unpriced is a live Azure connector whose commitments carry no on-demand
// price: each day one reservation of 24 hours, 18 used, bought at 8 (6
// used, 2 unused), and an eligible-usage fact without amounts.
type unpriced struct{}

func (unpriced) Key() model.ProviderKey      { return model.Azure }
func (unpriced) Source() model.SourceKind    { return model.SourceAPI }
func (unpriced) Check(context.Context) error { return nil }
func (unpriced) CommitmentsNote() string     { return "" }
func (unpriced) CoverageNote() string        { return "no on-demand price here" }
func (unpriced) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{Provider: model.Azure}, nil
}
func (unpriced) FetchCosts(_ context.Context, from, to string) (model.Batch, error) {
	const sub = "sub-1"
	b := model.Batch{Provider: model.Azure, Source: model.SourceAPI, From: from, To: to, Accounts: []string{sub}}
	f, _ := time.Parse(model.DateLayout, from)
	t, _ := time.Parse(model.DateLayout, to)
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		b.Lines = append(b.Lines, model.CostLine{Provider: model.Azure, Day: d.Format(model.DateLayout), BillingAccount: sub,
			Service: "Virtual Machines", Currency: "EUR", Billed: 8 * model.NanosPerUnit, Effective: 8 * model.NanosPerUnit, List: 8 * model.NanosPerUnit})
		day := model.DayOf(d)
		b.Commitments = append(b.Commitments, model.CommitmentFact{Account: sub, Day: day, Currency: "EUR"},
			model.CommitmentFact{Account: sub, Day: day, Currency: "EUR", ID: "r-1", Type: "Reservation", Category: "Usage",
				CoveredCost: 6 * model.NanosPerUnit, Used: 6 * model.NanosPerUnit, Unused: 2 * model.NanosPerUnit,
				Units: 24 * model.NanosPerUnit, UnusedUnits: 6 * model.NanosPerUnit})
	}
	return b, nil
}

// TestLiveCommitmentsCoverageUnknown: a live connector without on-demand
// prices (Azure's) is reported with its utilization and unused cost, and
// coverage and savings unknown rather than zero, saying why.
func TestLiveCommitmentsCoverageUnknown(t *testing.T) {
	cfg, err := config.Parse([]byte(`
azure: {enabled: true, source: api, subscription_id: sub-1}
currency: {base: EUR}
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg := provider.NewRegistry()
	reg.Register(model.Azure, model.SourceAPI, func(*config.Config, provider.Credentials) (provider.Provider, error) { return unpriced{}, nil })
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(), Now: func() time.Time { return testNow }, Registry: reg, NoLive: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := adminCtx()
	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	days := 10
	p, err := s.CommitmentPeriod(CommitmentRequest{Days: &days})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Commitments(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Providers) != 2 {
		t.Fatalf("rows = %+v, want a total and a Reservation row", rep.Providers)
	}
	for _, r := range rep.Providers {
		if !r.Reported || !r.CoverageUnknown || r.Coverage != nil || r.EffectiveSavingsRate != nil || r.NetSavings != 0 ||
			r.Utilization == nil || *r.Utilization != 0.75 || r.UtilizationBasis != "hours" || r.UnusedCost != 2*float64(r.PurchasedCost)/8 {
			t.Errorf("row %+v: want reported, coverage and savings unknown, utilization 0.75 of hours, a quarter unused", r)
		}
	}
	if all := rep.Providers[0]; !strings.Contains(all.Note, "no on-demand price here") {
		t.Errorf("total note %q, want the connector's reason", all.Note)
	}
}
