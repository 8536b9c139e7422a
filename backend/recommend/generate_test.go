package recommend

import (
	"fmt"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// realistic builds one provider's estate the way the demo describes it: an
// idle VM, oversized VMs at ~10 % p95 CPU, a bursty group with a daily
// pattern, an unattached volume, untagged spend and a steady baseline of
// always-on machines. It returns the input and the monthly spend.
func realistic(p model.ProviderKey, region, big, small string) (Input, float64) {
	var res []model.Resource
	var util []model.UtilizationSample
	var costs []model.CostLine
	add := func(r model.Resource, load func(time.Time) (float64, float64, float64)) {
		res = append(res, r)
		util = append(util, hourly(r.ResourceID, 30, load)...)
	}
	idle := machine(p, "idle-box-1", region, small, 0)
	add(idle, func(time.Time) (float64, float64, float64) { return 0.01, 0.1, 2e5 })
	for i := 0; i < 3; i++ {
		add(machine(p, fmt.Sprintf("report-worker-%d", i), region, big, 0), func(ts time.Time) (float64, float64, float64) {
			return 0.04 + 0.06*float64(ts.Hour()%3)/2, 0.15, 1e9
		})
	}
	for i := 0; i < 2; i++ {
		add(machine(p, fmt.Sprintf("ledger-%d", i), region, small, 0), func(time.Time) (float64, float64, float64) { return 0.55, 0.6, 1e9 })
	}
	fleet, fleetUtil := bursty(p, "web", region, small, 6, 0.6, 0.1, false)
	res = append(res, fleet...)
	util = append(util, fleetUtil...)
	res = append(res, model.Resource{Provider: p, ResourceID: "old-disk", ResourceType: "volume", Region: region,
		SizeGB: 200, CreatedAt: testNow.AddDate(0, -3, 0)})
	var monthly float64
	for _, r := range res {
		if r.ResourceType == "volume" {
			monthly += 200 * pricing.VolumePricePerGBMonth(p, region, "")
			continue
		}
		_, h, _ := pricing.Lookup(p, region, r.InstanceType)
		monthly += h * pricing.HoursPerMonth
	}
	for d := 0; d < 30; d++ {
		day := testNow.AddDate(0, 0, -d).Format(model.DateLayout)
		for _, r := range res {
			if r.ResourceType == "volume" {
				continue
			}
			_, h, _ := pricing.Lookup(p, region, r.InstanceType)
			var tags map[string]string
			if r.Group != "" {
				tags = map[string]string{"team": "web"}
			}
			costs = append(costs, costLine(p, day, "acct-1", r.ResourceID, "Compute", h*24, tags))
		}
	}
	return Input{Inventory: []model.Inventory{{Provider: p, Resources: res, Utilization: util}}, Costs: costs}, monthly
}

func TestGenerateFindsEveryKind(t *testing.T) {
	estates := []struct {
		p                  model.ProviderKey
		region, big, small string
	}{
		{model.AWS, "us-east-1", "m5.2xlarge", "m6i.large"},
		{model.Azure, "eastus", "Standard_D8s_v5", "Standard_D2s_v5"},
		{model.GCP, "us-central1", "n2-standard-8", "n2-standard-2"},
		{model.OCI, "us-ashburn-1", "VM.Standard.E4.Flex/4/64", "VM.Standard.E4.Flex/1/16"},
	}
	var all Input
	spend := map[model.ProviderKey]float64{}
	for _, e := range estates {
		in, monthly := realistic(e.p, e.region, e.big, e.small)
		all.Inventory = append(all.Inventory, in.Inventory...)
		all.Costs = append(all.Costs, in.Costs...)
		spend[e.p] = monthly
	}
	recs := Generate(all, defaultOptions)
	kinds := []model.RecommendationType{model.RecRightsizing, model.RecIdle, model.RecAutoscaling, model.RecCostAllocation, model.RecCommitment}
	for _, e := range estates {
		var mine []model.Recommendation
		var saved float64
		for _, r := range recs {
			if r.Provider == e.p {
				mine = append(mine, r)
				saved += r.PotentialSavings
			}
		}
		for _, k := range kinds {
			if countType(mine, k) == 0 {
				t.Errorf("%s: no %s recommendation", e.p, k)
			}
		}
		if saved <= 0 || saved >= spend[e.p] {
			t.Errorf("%s: savings %.2f not below the monthly spend %.2f", e.p, saved, spend[e.p])
		}
	}
	seen := map[string]bool{}
	for i, r := range recs {
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Errorf("%s: confidence %v", r.ID, r.Confidence)
		}
		if r.Type == model.RecRightsizing && (r.CurrentConfig == nil || r.RecommendedConfig == nil ||
			r.CurrentConfig.InstanceType == "" || r.RecommendedConfig.InstanceType == "") {
			t.Errorf("%s: rightsizing without both configs", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("duplicate ID %s", r.ID)
		}
		seen[r.ID] = true
		if i > 0 && recs[i-1].PotentialSavings < r.PotentialSavings {
			t.Errorf("not sorted by savings at %d", i)
		}
		if r.Priority == "" || r.ImplementationEffort == "" || r.Description == "" {
			t.Errorf("%s: incomplete %+v", r.ID, r)
		}
	}
	// The same input gives the same IDs.
	again := Generate(all, defaultOptions)
	if len(again) != len(recs) {
		t.Fatalf("second run gave %d recommendations, first %d", len(again), len(recs))
	}
	for i := range recs {
		if again[i].ID != recs[i].ID {
			t.Fatalf("IDs are not stable: %s vs %s", again[i].ID, recs[i].ID)
		}
	}
}

// TestOneRecommendationPerResource: a resource listed twice (two
// inventories) and idle and oversized at once yields one recommendation,
// the one that saves most.
func TestOneRecommendationPerResource(t *testing.T) {
	r := machine(model.AWS, "i-dup", "us-east-1", "m5.2xlarge", 0)
	util := hourly("i-dup", 30, func(time.Time) (float64, float64, float64) { return 0.02, 0.1, 1e3 })
	in := Input{Inventory: []model.Inventory{
		{Provider: model.AWS, Resources: []model.Resource{r}, Utilization: util},
		{Provider: model.AWS, Resources: []model.Resource{r}},
	}}
	var perResource []model.Recommendation
	for _, rec := range Generate(in, defaultOptions) {
		if rec.ResourceID == "i-dup" {
			perResource = append(perResource, rec)
		}
	}
	if len(perResource) != 1 || perResource[0].Type != model.RecIdle || perResource[0].PotentialSavings != 280.32 {
		t.Fatalf("got %+v, want one idle saving 280.32", perResource)
	}
}

func TestPriority(t *testing.T) {
	tests := []struct {
		savings float64
		r       risk
		want    model.Priority
	}{
		{499, riskMedium, model.PriorityMedium},
		{500, riskMedium, model.PriorityHigh},
		{340, riskLow, model.PriorityHigh}, // 510
		{990, riskHigh, model.PriorityMedium},
		{99.99, riskMedium, model.PriorityLow},
		{0, riskLow, model.PriorityLow},
	}
	for _, tt := range tests {
		if got := priority(tt.savings, tt.r); got != tt.want {
			t.Errorf("priority(%v, %v) = %s, want %s", tt.savings, tt.r, got, tt.want)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	if recs := Generate(Input{}, Options{}); len(recs) != 0 {
		t.Fatalf("got %+v", recs)
	}
}
