package recommend

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// steadyCompute is 30 days ending at testNow of $48 a day of on-demand
// compute, plus lines that must not count: storage, a discounted
// (already committed) machine and a purchase.
func steadyCompute() []model.CostLine {
	var out []model.CostLine
	for d := 0; d < 30; d++ {
		day := testNow.AddDate(0, 0, -d).Format(model.DateLayout)
		out = append(out,
			costLine(model.AWS, day, "111", "i-a", "Compute", 24, nil),
			costLine(model.AWS, day, "111", "i-b", "Compute", 24, nil),
			costLine(model.AWS, day, "111", "vol-a", "Storage", 5, nil))
		disc := costLine(model.AWS, day, "111", "i-ri", "Compute", 10, nil)
		disc.Effective = model.NanosFromFloat(5)
		buy := costLine(model.AWS, day, "111", "", "Compute", 100, nil)
		buy.ChargeCategory = "Purchase"
		out = append(out, disc, buy)
	}
	return out
}

// TestCommitmentHandComputed: $48 a day is $2 an hour of on-demand compute;
// a 1-year Compute Savings Plan at 28 % saves 2 * 0.28 * 730 = $408.80 for
// a commitment of 2 * 0.72 = $1.44 an hour; high risk halves the score
// (204.4) -> medium priority.
func TestCommitmentHandComputed(t *testing.T) {
	recs := AnalyzeProvider(model.AWS, Input{Costs: steadyCompute()}, defaultOptions)
	var rec model.Recommendation
	found := false
	for _, r := range recs {
		if r.Type == model.RecCommitment {
			rec, found = r, true
		}
	}
	if !found {
		t.Fatalf("no commitment in %+v", recs)
	}
	if rec.PotentialSavings != 408.8 || rec.Priority != model.PriorityMedium || rec.Confidence != 1 {
		t.Errorf("got savings %v priority %s confidence %v", rec.PotentialSavings, rec.Priority, rec.Confidence)
	}
	if got := rec.Details["commitment_per_hour"]; got != 1.44 {
		t.Errorf("commitment per hour %v, want 1.44", got)
	}
	if got := rec.Details["term_years"]; got != 1 {
		t.Errorf("term %v", got)
	}
}

func TestCommitmentBaseline(t *testing.T) {
	short := steadyCompute()[:5*10] // 10 days
	tests := []struct {
		name    string
		costs   []model.CostLine
		other   float64
		savings float64 // 0: none
	}{
		// Other recommendations saving $146 a month remove $0.20 an hour:
		// 1.8 * 0.28 * 730 = 367.92.
		{"after other savings", steadyCompute(), 146, 367.92},
		{"other savings cover the baseline", steadyCompute(), 2000, 0},
		{"too little history", short, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, ok := costBaseline(ComputeDaily(tt.costs)[model.AWS], testNow)
			var rec model.Recommendation
			if ok {
				rec, ok = commit(model.AWS, b, tt.other, "")
			}
			if tt.savings == 0 {
				if ok {
					t.Fatalf("got %+v, want none", rec)
				}
				return
			}
			if !ok || rec.PotentialSavings != tt.savings {
				t.Fatalf("got %v %v, want %v", ok, rec.PotentialSavings, tt.savings)
			}
		})
	}
}

// TestCommitmentFromInventory: without cost history, always-on machines
// form the baseline: two m6a.large are 0.1728 an hour; GCP's 37 % is not
// used for AWS, so 0.1728 * 0.28 * 730 = 35.32.
func TestCommitmentFromInventory(t *testing.T) {
	var res []model.Resource
	var util []model.UtilizationSample
	for _, id := range []string{"i-1", "i-2"} {
		res = append(res, machine(model.AWS, id, "us-east-1", "m6a.large", 0))
		util = append(util, hourly(id, 30, func(time.Time) (float64, float64, float64) {
			return 0.5, 0.5, 1e9
		})...)
	}
	recs := AnalyzeProvider(model.AWS, Input{Inventory: []model.Inventory{{Provider: model.AWS, Resources: res, Utilization: util}}}, defaultOptions)
	if len(recs) != 1 || recs[0].Type != model.RecCommitment || recs[0].PotentialSavings != 35.32 {
		t.Fatalf("got %+v", recs)
	}
}

// TestCommitmentSizedByCoverage: the same $48 a day of on-demand compute
// in the costs, but the commitment facts say only $24 a day of eligible
// usage is left uncovered: the purchase covers $1 an hour
// (1 * 0.28 * 730 = 204.40). With $2.88 a day of commitment unused, which
// absorbs 2.88 / 0.72 = $4 a day of usage, $20 a day remains:
// 20/24 * 0.28 * 730 = 170.33. Fully covered, nothing is recommended.
func TestCommitmentSizedByCoverage(t *testing.T) {
	series := func(v float64) map[string]float64 {
		m := map[string]float64{}
		for d := 0; d < 30; d++ {
			m[testNow.AddDate(0, 0, -d).Format(model.DateLayout)] = v
		}
		return m
	}
	tests := []struct {
		name     string
		coverage *Coverage
		savings  float64 // 0: none
	}{
		{"cost baseline only", nil, 408.8},
		{"half the usage covered", &Coverage{OnDemand: series(24)}, 204.4},
		{"and some commitment unused", &Coverage{OnDemand: series(24), Unused: series(2.88)}, 170.33},
		{"all covered", &Coverage{OnDemand: series(0)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Costs: steadyCompute()}
			if tt.coverage != nil {
				in.Coverage = map[model.ProviderKey]Coverage{model.AWS: *tt.coverage}
			}
			var got *model.Recommendation
			for _, r := range AnalyzeProvider(model.AWS, in, defaultOptions) {
				if r.Type == model.RecCommitment {
					got = &r
				}
			}
			switch {
			case tt.savings == 0 && got != nil:
				t.Fatalf("got %+v, want none", *got)
			case tt.savings != 0 && (got == nil || got.PotentialSavings != tt.savings):
				t.Fatalf("got %+v, want savings %v", got, tt.savings)
			}
		})
	}
}

// TestCommitmentOnTheLastDaysWithData: a history that ends 40 days before
// testNow gives no baseline over the 30 days before testNow, but, with the
// basis the service passes (its last 30 days with data), the same purchase
// as a current one, and says which days it read and why.
func TestCommitmentOnTheLastDaysWithData(t *testing.T) {
	shift := func(lines []model.CostLine) []model.CostLine {
		for i := range lines {
			d, _ := time.Parse(model.DateLayout, lines[i].Day)
			lines[i].Day = d.AddDate(0, 0, -40).Format(model.DateLayout)
		}
		return lines
	}
	end := testNow.AddDate(0, 0, -40).Format(model.DateLayout)
	first := testNow.AddDate(0, 0, -69).Format(model.DateLayout)
	tests := []struct {
		name  string
		basis map[model.ProviderKey]model.Basis
		want  *model.Basis // nil: no commitment
	}{
		{"the 30 days before now", nil, nil},
		{"the last 30 days with data", map[model.ProviderKey]model.Basis{model.AWS: {From: first, To: end, Reason: "the data ends on " + end}},
			&model.Basis{From: first, To: end, Reason: "the data ends on " + end}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Costs: shift(steadyCompute()), Basis: tt.basis}
			var got *model.Recommendation
			for _, r := range AnalyzeProvider(model.AWS, in, defaultOptions) {
				if r.Type == model.RecCommitment {
					got = &r
				}
			}
			switch {
			case tt.want == nil && got != nil:
				t.Fatalf("got %+v, want none", *got)
			case tt.want == nil:
				return
			case got == nil:
				t.Fatal("no commitment")
			case got.PotentialSavings != 408.8 || got.Basis == nil || *got.Basis != *tt.want:
				t.Fatalf("savings %v basis %+v, want 408.8 and %+v", got.PotentialSavings, got.Basis, *tt.want)
			case !strings.Contains(got.Description, first+" to "+end):
				t.Fatalf("the description does not say the days: %s", got.Description)
			case !strings.Contains(got.Description, "saves $408.80 a month") || !regexp.MustCompile(`: \$\d+\.\d\d an hour of on-demand`).MatchString(got.Description):
				t.Fatalf("the description's amounts are not written as money: %s", got.Description)
			}
		})
	}
}

// TestCommitmentEligibleUsage: the recommendation reports the eligible
// usage it is given, the Commitments view's figure for its days.
func TestCommitmentEligibleUsage(t *testing.T) {
	cov := Coverage{OnDemand: map[string]float64{}, Eligible: 900, Covered: 180}
	for d := 0; d < 30; d++ {
		cov.OnDemand[testNow.AddDate(0, 0, -d).Format(model.DateLayout)] = 24
	}
	var got *model.Recommendation
	for _, r := range AnalyzeProvider(model.AWS, Input{Costs: steadyCompute(), Coverage: map[model.ProviderKey]Coverage{model.AWS: cov}}, defaultOptions) {
		if r.Type == model.RecCommitment {
			got = &r
		}
	}
	if got == nil {
		t.Fatal("no commitment")
	}
	if e, c := got.Details["eligible_on_demand_cost"], got.Details["covered_on_demand_cost"]; e != 900.0 || c != 180.0 {
		t.Fatalf("eligible %v covered %v, want 900 and 180", e, c)
	}
}

// TestCommitmentNeverSizedOnAnotherFigure: a provider with commitment facts
// too short to size a purchase on gets none, not one sized on its cost
// lines (a figure the Commitments view does not show).
func TestCommitmentNeverSizedOnAnotherFigure(t *testing.T) {
	cov := Coverage{OnDemand: map[string]float64{}, Eligible: 72, Covered: 0}
	for d := 0; d < 3; d++ {
		cov.OnDemand[testNow.AddDate(0, 0, -d).Format(model.DateLayout)] = 24
	}
	with := Input{Costs: steadyCompute(), Coverage: map[model.ProviderKey]Coverage{model.AWS: cov}}
	for _, r := range AnalyzeProvider(model.AWS, with, defaultOptions) {
		if r.Type == model.RecCommitment {
			t.Fatalf("a purchase sized without the view's facts: %s", r.Description)
		}
	}
	// Without facts the cost lines still size one.
	found := false
	for _, r := range AnalyzeProvider(model.AWS, Input{Costs: steadyCompute()}, defaultOptions) {
		found = found || r.Type == model.RecCommitment
	}
	if !found {
		t.Fatal("no commitment from the cost lines alone")
	}
}
