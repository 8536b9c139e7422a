package aws

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/recommend"
)

// fakeHub answers Cost Optimization Hub's JSON 1.0 API: ListRecommendations
// in pages of two, GetPreferences, and scripted errors.
type fakeHub struct {
	t     *testing.T
	mu    sync.Mutex
	calls map[string]int
	// bodies keeps the ListRecommendations requests.
	bodies []map[string]any
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
	f := &fakeHub{t: t, calls: map[string]int{}, mode: "BeforeDiscounts"}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeHub) count(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
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
	var in map[string]any
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &in); err != nil {
		f.t.Errorf("%s body: %v", op, err)
	}
	f.mu.Lock()
	f.calls[op]++
	n := f.calls[op]
	if op == "ListRecommendations" {
		f.bodies = append(f.bodies, in)
	}
	f.mu.Unlock()
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
		_ = json.NewEncoder(w).Encode(out)
	case "GetPreferences":
		_ = json.NewEncoder(w).Encode(map[string]any{"savingsEstimationMode": f.mode, "memberAccountDiscountVisibility": "All"})
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
	if f.count("ListRecommendations") != 2 || len(got.Items) != 3 {
		t.Fatalf("%d calls, %d items; want 2 pages and 3 items", f.count("ListRecommendations"), len(got.Items))
	}
	if f.bodies[0]["maxResults"] != float64(hubPageSize) || f.bodies[1]["nextToken"] != "page-2" {
		t.Errorf("requests = %v", f.bodies)
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
	tests := []struct {
		name      string
		fail      func(op string, n int) (int, string, string, bool)
		wantCalls int
		wantItems int
		wantWarn  string
	}{
		{
			name: "throttled once, with retry-after",
			fail: func(op string, n int) (int, string, string, bool) {
				return http.StatusBadRequest, "ThrottlingException", "1", op == "ListRecommendations" && n == 1
			},
			wantCalls: 3, wantItems: 3,
		},
		{
			name: "throttled past the retries",
			fail: func(op string, _ int) (int, string, string, bool) {
				return http.StatusBadRequest, "ThrottlingException", "1", op == "ListRecommendations"
			},
			wantCalls: 4, wantWarn: "throttled",
		},
		{
			name: "access denied names the permission",
			fail: func(op string, _ int) (int, string, string, bool) {
				return http.StatusBadRequest, "AccessDeniedException", "", op == "ListRecommendations"
			},
			wantCalls: 1, wantWarn: "grant cost-optimization-hub:ListRecommendations",
		},
		{
			name: "preferences denied: list savings",
			fail: func(op string, _ int) (int, string, string, bool) {
				return http.StatusBadRequest, "AccessDeniedException", "", op == "GetPreferences"
			},
			wantCalls: 2, wantItems: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			f, srv := newFakeHub(t)
			f.fail = tt.fail
			got, err := newTestProvider(t, srv.URL, nil).Recommendations(context.Background(), model.Inventory{})
			if err != nil {
				t.Fatalf("error %v; failures must be warnings", err)
			}
			if n := f.count("ListRecommendations"); n != tt.wantCalls {
				t.Errorf("%d ListRecommendations calls, want %d", n, tt.wantCalls)
			}
			if len(got.Items) != tt.wantItems {
				t.Errorf("%d items, want %d", len(got.Items), tt.wantItems)
			}
			if tt.wantWarn == "" && len(got.Warnings) != 0 || tt.wantWarn != "" && (len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], tt.wantWarn)) {
				t.Errorf("warnings = %q, want one containing %q", got.Warnings, tt.wantWarn)
			}
			for _, w := range got.Warnings {
				if strings.Contains(w, "wJalrXUtnFEMI") {
					t.Errorf("warning leaks the secret: %s", w)
				}
			}
		})
	}

	// A cancelled context is an error, not a warning.
	isolate(t)
	_, srv := newFakeHub(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newTestProvider(t, srv.URL, nil).Recommendations(ctx, model.Inventory{}); err == nil {
		t.Error("cancelled: no error")
	}
}
