package oci

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
	"github.com/costpilot/costpilot/backend/recommend"
)

// fakeAdvisor answers the Optimizer API (20200606): ListRecommendations
// and ListResourceActions, each in two pages (opc-next-page), checking
// every request's signature as fakeOCI does.
type fakeAdvisor struct {
	sig *fakeOCI
	providertest.Recorder
	mu    sync.Mutex
	query map[string][]string // first query of each operation
	fail  func(op string, n int) (status int, code string, ok bool)
}

const (
	recUnder    = "ocid1.optimizerrecommendation.oc1..under"
	recDetached = "ocid1.optimizerrecommendation.oc1..detached"
	volumeID    = "ocid1.volume.oc1.iad.aaaadetached"
)

func setupAdvisor(t *testing.T) (*fakeAdvisor, *Provider) {
	t.Helper()
	k := signingKey(t)
	f := &fakeAdvisor{sig: &fakeOCI{t: t, key: &k.PublicKey}, query: map[string][]string{}}
	return f, newTestProvider(t, providertest.Serve(t, f.serve).URL, writeKey(t, k))
}

func action(id, rec, resource, name, rtype string, saving float64) map[string]any {
	return map[string]any{
		"id": id, "categoryId": "ocid1.optimizercategory.oc1..cost", "recommendationId": rec, "resourceId": resource,
		"name": name, "resourceType": rtype, "compartmentId": testCompartment, "compartmentName": "apps",
		"action":         map[string]any{"type": "KB_ARTICLE", "description": "Review the resource", "url": "https://example.invalid/kb"},
		"lifecycleState": "ACTIVE", "estimatedCostSaving": saving, "status": "PENDING",
		"timeStatusBegin": "2026-11-01T00:00:00.000Z", "metadata": map[string]string{"currentShape": "VM.Standard2.4"},
	}
}

func (f *fakeAdvisor) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op := map[string]string{"/20200606/recommendations": "recommendations", "/20200606/resourceActions": "resourceActions"}[r.URL.Path]
	n := f.Hit(op)
	if n == 1 {
		f.mu.Lock()
		f.query[op] = []string{r.URL.RawQuery}
		f.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	if f.sig.refused(w, r, body, op, n, f.fail) {
		return
	}
	q := r.URL.Query()
	if q.Get("compartmentId") != testTenancy || q.Get("compartmentIdInSubtree") != "true" {
		f.sig.t.Errorf("%s query = %v", op, q)
	}
	second := q.Get("page") == "2"
	if !second {
		w.Header().Set("opc-next-page", "2")
	}
	var items []any
	switch op {
	case "recommendations":
		if q.Get("categoryName") != "cost-management-name" {
			f.sig.t.Errorf("recommendations categoryName = %q", q.Get("categoryName"))
		}
		rec := func(id, name string) map[string]any {
			return map[string]any{"id": id, "compartmentId": testTenancy, "categoryId": "ocid1.optimizercategory.oc1..cost", "name": name,
				"description": name, "importance": "HIGH", "resourceCounts": []any{}, "lifecycleState": "ACTIVE",
				"estimatedCostSaving": 100, "status": "PENDING", "timeStatusBegin": "2026-11-01T00:00:00.000Z"}
		}
		if second {
			items = []any{rec(recDetached, "cost-management-block-volume-detached-name")}
		} else {
			items = []any{rec(recUnder, "cost-management-compute-host-underutilized-name")}
		}
	case "resourceActions":
		if q.Get("status") != "PENDING" {
			f.sig.t.Errorf("resourceActions status = %q", q.Get("status"))
		}
		if second {
			items = []any{
				action("ra-2", recDetached, volumeID, "data-vol", "volume", 12.5),
				action("ra-3", "ocid1.optimizerrecommendation.oc1..performance", instanceID, "web", "instance", 9), // another category
			}
		} else {
			items = []any{action("ra-1", recUnder, instanceID, "web", "instance", 80), action("ra-0", recUnder, "ocid1.instance.oc1.iad.zero", "z", "instance", 0)}
		}
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"code":"NotFound","message":"unknown path"}`)
		return
	}
	providertest.WriteJSON(w, "application/json", map[string]any{"items": items})
}

func TestAdvisorRecommendations(t *testing.T) {
	f, p := setupAdvisor(t)
	got, err := p.Recommendations(context.Background(), model.Inventory{})
	if err != nil || len(got.Warnings) != 0 {
		t.Fatalf("Recommendations: %v, warnings %v", err, got.Warnings)
	}
	if f.Count("recommendations") != 2 || f.Count("resourceActions") != 2 {
		t.Errorf("calls = %v, want two pages of each", f.Calls())
	}
	if len(got.Items) != 2 {
		t.Fatalf("%d items, want 2 (no zero saving, no other category): %+v", len(got.Items), got.Items)
	}
	want := []struct {
		id      string
		kind    model.RecommendationType
		savings float64
	}{{instanceID, model.RecRightsizing, 80}, {volumeID, model.RecIdle, 12.5}}
	for i, w := range want {
		it := got.Items[i]
		if it.ResourceID != w.id || it.Type != w.kind || it.PotentialSavings != w.savings || it.Currency != "USD" ||
			it.Account != testCompartment || it.Source != model.RecSourceOCICloudAdvisor {
			t.Errorf("item %d = %+v, want %+v", i, it, w)
		}
	}
	if got.Items[0].Details["metadata_currentShape"] != "VM.Standard2.4" {
		t.Errorf("details = %v", got.Items[0].Details)
	}

	// The instance costpilot also finds oversized appears once.
	own := []model.Recommendation{{Type: model.RecRightsizing, Provider: model.OCI, ResourceID: instanceID, PotentialSavings: 60, Description: "costpilot"}}
	merged, _ := recommend.MergeExternal(own, got.Items, recommend.Rates{}, func(a float64, _ string) (float64, bool) { return a, true })
	if len(merged) != 2 || merged[0].ResourceID != instanceID || merged[0].Source != model.RecSourceCostpilot ||
		merged[0].Details[recommend.DetailAlsoReportedBy] == nil {
		t.Errorf("merged = %+v, want costpilot's instance (naming Cloud Advisor) and the volume", merged)
	}
}

func TestAdvisorFailures(t *testing.T) {
	type fail = func(op string, n int) (int, string, bool)
	tests := []providertest.WarningCase[fail]{
		{
			Name: "throttled once",
			Fail: func(op string, n int) (int, string, bool) {
				return http.StatusTooManyRequests, "TooManyRequests", op == "recommendations" && n == 1
			},
			Calls: map[string]int{"recommendations": 3}, Items: 2,
		},
		{
			Name: "throttled past the retries",
			Fail: func(op string, _ int) (int, string, bool) {
				return http.StatusTooManyRequests, "TooManyRequests", op == "recommendations"
			},
			Calls: map[string]int{"recommendations": 4}, Warn: "throttled",
		},
		{
			Name: "no policy names the grant",
			Fail: func(op string, _ int) (int, string, bool) {
				return http.StatusNotFound, "NotAuthorizedOrNotFound", op == "recommendations"
			},
			Calls: map[string]int{"recommendations": 1}, Warn: "read optimizer-api-family",
		},
	}
	providertest.RunWarnings(t, connector, model.Inventory{}, tests, func(t *testing.T, fail fail) (provider.Recommender, func(string) int) {
		f, p := setupAdvisor(t)
		f.fail = fail
		return p, f.Count
	})
}
