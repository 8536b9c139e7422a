package aws

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
	"github.com/costpilot/costpilot/backend/recommend"
)

// fakeHub answers Cost Optimization Hub's JSON 1.0 API: ListRecommendations
// in pages of two, GetPreferences, and scripted errors.
type fakeHub struct {
	t *testing.T
	// Recorder counts requests by operation and keeps their bodies.
	providertest.Recorder
	// fail answers the nth call of an operation with an error.
	fail func(op string, n int) (status int, code string, retryAfterMs string, ok bool)
	mode string // savingsEstimationMode
}

// hubItems are the hub's findings: a rightsizing of an instance (as
// Compute Optimizer reports it), a stop, and a savings plan purchase.
var hubItems = []map[string]any{
	{"recommendationId": "rec-1", "accountId": "222222222222", "region": "us-east-1", "resourceId": "i-0web",
		"resourceArn": "arn:aws:ec2:us-east-1:222222222222:instance/i-0web", "currentResourceType": "Ec2Instance",
		"recommendedResourceType": "Ec2Instance", "estimatedMonthlySavings": 61.32, "estimatedSavingsPercentage": 50,
		"estimatedMonthlyCost": 122.64, "currencyCode": "USD", "implementationEffort": "Medium", "restartNeeded": true,
		"actionType": "Rightsize", "rollbackPossible": true, "currentResourceSummary": "m5.xlarge",
		"recommendedResourceSummary": "m5.large", "lastRefreshTimestamp": 1.7634e9, "recommendationLookbackPeriodInDays": 14,
		"source": "ComputeOptimizer"},
	{"recommendationId": "rec-2", "accountId": "222222222222", "region": "eu-west-1",
		"resourceArn": "arn:aws:ec2:eu-west-1:222222222222:volume/vol-orphan", "currentResourceType": "EbsVolume",
		"estimatedMonthlySavings": 40, "estimatedMonthlyCost": 40, "currencyCode": "USD", "implementationEffort": "VeryLow",
		"actionType": "Delete", "source": "ComputeOptimizer"},
	{"recommendationId": "rec-3", "accountId": "111111111111", "region": "us-east-1", "resourceId": "111111111111",
		"currentResourceType": "ComputeSavingsPlans", "estimatedMonthlySavings": 900.5, "estimatedMonthlyCost": 3000,
		"currencyCode": "USD", "implementationEffort": "VeryLow", "actionType": "PurchaseSavingsPlans", "source": "CostExplorer"},
}

func newFakeHub(t *testing.T) (*fakeHub, *httptest.Server) {
	f := &fakeHub{t: t, mode: "BeforeDiscounts"}
	return f, providertest.Serve(t, f.serve)
}

func (f *fakeHub) serve(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	op, ok := strings.CutPrefix(target, "CostOptimizationHubService.")
	if !ok || r.Header.Get("Content-Type") != "application/x-amz-json-1.0" {
		f.t.Errorf("request %q with content type %q is not Cost Optimization Hub's JSON 1.0", target, r.Header.Get("Content-Type"))
	}
	if !strings.Contains(r.Header.Get("Authorization"), "/us-east-1/cost-optimization-hub/aws4_request") {
		f.t.Errorf("request not signed for cost-optimization-hub in us-east-1: %q", r.Header.Get("Authorization"))
	}
	body, _ := io.ReadAll(r.Body)
	in := f.Keep(f.t, op, body)
	n := f.Hit(op)
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	if f.fail != nil {
		if status, code, after, ok := f.fail(op, n); ok {
			if after != "" {
				w.Header().Set("X-Amz-Retry-After", after)
			}
			w.Header().Set("X-Amzn-ErrorType", code)
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(map[string]string{"__type": "com.amazonaws.costoptimizationhub#" + code, "message": "scripted " + code})
			return
		}
	}
	switch op {
	case "ListRecommendations":
		start := 0
		if tok, _ := in["nextToken"].(string); tok == "page-2" {
			start = 2
		}
		out := map[string]any{"items": hubItems[start:min(start+2, len(hubItems))]}
		if start == 0 {
			out["nextToken"] = "page-2"
		}
		providertest.WriteJSON(w, "application/x-amz-json-1.0", out)
	case "GetPreferences":
		providertest.WriteJSON(w, "application/x-amz-json-1.0", map[string]any{"savingsEstimationMode": f.mode, "memberAccountDiscountVisibility": "All"})
	default:
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": "UnknownOperationException", "message": op})
	}
}

func TestHubRecommendations(t *testing.T) {
	isolate(t)
	f, srv := newFakeHub(t)
	p := newTestProvider(t, srv.URL, nil)
	got, err := p.Recommendations(context.Background(), model.Inventory{})
	if err != nil || len(got.Warnings) != 0 {
		t.Fatalf("Recommendations: %v, warnings %v", err, got.Warnings)
	}
	// Paging: both pages read, the second with the first's token.
	if f.Count("ListRecommendations") != 2 || len(got.Items) != 3 {
		t.Fatalf("%d calls, %d items; want 2 pages and 3 items", f.Count("ListRecommendations"), len(got.Items))
	}
	if lr := f.Kept("ListRecommendations"); lr[0]["maxResults"] != float64(hubPageSize) || lr[1]["nextToken"] != "page-2" {
		t.Errorf("requests = %v", lr)
	}
	want := []struct {
		id      string
		kind    model.RecommendationType
		savings float64
		account string
		effort  model.Effort
	}{
		{"i-0web", model.RecRightsizing, 61.32, "222222222222", model.EffortMedium},
		{"arn:aws:ec2:eu-west-1:222222222222:volume/vol-orphan", model.RecIdle, 40, "222222222222", model.EffortLow},
		{"111111111111", model.RecCommitment, 900.5, "111111111111", model.EffortLow},
	}
	for i, w := range want {
		it := got.Items[i]
		if it.ResourceID != w.id || it.Type != w.kind || it.PotentialSavings != w.savings || it.Account != w.account ||
			it.ImplementationEffort != w.effort || it.Currency != "USD" || it.Source != model.RecSourceAWSHub || it.AtEffectiveRates {
			t.Errorf("item %d = %+v, want %+v", i, it, w)
		}
	}
	if c := got.Items[0]; c.CurrentConfig == nil || c.CurrentConfig.InstanceType != "m5.xlarge" || c.RecommendedConfig.Cost != 61.32 ||
		!strings.Contains(c.Description, "m5.xlarge to m5.large") {
		t.Errorf("rightsizing = %+v %+v", c.CurrentConfig, c.RecommendedConfig)
	}

	// Savings after discounts are marked as at the account's rates.
	f.mode = "AfterDiscounts"
	got, err = p.Recommendations(context.Background(), model.Inventory{})
	if err != nil || !got.Items[0].AtEffectiveRates {
		t.Errorf("after discounts: %v, %+v", err, got.Items)
	}
}

// TestHubOnceWithCostpilot: the instance costpilot also finds oversized
// appears once, costpilot's, naming the hub (the hub's ARN matches
// costpilot's bare id).
func TestHubOnceWithCostpilot(t *testing.T) {
	isolate(t)
	_, srv := newFakeHub(t)
	got, err := newTestProvider(t, srv.URL, nil).Recommendations(context.Background(), model.Inventory{})
	if err != nil {
		t.Fatal(err)
	}
	own := []model.Recommendation{
		{Type: model.RecRightsizing, Provider: model.AWS, ResourceID: "i-0web", PotentialSavings: 55, Description: "costpilot"},
		{Type: model.RecIdle, Provider: model.AWS, ResourceID: "vol-orphan", PotentialSavings: 35, Description: "costpilot"},
	}
	merged, _ := recommend.MergeExternal(own, got.Items, recommend.Rates{}, func(a float64, _ string) (float64, bool) { return a, true })
	if len(merged) != 3 {
		t.Fatalf("merged %d, want 3 (two of costpilot's and the savings plan)", len(merged))
	}
	for _, r := range merged {
		if r.Type == model.RecCommitment {
			if r.Source != model.RecSourceAWSHub {
				t.Errorf("savings plan source = %s", r.Source)
			}
			continue
		}
		if r.Source != model.RecSourceCostpilot || r.Details[recommend.DetailAlsoReportedBy] == nil {
			t.Errorf("%s: source %s, details %v; want costpilot's naming the hub", r.ResourceID, r.Source, r.Details)
		}
	}
}

func TestHubFailures(t *testing.T) {
	type fail = func(op string, n int) (int, string, string, bool)
	tests := []providertest.WarningCase[fail]{
		{
			Name: "throttled once, with retry-after",
			Fail: func(op string, n int) (int, string, string, bool) {
				return http.StatusBadRequest, "ThrottlingException", "1", op == "ListRecommendations" && n == 1
			},
			Calls: map[string]int{"ListRecommendations": 3}, Items: 3,
		},
		{
			Name: "throttled past the retries",
			Fail: func(op string, _ int) (int, string, string, bool) {
				return http.StatusBadRequest, "ThrottlingException", "1", op == "ListRecommendations"
			},
			Calls: map[string]int{"ListRecommendations": 4}, Warn: "throttled",
		},
		{
			Name: "access denied names the permission",
			Fail: func(op string, _ int) (int, string, string, bool) {
				return http.StatusBadRequest, "AccessDeniedException", "", op == "ListRecommendations"
			},
			Calls: map[string]int{"ListRecommendations": 1}, Warn: "grant cost-optimization-hub:ListRecommendations",
		},
		{
			Name: "preferences denied: list savings",
			Fail: func(op string, _ int) (int, string, string, bool) {
				return http.StatusBadRequest, "AccessDeniedException", "", op == "GetPreferences"
			},
			Calls: map[string]int{"ListRecommendations": 2}, Items: 3,
		},
	}
	providertest.RunWarnings(t, connector, model.Inventory{}, tests, func(t *testing.T, fail fail) (provider.Recommender, func(string) int) {
		isolate(t)
		f, srv := newFakeHub(t)
		f.fail = fail
		return newTestProvider(t, srv.URL, nil), f.Count
	})

	// A cancelled context is an error, not a warning.
	isolate(t)
	_, srv := newFakeHub(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newTestProvider(t, srv.URL, nil).Recommendations(ctx, model.Inventory{}); err == nil {
		t.Error("cancelled: no error")
	}
}
