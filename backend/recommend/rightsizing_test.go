package recommend

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// TestRightsizingHandComputed checks a synthetic machine against a hand
// computation. m5.2xlarge (8 vCPU, 32 GB, $0.384/h) runs at 5 % CPU half of
// each day and 10 % the other half, memory at 20 %: p95 CPU demand is 0.8
// vCPU and p95 memory 6.4 GB. At 80 % targets a size needs 1 vCPU and 8 GB;
// the cheapest x86, non-burstable size with that is m6a.large ($0.0864/h).
// Savings: (0.384 - 0.0864) * 730 = 217.248 -> $217.25, medium priority
// (100 <= 217.25 < 500 at medium risk). Confidence: coverage 1, 30 days
// (length 1), CPU CV 1/3 -> stability 1 - 1/6 = 0.8333 -> 0.83.
func TestRightsizingHandComputed(t *testing.T) {
	r := machine(model.AWS, "i-big", "us-east-1", "m5.2xlarge", 0.384)
	util := hourly("i-big", 30, func(ts time.Time) (float64, float64, float64) {
		if ts.Hour() < 12 {
			return 0.05, 0.2, 50e6
		}
		return 0.10, 0.2, 50e6
	})
	recs := AnalyzeResources([]model.Resource{r}, util, defaultOptions)
	if len(recs) != 1 {
		t.Fatalf("got %d recommendations, want 1: %+v", len(recs), recs)
	}
	rec := recs[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"type", rec.Type, model.RecRightsizing},
		{"current type", rec.CurrentConfig.InstanceType, "m5.2xlarge"},
		{"current cost", rec.CurrentConfig.Cost, 280.32},
		{"recommended type", rec.RecommendedConfig.InstanceType, "m6a.large"},
		{"recommended cost", rec.RecommendedConfig.Cost, 63.07},
		{"savings", rec.PotentialSavings, 217.25},
		{"priority", rec.Priority, model.PriorityMedium},
		{"effort", rec.ImplementationEffort, model.EffortMedium},
		{"confidence", rec.Confidence, 0.83},
		{"provider", rec.Provider, model.AWS},
		{"id", rec.ID, recommendationID(model.RecRightsizing, model.AWS, "i-big")},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestRightsizingCases(t *testing.T) {
	steady := func(cpu, mem float64) func(time.Time) (float64, float64, float64) {
		return func(time.Time) (float64, float64, float64) { return cpu, mem, 1e9 }
	}
	tests := []struct {
		name     string
		res      model.Resource
		days     int
		load     func(time.Time) (float64, float64, float64)
		wantType string // "" for no recommendation
	}{
		{"right-sized machine gets none", machine(model.AWS, "i-ok", "us-east-1", "m6a.large", 0), 30, steady(0.6, 0.6), ""},
		{"too little history", machine(model.AWS, "i-new", "us-east-1", "m5.2xlarge", 0), 10, steady(0.1, 0.2), ""},
		// Memory unknown: memory is never shrunk, so 16 GB stays; arm stays arm.
		{"graviton without memory metrics", machine(model.AWS, "i-arm", "us-east-1", "m6g.xlarge", 0), 30, steady(0.1, -1), "r6g.large"},
		{"stopped machine", func() model.Resource {
			r := machine(model.AWS, "i-stop", "us-east-1", "m5.2xlarge", 0)
			r.State = "stopped"
			return r
		}(), 30, steady(0.1, 0.2), ""},
		{"unknown instance type", machine(model.AWS, "i-odd", "us-east-1", "x1e.32xlarge", 26.688), 30, steady(0.1, 0.2), ""},
		{"azure D8s_v5", machine(model.Azure, "vm-1", "eastus", "Standard_D8s_v5", 0), 30, steady(0.1, 0.3), "Standard_E2as_v5"},
		{"gcp n2-standard-8", machine(model.GCP, "gce-1", "us-central1-a", "n2-standard-8", 0), 30, steady(0.15, 0.25), "e2-highmem-2"},
		{"oci flex", machine(model.OCI, "ocid1.instance.oc1..a", "us-ashburn-1", "VM.Standard.E4.Flex/8/64", 0), 30, steady(0.1, 0.1), "VM.Standard.E4.Flex/1/8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := AnalyzeResources([]model.Resource{tt.res}, hourly(tt.res.ResourceID, tt.days, tt.load), defaultOptions)
			if tt.wantType == "" {
				if len(recs) != 0 {
					t.Fatalf("got %+v, want none", recs)
				}
				return
			}
			if len(recs) != 1 || recs[0].Type != model.RecRightsizing {
				t.Fatalf("got %+v, want one rightsizing", recs)
			}
			rec := recs[0]
			if rec.RecommendedConfig.InstanceType != tt.wantType {
				t.Errorf("recommended %s, want %s", rec.RecommendedConfig.InstanceType, tt.wantType)
			}
			cur, _ := pricing.Quote(tt.res.Provider, tt.res.Region, tt.res.InstanceType)
			next, _ := pricing.Quote(tt.res.Provider, tt.res.Region, rec.RecommendedConfig.InstanceType)
			if next.Arch != cur.Arch {
				t.Errorf("architecture changed from %s to %s", cur.Arch, next.Arch)
			}
			want := math.Round((cur.Hourly-next.Hourly)*pricing.HoursPerMonth*100) / 100
			if rec.PotentialSavings != want {
				t.Errorf("savings %v, want %v", rec.PotentialSavings, want)
			}
		})
	}
}

// TestReportedPriceScalesRecommendation: a machine billed below list (a
// negotiated discount) is compared at the same discount.
func TestReportedPriceScalesRecommendation(t *testing.T) {
	r := machine(model.AWS, "i-disc", "us-east-1", "m5.2xlarge", 0.192) // half of list
	util := hourly("i-disc", 30, func(time.Time) (float64, float64, float64) { return 0.1, 0.2, 1e9 })
	recs := AnalyzeResources([]model.Resource{r}, util, defaultOptions)
	if len(recs) != 1 {
		t.Fatalf("got %+v", recs)
	}
	// (0.192 - 0.0864/2) * 730 = 108.624
	if got := recs[0].PotentialSavings; got != 108.62 {
		t.Errorf("savings = %v, want 108.62", got)
	}
}

// TestRaisingCPUThresholdNeverLowersRightsizing is the property test: for
// random fleets, the number of rightsizing recommendations is monotone in
// the CPU threshold.
func TestRaisingCPUThresholdNeverLowersRightsizing(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2026))
	types := map[model.ProviderKey][]string{
		model.AWS:   {"m5.xlarge", "m5.2xlarge", "c5.2xlarge", "r5.xlarge", "m6g.xlarge", "t3.large", "m6i.large"},
		model.Azure: {"Standard_D4s_v5", "Standard_E8s_v5", "Standard_F8s_v2", "Standard_B2ms"},
		model.GCP:   {"n2-standard-4", "c3-standard-8", "e2-standard-4", "n2-highmem-4"},
		model.OCI:   {"VM.Standard.E4.Flex/4/32", "VM.Standard.A1.Flex/4/24"},
	}
	regions := map[model.ProviderKey]string{model.AWS: "us-east-1", model.Azure: "eastus", model.GCP: "us-central1", model.OCI: "us-ashburn-1"}
	for trial := 0; trial < 3; trial++ {
		var resources []model.Resource
		var util []model.UtilizationSample
		for i := 0; i < 40; i++ {
			p := model.AllProviders[rng.IntN(len(model.AllProviders))]
			typ := types[p][rng.IntN(len(types[p]))]
			id := string(p) + "-" + typ + "-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			resources = append(resources, machine(p, id, regions[p], typ, 0))
			base, amp, mem := 0.05+0.6*rng.Float64(), 0.3*rng.Float64(), 0.1+0.8*rng.Float64()
			if rng.IntN(4) == 0 {
				mem = -1
			}
			noise := rand.New(rand.NewPCG(uint64(trial), uint64(i)))
			util = append(util, hourly(id, 15+rng.IntN(16), func(ts time.Time) (float64, float64, float64) {
				day := math.Sin(float64(ts.Hour()) / 24 * 2 * math.Pi)
				return clamp01(base + amp*day + 0.05*noise.NormFloat64()), mem, 1e9
			})...)
		}
		prev := -1
		for _, th := range []float64{0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0} {
			opt := Options{CPUThreshold: th, MemoryThreshold: 0.8, Now: testNow}
			n := countType(AnalyzeResources(resources, util, opt), model.RecRightsizing)
			if n < prev {
				t.Fatalf("trial %d: threshold %.1f gives %d rightsizing recommendations, fewer than %d", trial, th, n, prev)
			}
			prev = n
		}
		if prev == 0 {
			t.Fatalf("trial %d: no rightsizing at all; the property is vacuous", trial)
		}
	}
}

// TestRightsizingMinimumSavingsBoundary pins "a move must save at least
// 5 %": the machine of TestRightsizingHandComputed, whose cheapest fitting
// size is m6a.large at $0.0864/h, priced so that the move saves 4.9 % and
// then 5.1 % of its cost.
func TestRightsizingMinimumSavingsBoundary(t *testing.T) {
	r := machine(model.AWS, "i-big", "us-east-1", "m5.2xlarge", 0)
	util := hourly("i-big", 30, func(ts time.Time) (float64, float64, float64) {
		if ts.Hour() < 12 {
			return 0.05, 0.2, 50e6
		}
		return 0.10, 0.2, 50e6
	})
	u := summarize(window(util, testNow))
	q, ok := pricing.Quote(model.AWS, "us-east-1", "m5.2xlarge")
	if !ok {
		t.Fatal("m5.2xlarge not in the catalog")
	}
	for _, tt := range []struct {
		share float64
		want  bool
	}{{0.049, false}, {0.051, true}} {
		cp := currentPrice{quote: q, hourly: 0.0864 / (1 - tt.share), ratio: 1}
		rec, got := rightsize(r, u, cp, defaultOptions)
		if got != tt.want {
			t.Errorf("saving %.1f%%: recommended %v, want %v", tt.share*100, got, tt.want)
		}
		if got && rec.RecommendedConfig.InstanceType != "m6a.large" {
			t.Errorf("saving %.1f%%: recommended %s, want m6a.large", tt.share*100, rec.RecommendedConfig.InstanceType)
		}
	}
}

// TestConfidenceFactors pins the confidence formula's factors, the 0.9 of
// an estimated price among them.
func TestConfidenceFactors(t *testing.T) {
	tests := []struct {
		name string
		ev   evidence
		want float64
	}{
		{"all evidence", evidence{completeness: 1, days: 30, stability: 1, kind: 1}, 1},
		{"estimated price", evidence{completeness: 1, days: 30, stability: 1, kind: 1, estimated: true}, 0.9},
		{"short history", evidence{completeness: 1, days: 15, stability: 1, kind: 1}, 0.75},
		{"gaps and volatility", evidence{completeness: 0.8, days: 30, stability: 0.5, kind: 0.9}, 0.36},
	}
	for _, tt := range tests {
		if got := tt.ev.confidence(); got != tt.want {
			t.Errorf("%s: confidence %v, want %v", tt.name, got, tt.want)
		}
	}
}
