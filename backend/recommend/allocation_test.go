package recommend

import (
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// handCosts: account 111 spends $200, $100 of it untagged. Suggestions:
// web-frontend-02 from its tagged neighbour web-frontend-01, payments-db
// from the name token "payments" (tagged on another account), misc-box
// from the account (checkout holds all of 111's tagged spend). Account 222
// is fully tagged; the Azure subscription is all untagged and has no
// suggestion to offer.
func handCosts() []model.CostLine {
	team := func(v string) map[string]string { return map[string]string{"Team": v} }
	return []model.CostLine{
		costLine(model.AWS, "2026-10-30", "111", "arn:aws:ec2:us-east-1:111:instance/web-frontend-01", "Compute", 100, team("checkout")),
		costLine(model.AWS, "2026-10-30", "111", "arn:aws:ec2:us-east-1:111:instance/web-frontend-02", "Compute", 50, nil),
		costLine(model.AWS, "2026-10-31", "111", "payments-db", "Databases", 30, map[string]string{"Name": "x"}),
		costLine(model.AWS, "2026-10-31", "111", "misc-box", "Compute", 20, map[string]string{"owner": " "}),
		costLine(model.AWS, "2026-10-31", "222", "payments-api", "Compute", 80, map[string]string{"project": "payments"}),
		costLine(model.Azure, "2026-10-31", "sub-9", "vm-9", "Compute", 31060, nil),
	}
}

func TestTagCoverageHandComputed(t *testing.T) {
	c := TagCoverage(handCosts(), model.MetricBilled)
	if c.Total != 31340 || c.Unallocated != 31160 || c.Allocatable != 180 || c.AllocatableShare != 0.0057 {
		t.Errorf("totals %+v", c.CoverageCell)
	}
	if len(c.Providers) != 2 || c.Providers[0].Provider != model.AWS || c.Providers[0].Total != 280 || c.Providers[0].Unallocated != 100 ||
		c.Providers[0].UntaggedResources != 3 || c.Providers[1].Unallocated != 31060 {
		t.Errorf("providers %+v", c.Providers)
	}
	// Accounts by unallocated spend, largest first.
	if len(c.Accounts) != 3 || c.Accounts[0].Account != "sub-9" || c.Accounts[1].Account != "111" || c.Accounts[2].Unallocated != 0 || c.AccountsTotal != 3 {
		t.Errorf("accounts %+v", c.Accounts)
	}
	if len(c.Owners) != 2 || c.Owners[0] != (model.OwnerCost{Key: "team", Value: "checkout", Cost: 100}) || c.Owners[1].Cost != 80 {
		t.Errorf("owners %+v", c.Owners)
	}
	if len(c.Worklist) != 2 || c.Worklist[0].Account != "sub-9" || len(c.Worklist[0].Suggestions) != 0 {
		t.Fatalf("worklist %+v", c.Worklist)
	}
	w := c.Worklist[1]
	if w.Account != "111" || w.UnallocatedCost != 100 || w.SuggestedCost != 100 || w.UntaggedResources != 3 {
		t.Errorf("work %+v", w)
	}
	want := map[string]TagSuggestion{
		"arn:aws:ec2:us-east-1:111:instance/web-frontend-02": {Tags: map[string]string{"team": "checkout"}, Reason: "neighbour"},
		"payments-db": {Tags: map[string]string{"project": "payments"}, Reason: "name"},
		"misc-box":    {Tags: map[string]string{"team": "checkout"}, Reason: "account"},
	}
	if len(w.Suggestions) != len(want) {
		t.Fatalf("suggestions %+v", w.Suggestions)
	}
	for _, s := range w.Suggestions {
		x, ok := want[s.ResourceID]
		if !ok || s.Reason != x.Reason || len(s.Tags) != len(x.Tags) {
			t.Errorf("suggestion %+v, want %+v", s, x)
			continue
		}
		for k, v := range x.Tags {
			if s.Tags[k] != v {
				t.Errorf("%s: tag %s=%s, want %s", s.ResourceID, k, s.Tags[k], v)
			}
		}
	}
	// A month's cell is the same split.
	if m := CoverageOf(handCosts(), model.MetricBilled); m != c.CoverageCell {
		t.Errorf("CoverageOf %+v, want %+v", m, c.CoverageCell)
	}
}

// TestAllocationRecommendationsPerProvider: one cost_allocation item per
// provider, saving nothing, low priority; among $0 items the one with more
// untagged spend comes first.
func TestAllocationRecommendationsPerProvider(t *testing.T) {
	recs := AllocationRecommendations(handCosts())
	if len(recs) != 2 {
		t.Fatalf("got %d recommendations, want one per provider: %+v", len(recs), recs)
	}
	Sort(recs)
	az, aws := recs[0], recs[1]
	if az.Provider != model.Azure || aws.Provider != model.AWS {
		t.Fatalf("order %s, %s: the provider with more untagged spend comes first", az.Provider, aws.Provider)
	}
	if aws.Type != model.RecCostAllocation || aws.ResourceID != "aws" || aws.PotentialSavings != 0 || aws.Priority != model.PriorityLow {
		t.Errorf("got %+v", aws)
	}
	if aws.Details["allocatable_cost"] != 100.0 || aws.Details["untagged_share"] != 0.3571 || aws.Details["suggested_cost"] != 100.0 ||
		aws.Details["accounts"] != 1 || aws.Details["untagged_resources"] != 3 {
		t.Errorf("details %+v", aws.Details)
	}
	if !strings.Contains(az.Description, "$31,060.00 of $31,060.00 (100%)") {
		t.Errorf("description %q", az.Description)
	}
	// Confidence: all untagged spend has a suggestion: 0.5 + 0.5 * 1 = 1,
	// times the length factor of 2 days, 0.5 + 2/60.
	if aws.Confidence != 0.53 {
		t.Errorf("confidence %v, want 0.53", aws.Confidence)
	}
}

// TestSortByDollars: savings first, largest first; $0 items after them by
// the spend at stake, whatever their priority or id.
func TestSortByDollars(t *testing.T) {
	recs := []model.Recommendation{
		{ID: "a", PotentialSavings: 0, Priority: model.PriorityHigh, Details: map[string]any{"untagged_cost": 272.0}},
		{ID: "b", PotentialSavings: 5, Priority: model.PriorityLow},
		{ID: "c", PotentialSavings: 0, Priority: model.PriorityLow, Details: map[string]any{"untagged_cost": 31060.0}},
		{ID: "d", PotentialSavings: 900, Priority: model.PriorityMedium},
	}
	Sort(recs)
	var got string
	for _, r := range recs {
		got += r.ID
	}
	if got != "dbca" {
		t.Fatalf("order %s, want dbca", got)
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ id, want string }{
		{"web-checkout-03", "web-checkout"},
		{"projects/p/zones/z/instances/api_12", "api"},
		{"i-0abc1234def567890", ""},
		{"ocid1.instance.oc1.iad.aaaa123", ""},
		{"database", ""},
		{"db1", ""},
	}
	for _, tt := range tests {
		if got := stem(tt.id); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}
