package azure

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
	"github.com/costpilot/costpilot/backend/recommend"
)

const (
	advisorSubA = "00000000-0000-0000-0000-00000000000a"
	advisorSubB = "00000000-0000-0000-0000-00000000000b"
)

// fakeAdvisor answers the resource manager's subscription list and
// Advisor's recommendation list (api-version 2020-01-01), the first page
// of each subscription with a nextLink to the second.
type fakeAdvisor struct {
	t   *testing.T
	url string
	// Recorder counts requests by subscription, "subscriptions" for the list.
	providertest.Recorder
	// fail answers the nth Advisor call of a subscription with an error.
	fail func(sub string, n int) (status int, code string, ok bool)
}

func newFakeAdvisor(t *testing.T) (*fakeAdvisor, *httptest.Server) {
	f := &fakeAdvisor{t: t}
	srv := providertest.Serve(t, f.serve)
	f.url = srv.URL
	return f, srv
}

// advisorVM is a virtual machine's id in the case Advisor writes it.
func advisorVM(sub, name string) string {
	return "/subscriptions/" + sub + "/resourceGroups/RG-Web/providers/Microsoft.Compute/virtualMachines/" + name
}

func advisorItem(sub, name, resource string, ext map[string]string, problem string) map[string]any {
	return map[string]any{
		"id":   resource + "/providers/Microsoft.Advisor/recommendations/" + name,
		"name": name, "type": "Microsoft.Advisor/recommendations",
		"properties": map[string]any{
			"category": "Cost", "impact": "High", "impactedField": "Microsoft.Compute/virtualMachines",
			"impactedValue": resource[strings.LastIndex(resource, "/")+1:], "lastUpdated": "2026-11-19T08:00:00Z",
			"recommendationTypeId": "e10b1381-5f0a-47ff-8c7b-37bd13d7c974",
			"shortDescription":     map[string]string{"problem": problem, "solution": problem},
			"extendedProperties":   ext,
			"resourceMetadata":     map[string]string{"resourceId": resource, "source": resource},
		},
	}
}

func (f *fakeAdvisor) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer static-token" {
		f.t.Errorf("%s without the bearer token", r.URL.Path)
	}
	if r.URL.Path == "/subscriptions" {
		f.Hit("subscriptions")
		fmt.Fprintf(w, `{"value":[{"id":"/subscriptions/%[1]s","subscriptionId":"%[1]s","displayName":"A","state":"Enabled"},{"id":"/subscriptions/%[2]s","subscriptionId":"%[2]s","displayName":"B","state":"Enabled"}]}`, advisorSubA, advisorSubB)
		return
	}
	sub, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/subscriptions/"), "/")
	if rest == "" { // Subscriptions Get, for the name
		fmt.Fprintf(w, `{"id":"/subscriptions/%[1]s","subscriptionId":"%[1]s","displayName":"A","state":"Enabled"}`, sub)
		return
	}
	if rest != "providers/Microsoft.Advisor/recommendations" {
		f.t.Errorf("unexpected request %s", r.URL.Path)
		w.WriteHeader(http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	if q.Get("api-version") != "2020-01-01" || q.Get("$filter") != "Category eq 'Cost'" {
		f.t.Errorf("Advisor query = %v", q)
	}
	n := f.Hit(sub)
	if f.fail != nil {
		if status, code, ok := f.fail(sub, n); ok {
			w.Header().Set("x-ms-error-code", code)
			if status == http.StatusTooManyRequests {
				w.Header().Set("retry-after-ms", "1")
			}
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"code":%q,"message":"scripted"}}`, code)
			return
		}
	}
	var page map[string]any
	if q.Get("$skipToken") == "" {
		page = map[string]any{
			"value": []any{advisorItem(sub, "rec-vm1", advisorVM(sub, "VM1"), map[string]string{
				"currentSku": "Standard_D4s_v3", "targetSku": "Standard_D2s_v3", "recommendationType": "SkuChange",
				"savingsAmount": "70.08", "annualSavingsAmount": "840.96", "savingsCurrency": "EUR", "regionId": "westeurope",
			}, "Right-size or shutdown underutilized virtual machines")},
			"nextLink": f.url + r.URL.Path + "?api-version=2020-01-01&%24filter=Category+eq+%27Cost%27&%24skipToken=p2",
		}
	} else {
		page = map[string]any{"value": []any{
			advisorItem(sub, "rec-vm2", advisorVM(sub, "VM2"), map[string]string{
				"recommendationType": "Shutdown", "annualSavingsAmount": "1200", "savingsCurrency": "EUR",
			}, "Right-size or shutdown underutilized virtual machines"),
			advisorItem(sub, "rec-ri", "/subscriptions/"+sub, map[string]string{
				"term": "P1Y", "lookbackPeriod": "30", "reservedResourceType": "VirtualMachines", "displayQty": "2",
				"annualSavingsAmount": "2400", "savingsCurrency": "EUR",
			}, "Buy virtual machine reserved instances to save money over pay-as-you-go costs"),
			advisorItem(sub, "rec-nosavings", advisorVM(sub, "VM3"), map[string]string{"recommendationType": "SkuChange"}, "no estimate"),
		}}
	}
	providertest.WriteJSON(w, "application/json", page)
}

func TestAdvisorRecommendations(t *testing.T) {
	f, srv := newFakeAdvisor(t)
	p := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: advisorSubA})
	got, err := p.Recommendations(context.Background(), model.Inventory{})
	if err != nil || len(got.Warnings) != 0 {
		t.Fatalf("Recommendations: %v, warnings %v", err, got.Warnings)
	}
	// Paging: both pages; the finding with no savings is left out.
	if f.Count(advisorSubA) != 2 || len(got.Items) != 3 {
		t.Fatalf("%d calls, %d items (%+v); want 2 pages and 3 items", f.Count(advisorSubA), len(got.Items), got.Items)
	}
	want := []struct {
		id        string
		kind      model.RecommendationType
		savings   float64
		effective bool
	}{
		{strings.ToLower(advisorVM(advisorSubA, "VM1")), model.RecRightsizing, 840.96 / 12, false},
		{strings.ToLower(advisorVM(advisorSubA, "VM2")), model.RecIdle, 100, false},
		{"/subscriptions/" + advisorSubA, model.RecCommitment, 200, true},
	}
	for i, w := range want {
		it := got.Items[i]
		if it.ResourceID != w.id || it.Type != w.kind || it.PotentialSavings != w.savings || it.AtEffectiveRates != w.effective ||
			it.Currency != "EUR" || it.Account != advisorSubA || it.Source != model.RecSourceAzureAdvisor {
			t.Errorf("item %d = %+v, want %+v", i, it, w)
		}
	}
	if d := got.Items[0].Details; d["targetSku"] != "Standard_D2s_v3" || got.Items[0].ExternalID != "rec-vm1" {
		t.Errorf("rightsizing details = %v", d)
	}

	// The VM costpilot also finds oversized (its id lower-case, as the
	// inventory keeps it) appears once, costpilot's.
	own := []model.Recommendation{{Type: model.RecRightsizing, Provider: model.Azure,
		ResourceID: strings.ToLower(advisorVM(advisorSubA, "vm1")), PotentialSavings: 50, Description: "costpilot"}}
	merged, _ := recommend.MergeExternal(own, got.Items, recommend.Rates{}, func(a float64, _ string) (float64, bool) { return a, true })
	if len(merged) != 3 {
		t.Fatalf("merged %d, want 3", len(merged))
	}
	for _, r := range merged {
		if strings.HasSuffix(r.ResourceID, "/vm1") && (r.Source != model.RecSourceCostpilot || r.Details[recommend.DetailAlsoReportedBy] == nil) {
			t.Errorf("vm1 = %s %v, want costpilot's naming Advisor", r.Source, r.Details)
		}
	}
}

func TestAdvisorFailures(t *testing.T) {
	type fail = func(sub string, n int) (int, string, bool)
	tests := []providertest.WarningCase[fail]{
		{
			Name: "throttled once, with retry-after",
			Fail: func(sub string, n int) (int, string, bool) {
				return http.StatusTooManyRequests, "TooManyRequests", sub == advisorSubA && n == 1
			},
			Calls: map[string]int{advisorSubA: 3, advisorSubB: 2}, Items: 6,
		},
		{
			Name: "throttled past the retries",
			Fail: func(sub string, _ int) (int, string, bool) {
				return http.StatusTooManyRequests, "TooManyRequests", sub == advisorSubA
			},
			Calls: map[string]int{advisorSubA: 4, advisorSubB: 2}, Items: 3, Warn: "throttled",
		},
		{
			Name: "one subscription denied: the other's still count",
			Fail: func(sub string, _ int) (int, string, bool) {
				return http.StatusForbidden, "AuthorizationFailed", sub == advisorSubB
			},
			Calls: map[string]int{advisorSubA: 2, advisorSubB: 1}, Items: 3,
			Warn: "grant Reader (Microsoft.Advisor/recommendations/read)",
		},
	}
	providertest.RunWarnings(t, connector, model.Inventory{}, tests, func(t *testing.T, fail fail) (provider.Recommender, func(string) int) {
		f, srv := newFakeAdvisor(t)
		f.fail = fail
		return newPlain(t, srv.URL, config.AzureConfig{}), f.Count
	})
}
