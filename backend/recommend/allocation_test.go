package recommend

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestAllocationHandComputed: account 111 spends $200, $100 of it untagged
// (50 %, high priority). Suggestions: web-frontend-02 from its tagged
// neighbour web-frontend-01, payments-db from the name token "payments"
// (tagged on another account), misc-box from the account (checkout holds
// all of 111's tagged spend).
func TestAllocationHandComputed(t *testing.T) {
	team := func(v string) map[string]string { return map[string]string{"Team": v} }
	costs := []model.CostLine{
		costLine(model.AWS, "2026-10-30", "111", "arn:aws:ec2:us-east-1:111:instance/web-frontend-01", "Compute", 100, team("checkout")),
		costLine(model.AWS, "2026-10-30", "111", "arn:aws:ec2:us-east-1:111:instance/web-frontend-02", "Compute", 50, nil),
		costLine(model.AWS, "2026-10-31", "111", "payments-db", "Databases", 30, map[string]string{"Name": "x"}),
		costLine(model.AWS, "2026-10-31", "111", "misc-box", "Compute", 20, map[string]string{"owner": " "}),
		costLine(model.AWS, "2026-10-31", "222", "payments-api", "Compute", 80, map[string]string{"project": "payments"}),
	}
	recs := AllocationRecommendations(costs)
	if len(recs) != 1 {
		t.Fatalf("got %d recommendations, want 1 (account 222 is fully tagged): %+v", len(recs), recs)
	}
	rec := recs[0]
	if rec.Type != model.RecCostAllocation || rec.ResourceID != "111" || rec.PotentialSavings != 0 ||
		rec.Priority != model.PriorityHigh || rec.Provider != model.AWS {
		t.Errorf("got %+v", rec)
	}
	if rec.Details["allocatable_cost"] != 100.0 || rec.Details["untagged_share"] != 0.5 || rec.Details["suggested_cost"] != 100.0 {
		t.Errorf("details %+v", rec.Details)
	}
	want := map[string]TagSuggestion{
		"arn:aws:ec2:us-east-1:111:instance/web-frontend-02": {Tags: map[string]string{"team": "checkout"}, Reason: "neighbour"},
		"payments-db": {Tags: map[string]string{"project": "payments"}, Reason: "name"},
		"misc-box":    {Tags: map[string]string{"team": "checkout"}, Reason: "account"},
	}
	got := rec.Details["suggestions"].([]TagSuggestion)
	if len(got) != len(want) {
		t.Fatalf("suggestions %+v", got)
	}
	for _, s := range got {
		w, ok := want[s.ResourceID]
		if !ok || s.Reason != w.Reason || len(s.Tags) != len(w.Tags) {
			t.Errorf("suggestion %+v, want %+v", s, w)
			continue
		}
		for k, v := range w.Tags {
			if s.Tags[k] != v {
				t.Errorf("%s: tag %s=%s, want %s", s.ResourceID, k, s.Tags[k], v)
			}
		}
	}
	// Confidence: all untagged spend has a suggestion: 0.5 + 0.5 * 1 = 1,
	// times the length factor of 2 days, 0.5 + 2/60.
	if rec.Confidence != 0.53 {
		t.Errorf("confidence %v, want 0.53", rec.Confidence)
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
