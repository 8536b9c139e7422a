package commitments

import (
	"math"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// units is whole currency units (or hours) as nano-units.
func units(v int64) model.Nanos { return model.Nanos(v) * model.NanosPerUnit }

// fact is one commitment's (or, with id "", the on-demand usage's) facts
// summed over the period, in USD.
func fact(id, typ string, coveredList, coveredCost, used, unused, onDemand int64) Total {
	return Total{Provider: model.AWS, Source: model.SourceExport, Days: 30, CommitmentFact: model.CommitmentFact{
		ID: id, Type: typ, Category: "Spend", Currency: "USD",
		CoveredList: units(coveredList), CoveredCost: units(coveredCost), Used: units(used), Unused: units(unused), OnDemand: units(onDemand)}}
}

// TestReportFormulas checks each README formula against figures worked by
// hand: coverage = covered list / (covered list + eligible on demand),
// utilization = used / (used + unused) (or of reserved hours), net
// savings = covered list - covered cost - unused, effective savings rate
// = net savings / eligible on demand.
func TestReportFormulas(t *testing.T) {
	hours := func(tt Total, purchased, unusedHours int64) Total {
		tt.Category, tt.Units, tt.UnusedUnits = "Usage", units(purchased), units(unusedHours)
		return tt
	}
	none := math.NaN()
	type want struct {
		typ                        string
		eligible, covered          float64
		coverage, utilization, esr float64 // -1: nil
		basis                      string
		savings, purchased, unused float64
		commitments                int
	}
	tests := []struct {
		name   string
		totals []Total
		want   []want // the total row first, then a row per type
	}{
		{
			// Covered $600 of list for $400, $100 of the $500 bought left
			// unused; $400 of eligible usage on demand.
			name:   "one savings plan and on-demand usage",
			totals: []Total{fact("sp-1", "Savings Plan", 600, 400, 400, 100, 0), fact("", "", 0, 0, 0, 0, 400)},
			want: []want{
				{"", 1000, 600, 0.6, 0.8, 0.1, "cost", 100, 500, 100, 1},
				{"Savings Plan", 1000, 600, 0.6, 0.8, 0.1, "cost", 100, 500, 100, 1},
			},
		},
		{
			// Two types share the provider's eligible usage: each type's
			// coverage is its own covered list over all of it.
			name: "two types",
			totals: []Total{
				fact("sp-1", "Savings Plan", 300, 200, 200, 0, 0),
				fact("ri-1", "Reserved Instance", 100, 60, 60, 20, 0),
				fact("ri-2", "Reserved Instance", 100, 60, 60, 20, 0),
				fact("", "", 0, 0, 0, 0, 500),
			},
			want: []want{
				{"", 1000, 500, 0.5, 320.0 / 360, 0.14, "cost", 140, 360, 40, 3},
				{"Reserved Instance", 1000, 200, 0.2, 120.0 / 160, 0.04, "cost", 40, 160, 40, 2},
				{"Savings Plan", 1000, 300, 0.3, 1, 0.1, "cost", 100, 200, 0, 1},
			},
		},
		{
			name:   "utilization of reserved hours when every commitment gives them",
			totals: []Total{hours(fact("ri-1", "Reserved Instance", 100, 70, 70, 30, 0), 720, 180)},
			want:   []want{{"", 100, 100, 1, 0.75, 0, "hours", 0, 100, 30, 1}, {"Reserved Instance", 100, 100, 1, 0.75, 0, "hours", 0, 100, 30, 1}},
		},
		{
			// The unused commitment outweighs the discount: savings are
			// negative, not clipped.
			name:   "a mostly unused commitment loses money",
			totals: []Total{fact("sp-1", "Savings Plan", 100, 80, 80, 120, 0), fact("", "", 0, 0, 0, 0, 100)},
			want:   []want{{"", 200, 100, 0.5, 0.4, -0.5, "cost", -100, 200, 120, 1}, {"Savings Plan", 200, 100, 0.5, 0.4, -0.5, "cost", -100, 200, 120, 1}},
		},
		{
			name:   "on-demand usage only: nothing covered, no utilization",
			totals: []Total{fact("", "", 0, 0, 0, 0, 250)},
			want:   []want{{"", 250, 0, 0, none, 0, "", 0, 0, 0, 0}},
		},
		{
			name:   "no usage at all: no ratios",
			totals: nil,
			want:   []want{{"", 0, 0, none, none, none, "", 0, 0, 0, 0}},
		},
	}
	conv := func(v model.Nanos, _ string) float64 { return v.Float64() }
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	period := model.Period{Start: day.AddDate(0, 0, -29), End: day}
	ps := Providers{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}}
	ratioIs := func(got *float64, want float64) bool {
		if math.IsNaN(want) {
			return got == nil
		}
		return got != nil && math.Abs(*got-want) < 1e-9
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Report(tt.totals, ps, conv, "USD", period, model.DayOf(day))
			if len(rep.Providers) != len(tt.want) {
				t.Fatalf("%d rows %+v, want %d", len(rep.Providers), rep.Providers, len(tt.want))
			}
			for i, w := range tt.want {
				r := rep.Providers[i]
				if r.Type != w.typ || r.EligibleOnDemand != w.eligible || r.CoveredOnDemand != w.covered ||
					!ratioIs(r.Coverage, w.coverage) || !ratioIs(r.Utilization, w.utilization) || !ratioIs(r.EffectiveSavingsRate, w.esr) ||
					r.UtilizationBasis != w.basis || r.NetSavings != w.savings || r.PurchasedCost != w.purchased ||
					r.UnusedCost != w.unused || r.UsedCost != w.purchased-w.unused || r.Commitments != w.commitments {
					t.Errorf("row %d = %+v (coverage %v, utilization %v, rate %v), want %+v", i, r,
						deref(r.Coverage), deref(r.Utilization), deref(r.EffectiveSavingsRate), w)
				}
			}
		})
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestEligibleUsage: the figure the Commitments view and the commitment
// recommendation share is covered list plus on-demand list, in the
// report currency.
func TestEligibleUsage(t *testing.T) {
	eur := fact("", "", 0, 0, 0, 0, 100)
	eur.Currency = "EUR"
	tests := []struct {
		name              string
		totals            []Total
		eligible, covered float64
	}{
		{"none", nil, 0, 0},
		{"on demand only", []Total{fact("", "", 0, 0, 0, 0, 70)}, 70, 0},
		{"covered only", []Total{fact("sp-1", "Savings Plan", 30, 20, 20, 0, 0)}, 30, 30},
		// A commitment's OnDemand is not eligible usage: only facts
		// without an id carry it.
		{"both, converted", []Total{fact("sp-1", "Savings Plan", 30, 20, 20, 0, 999), eur}, 230, 30},
	}
	conv := func(v model.Nanos, currency string) float64 {
		if currency == "EUR" {
			return 2 * v.Float64()
		}
		return v.Float64()
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EligibleUsage(tt.totals, conv); got.Eligible != tt.eligible || got.Covered != tt.covered {
				t.Fatalf("EligibleUsage = %+v, want eligible %v covered %v", got, tt.eligible, tt.covered)
			}
		})
	}
}

// TestExpiring: terms ending from today to ExpiringMax days out are
// listed, nearest first, with their daily commitment; past, unknown and
// far ends are not.
func TestExpiring(t *testing.T) {
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	today := model.DayOf(day)
	ending := func(id string, in int) Total {
		tt := fact(id, "Reserved Instance", 0, 0, 240, 60, 0)
		if in != math.MinInt {
			tt.End = today + model.DayNum(in)
		}
		return tt
	}
	totals := []Total{ending("far", ExpiringMax+1), ending("edge", ExpiringMax), ending("soon", ExpiringSoon), ending("later", ExpiringSoon+1),
		ending("today", 0), ending("past", -1), ending("unknown", math.MinInt)}
	rep := Report(totals, Providers{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}},
		func(v model.Nanos, _ string) float64 { return v.Float64() }, "USD", model.Period{Start: day.AddDate(0, 0, -29), End: day}, today)
	want := []struct {
		id     string
		left   int
		within bool
	}{{"today", 0, true}, {"soon", ExpiringSoon, true}, {"later", ExpiringSoon + 1, false}, {"edge", ExpiringMax, false}}
	if len(rep.Expiring) != len(want) {
		t.Fatalf("expiring %+v", rep.Expiring)
	}
	for i, w := range want {
		e := rep.Expiring[i]
		if e.ID != w.id || e.DaysLeft != w.left || e.ExpiringWithin30 != w.within || e.DailyCommitment != 10 {
			t.Errorf("expiring %d = %+v, want %s in %d days (within 30: %v), $10 a day", i, e, w.id, w.left, w.within)
		}
	}
	if rep.Providers[0].ExpiryUnknown != 1 {
		t.Errorf("expiry unknown = %d, want 1", rep.Providers[0].ExpiryUnknown)
	}
}
