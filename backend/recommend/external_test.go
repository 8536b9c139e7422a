package recommend

import (
	"math"
	"slices"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestEffectiveRates(t *testing.T) {
	line := func(p model.ProviderKey, billing, sub string, eff, list float64) model.CostLine {
		return model.CostLine{Provider: p, BillingAccount: billing, SubAccount: sub, Currency: "USD",
			Effective: model.NanosFromFloat(eff), Billed: model.NanosFromFloat(eff), List: model.NanosFromFloat(list)}
	}
	r := EffectiveRates([]model.CostLine{
		line(model.AWS, "payer", "111", 60, 100),
		line(model.AWS, "payer", "111", 20, 100), // 80/200 = 0.4
		line(model.AWS, "payer", "222", 90, 100),
		line(model.AWS, "payer", "222", 5, 0), // no list price: ignored
		line(model.Azure, "ea", "SUB-A", 130, 100),
	})
	tests := []struct {
		name    string
		p       model.ProviderKey
		account string
		want    float64
		basis   string
		ok      bool
	}{
		{"sub account", model.AWS, "111", 0.4, "account", true},
		{"another sub account", model.AWS, "222", 0.9, "account", true},
		{"billing account", model.AWS, "payer", 170.0 / 300, "account", true},
		{"unknown account: the provider's", model.AWS, "333", 170.0 / 300, "provider", true},
		{"case-insensitive, capped at 1", model.Azure, "sub-a", 1, "account", true},
		{"no history", model.GCP, "proj", 1, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, basis, ok := r.rate(tt.p, tt.account)
			if math.Abs(got-tt.want) > 1e-9 || basis != tt.basis || ok != tt.ok {
				t.Errorf("rate(%s, %s) = %v, %q, %v; want %v, %q, %v", tt.p, tt.account, got, basis, ok, tt.want, tt.basis, tt.ok)
			}
		})
	}
}

func TestNormalizeResourceID(t *testing.T) {
	tests := []struct {
		p      model.ProviderKey
		id     string
		wanted string
	}{
		{model.AWS, "arn:aws:ec2:us-east-1:111111111111:instance/i-0abc", "i-0abc"},
		{model.AWS, "arn:aws:ec2:us-east-1:111111111111:volume/vol-1", "vol-1"},
		{model.AWS, "i-0abc", "i-0abc"},
		{model.Azure, "/subscriptions/S/resourceGroups/RG/providers/Microsoft.Compute/virtualMachines/VM1/", "/subscriptions/s/resourcegroups/rg/providers/microsoft.compute/virtualmachines/vm1"},
		{model.GCP, "//compute.googleapis.com/projects/p/zones/z/instances/vm", "projects/p/zones/z/instances/vm"},
		{model.GCP, "https://www.googleapis.com/compute/v1/projects/p/regions/r/addresses/a", "projects/p/regions/r/addresses/a"},
		{model.OCI, "ocid1.instance.oc1.iad.AAAA", "ocid1.instance.oc1.iad.AAAA"},
	}
	for _, tt := range tests {
		if got := NormalizeResourceID(tt.p, tt.id); got != tt.wanted {
			t.Errorf("NormalizeResourceID(%s, %q) = %q, want %q", tt.p, tt.id, got, tt.wanted)
		}
	}
}

func usd(amount float64, cur string) (float64, bool) {
	switch cur {
	case "USD", "":
		return amount, true
	case "EUR":
		return amount * 2, true
	}
	return 0, false
}

func ext(p model.ProviderKey, src model.RecSource, typ model.RecommendationType, id string, savings float64) model.ExternalRecommendation {
	return model.ExternalRecommendation{
		Recommendation: model.Recommendation{Type: typ, Provider: p, ResourceID: id, Description: "cloud says so",
			PotentialSavings: savings, Source: src},
		Account: "acct", Currency: "USD", ExternalID: "ext-" + id,
	}
}

func find(recs []model.Recommendation, p model.ProviderKey, id string) []model.Recommendation {
	var out []model.Recommendation
	for _, r := range recs {
		if r.Provider == p && NormalizeResourceID(p, r.ResourceID) == NormalizeResourceID(p, id) {
			out = append(out, r)
		}
	}
	return out
}

// TestMergeExternalOncePerCloud: a finding both a cloud's recommender and
// costpilot report appears once, costpilot's, naming the cloud's source;
// ids match across ARNs, case and Google's resource name prefixes.
func TestMergeExternalOncePerCloud(t *testing.T) {
	own := []model.Recommendation{
		{Type: model.RecRightsizing, Provider: model.AWS, ResourceID: "i-0abc", PotentialSavings: 40, Description: "ours"},
		{Type: model.RecIdle, Provider: model.Azure, ResourceID: "/subscriptions/s/resourcegroups/rg/providers/microsoft.compute/disks/d1", PotentialSavings: 10, Description: "ours"},
		{Type: model.RecRightsizing, Provider: model.GCP, ResourceID: "projects/p/zones/us-central1-a/instances/vm1", PotentialSavings: 30, Description: "ours"},
		{Type: model.RecIdle, Provider: model.OCI, ResourceID: "ocid1.volume.oc1..v1", PotentialSavings: 5, Description: "ours"},
		{Type: model.RecCommitment, Provider: model.AWS, ResourceID: "compute-baseline", PotentialSavings: 300, Description: "ours"},
	}
	tests := []struct {
		name string
		ext  model.ExternalRecommendation
	}{
		{"aws arn, stop vs rightsize", ext(model.AWS, model.RecSourceAWSHub, model.RecIdle, "arn:aws:ec2:us-east-1:111:instance/i-0abc", 90)},
		{"aws commitment", ext(model.AWS, model.RecSourceAWSHub, model.RecCommitment, "savings-plan-1", 500)},
		{"azure case", ext(model.Azure, model.RecSourceAzureAdvisor, model.RecIdle, "/subscriptions/S/resourceGroups/RG/providers/Microsoft.Compute/disks/D1", 12)},
		{"gcp full name", ext(model.GCP, model.RecSourceGCPRecommender, model.RecRightsizing, "//compute.googleapis.com/projects/p/zones/us-central1-a/instances/vm1", 25)},
		{"oci", ext(model.OCI, model.RecSourceOCICloudAdvisor, model.RecIdle, "ocid1.volume.oc1..v1", 6)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warn := MergeExternal(own, []model.ExternalRecommendation{tt.ext}, Rates{}, usd)
			if len(warn) != 0 || len(got) != len(own) {
				t.Fatalf("merged %d recommendations (warnings %v), want the %d of costpilot", len(got), warn, len(own))
			}
			var same []model.Recommendation
			if tt.ext.Type == model.RecCommitment {
				for _, r := range got {
					if r.Provider == tt.ext.Provider && r.Type == model.RecCommitment {
						same = append(same, r)
					}
				}
			} else {
				same = find(got, tt.ext.Provider, tt.ext.ResourceID)
			}
			if len(same) != 1 {
				t.Fatalf("%d recommendations for %s, want 1: %+v", len(same), tt.ext.ResourceID, same)
			}
			r := same[0]
			if r.Source != model.RecSourceCostpilot || r.Description != "ours" {
				t.Errorf("kept %s %q, want costpilot's", r.Source, r.Description)
			}
			if by := reportedBy(r.Details); !slices.Equal(by, []model.RecSource{tt.ext.Source}) {
				t.Errorf("also_reported_by = %v, want [%s]", by, tt.ext.Source)
			}
		})
	}
	// The input is not changed.
	if own[0].Details != nil || own[0].Source != "" {
		t.Errorf("own recommendation modified: %+v", own[0])
	}
}

// TestMergeExternalPricing: a cloud finding costpilot lacks is added at
// the account's effective rate in the report currency, unless quoted at
// the account's rates; two cloud findings for one resource keep the
// larger, and one in a currency with no rate is left out with a warning.
func TestMergeExternalPricing(t *testing.T) {
	rates := Rates{Account: map[model.ProviderKey]map[string]float64{model.AWS: {"acct": 0.5}}, Provider: map[model.ProviderKey]float64{model.AWS: 0.8}}
	a := ext(model.AWS, model.RecSourceAWSHub, model.RecRightsizing, "i-1", 100)
	a.CurrentConfig = &model.InstanceConfig{InstanceType: "m5.xlarge", Cost: 200}
	b := ext(model.AWS, model.RecSourceAWSHub, model.RecIdle, "i-2", 100)
	b.Account = "other"
	c := ext(model.AWS, model.RecSourceAWSHub, model.RecCommitment, "sp-1", 100)
	c.AtEffectiveRates = true
	d := ext(model.Azure, model.RecSourceAzureAdvisor, model.RecIdle, "/x/eur", 100)
	d.Currency = "EUR"
	e := ext(model.GCP, model.RecSourceGCPRecommender, model.RecRightsizing, "projects/p/zones/z/instances/vm", 40)
	f := ext(model.GCP, model.RecSourceGCPRecommender, model.RecIdle, "//compute.googleapis.com/projects/p/zones/z/instances/vm", 70)
	g := ext(model.OCI, model.RecSourceOCICloudAdvisor, model.RecIdle, "ocid1.x", 100)
	g.Currency = "JPY"
	got, warn := MergeExternal(nil, []model.ExternalRecommendation{a, b, c, d, e, f, g}, rates, usd)
	if len(warn) != 1 {
		t.Errorf("warnings = %v, want one for JPY", warn)
	}
	want := map[string]struct {
		savings float64
		src     model.RecSource
		typ     model.RecommendationType
	}{
		"i-1":                             {50, model.RecSourceAWSHub, model.RecRightsizing}, // account rate 0.5
		"i-2":                             {80, model.RecSourceAWSHub, model.RecIdle},        // provider rate 0.8
		"sp-1":                            {100, model.RecSourceAWSHub, model.RecCommitment}, // already at the account's rates
		"/x/eur":                          {200, model.RecSourceAzureAdvisor, model.RecIdle}, // EUR at 2, no history
		"projects/p/zones/z/instances/vm": {70, model.RecSourceGCPRecommender, model.RecIdle},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d recommendations, want %d: %+v", len(got), len(want), got)
	}
	for _, r := range got {
		w, ok := want[NormalizeResourceID(r.Provider, r.ResourceID)]
		if !ok {
			t.Errorf("unexpected %+v", r)
			continue
		}
		if r.PotentialSavings != w.savings || r.Source != w.src || r.Type != w.typ {
			t.Errorf("%s: %s %s saves %v, want %s %s %v", r.ResourceID, r.Source, r.Type, r.PotentialSavings, w.src, w.typ, w.savings)
		}
		if r.ID == "" || r.Confidence != externalConfidence || r.Priority == "" {
			t.Errorf("%s: id %q confidence %v priority %q", r.ResourceID, r.ID, r.Confidence, r.Priority)
		}
		if r.Details["quoted_savings"] != 100.0 && r.Provider != model.GCP {
			t.Errorf("%s: quoted_savings = %v", r.ResourceID, r.Details["quoted_savings"])
		}
	}
	if r := find(got, model.AWS, "i-1"); len(r) != 1 || r[0].CurrentConfig == nil || r[0].CurrentConfig.Cost != 100 {
		t.Errorf("i-1 current config = %+v, want cost 100 (200 at rate 0.5)", r)
	}
	if r := find(got, model.GCP, "projects/p/zones/z/instances/vm"); len(r) != 1 || len(reportedBy(r[0].Details)) != 0 {
		t.Errorf("gcp vm = %+v, want one, noting no other source (both are the recommender's)", r)
	}
	for i := 1; i < len(got); i++ {
		if got[i].PotentialSavings > got[i-1].PotentialSavings {
			t.Errorf("not sorted by savings: %v before %v", got[i-1].PotentialSavings, got[i].PotentialSavings)
		}
	}
}
