package commitments

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// TestCoverageUnknown: a provider whose source has no on-demand price
// keeps its utilization and unused cost, and its coverage and savings are
// unknown (nil, flagged) rather than the zero or negative figures the
// missing price would give.
func TestCoverageUnknown(t *testing.T) {
	n := func(v int64) model.Nanos { return model.Nanos(v) * model.NanosPerUnit }
	totals := []Total{
		{Provider: model.Azure, Source: model.SourceAPI, Days: 2, CommitmentFact: model.CommitmentFact{
			ID: "r-1", Type: "Reservation", Category: "Usage", Currency: "EUR",
			CoveredCost: n(6), Used: n(6), Unused: n(2), Units: n(48), UnusedUnits: n(12)}},
		{Provider: model.Azure, Source: model.SourceAPI, Days: 2, CommitmentFact: model.CommitmentFact{Currency: "EUR"}},
	}
	conv := func(v model.Nanos, _ string) float64 { return v.Float64() }
	day := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	period := model.Period{Start: day.AddDate(0, 0, -1), End: day}
	tests := []struct {
		name    string
		noPrice map[model.ProviderKey]string
		unknown bool
	}{
		{"priced source", nil, false},
		{"source without on-demand prices", map[model.ProviderKey]string{model.Azure: "no price"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Report(totals, Providers{Sources: map[model.ProviderKey]model.SourceKind{model.Azure: model.SourceAPI}, CoverageUnknown: tt.noPrice},
				conv, "EUR", period, model.DayOf(day))
			if len(rep.Providers) != 2 {
				t.Fatalf("rows = %+v", rep.Providers)
			}
			for _, r := range rep.Providers {
				if r.Utilization == nil || *r.Utilization != 0.75 || r.UtilizationBasis != "hours" || r.UnusedCost != 2 || r.UsedCost != 6 {
					t.Errorf("%q: utilization %v (%s), unused %v, used %v; want 0.75 of hours, 2, 6", r.Type, r.Utilization, r.UtilizationBasis, r.UnusedCost, r.UsedCost)
				}
				if r.CoverageUnknown != tt.unknown {
					t.Errorf("%q: coverage unknown = %v, want %v", r.Type, r.CoverageUnknown, tt.unknown)
				}
				if tt.unknown && (r.Coverage != nil || r.EffectiveSavingsRate != nil || r.NetSavings != 0) {
					t.Errorf("%q = %+v, want coverage and savings unknown", r.Type, r)
				}
				// Priced, the same facts say covered usage cost nothing on
				// demand: savings of -8, which is what the flag prevents.
				if !tt.unknown && r.NetSavings != -8 {
					t.Errorf("%q: net savings %v, want -8 from the facts as given", r.Type, r.NetSavings)
				}
			}
			if all := rep.Providers[0]; tt.unknown != (all.Note == "coverage and savings unknown: no price") {
				t.Errorf("total note %q", all.Note)
			}
		})
	}
}
