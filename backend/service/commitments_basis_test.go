package service

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// fleetFile is a FOCUS fleet of scripts/genfocus (go run ./scripts/genfocus
// -daily -resources 60 -days 31 -end 2026-05-01): 60 resources of the four
// clouds, a row per resource and day, some covered by reservations, no
// charge descriptions or usage types. It ends 40 days before testNow.
var fleetFile = filepath.Join("testdata", "commitments", "focus-fleet-60.csv.gz")

// TestEligibleUsageAgrees is the acceptance test of one eligible-usage
// figure: for every provider, the commitment recommendation's eligible
// usage is the Commitments view's over the recommendation's days, on the
// demo and on a generated FOCUS fleet imported from a file.
func TestEligibleUsageAgrees(t *testing.T) {
	tests := []struct {
		name string
		open func(t *testing.T) *Service
	}{
		{"demo", func(t *testing.T) *Service { return openDemo(t, nil) }},
		{"generated FOCUS fleet", func(t *testing.T) *Service {
			s := openFresh(t, allExports(t))
			if _, err := s.ImportFiles(adminCtx(), []string{fleetFile}, ImportOptions{}); err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.open(t)
			ctx := adminCtx()
			recs, err := s.GenerateRecommendations(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range model.AllProviders {
				rec := commitmentOf(recs, p)
				if rec == nil || rec.Basis == nil {
					t.Fatalf("%s: no commitment recommendation with its days in %d recommendations", p, len(recs))
				}
				view := totalOf(commitmentsFor(t, s, CommitmentRequest{Start: rec.Basis.From, End: rec.Basis.To}), p)
				got, _ := rec.Details["eligible_on_demand_cost"].(float64)
				if view == nil || view.EligibleOnDemand <= 0 || math.Abs(got-view.EligibleOnDemand) > 0.005 {
					t.Fatalf("%s %s to %s: the recommendation's eligible usage %v, the Commitments view's %+v",
						p, rec.Basis.From, rec.Basis.To, rec.Details["eligible_on_demand_cost"], view)
				}
			}
		})
	}
}

// TestRecommendationsOnTheLastDaysWithData: a history that ends 40 days
// before today still gets its commitment recommendations, over its last
// 30 days with data, and they and the Commitments view's default period
// say which days and why.
func TestRecommendationsOnTheLastDaysWithData(t *testing.T) {
	s := openFresh(t, allExports(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{fleetFile}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want := model.Basis{From: "2026-04-02", To: "2026-05-01"}
	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range model.AllProviders {
		rec := commitmentOf(recs, p)
		if rec == nil || rec.Basis == nil || rec.Basis.From != want.From || rec.Basis.To != want.To ||
			!strings.Contains(rec.Basis.Reason, "2026-05-01") || !strings.Contains(rec.Description, "2026-04-02 to 2026-05-01") {
			t.Fatalf("%s: commitment %+v, want one over %+v that says why", p, rec, want)
		}
	}
	rep := commitmentsFor(t, s, CommitmentRequest{})
	if rep.Basis == nil || rep.Basis.From != want.From || rep.Basis.To != want.To || rep.Basis.Reason == "" ||
		rep.Period.StartDate != want.From || rep.Period.EndDate != want.To {
		t.Fatalf("default period %+v basis %+v, want %+v with a reason", rep.Period, rep.Basis, want)
	}
	for _, p := range model.AllProviders {
		if v := totalOf(rep, p); v == nil || v.EligibleOnDemand <= 0 || v.Coverage == nil {
			t.Fatalf("%s: %+v, want eligible usage and coverage", p, v)
		}
	}
	// Another period is read as asked.
	days := 60
	p, err := s.CommitmentPeriod(CommitmentRequest{Days: &days, Period: string(model.PeriodDays)})
	if err != nil {
		t.Fatal(err)
	}
	if p2, b, err := s.commitmentWindow(ctx, s.scope(ctx, model.AllProviders), p); err != nil || b != nil || !p2.Start.Equal(p.Start) {
		t.Fatalf("an explicit period moved: %v %+v %v", p2, b, err)
	}
}

// commitmentsFor is the Commitments view of a request.
func commitmentsFor(t *testing.T, s *Service, r CommitmentRequest) model.CommitmentReport {
	t.Helper()
	p, err := s.CommitmentPeriod(r)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Commitments(adminCtx(), p)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func commitmentOf(recs []model.Recommendation, p model.ProviderKey) *model.Recommendation {
	for i := range recs {
		if recs[i].Type == model.RecCommitment && recs[i].Provider == p {
			return &recs[i]
		}
	}
	return nil
}

func totalOf(rep model.CommitmentReport, p model.ProviderKey) *model.CommitmentSummary {
	for i := range rep.Providers {
		if rep.Providers[i].Provider == p && rep.Providers[i].Type == "" {
			return &rep.Providers[i]
		}
	}
	return nil
}
