package gcp

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
	"github.com/costpilot/costpilot/backend/recommend"
)

// fakeRecommender answers the Recommender API's v1 list in Google's REST
// wire format: each recommender's first page in a location with a
// nextPageToken, the second without.
type fakeRecommender struct {
	t     *testing.T
	mu    sync.Mutex
	calls map[string]int // by parent
	fail  func(recommender string, n int) (status int, ok bool)
}

func newFakeRecommender(t *testing.T) (*fakeRecommender, *httptest.Server) {
	f := &fakeRecommender{t: t, calls: map[string]int{}}
	return f, providertest.Serve(t, f.serve)
}

func (f *fakeRecommender) count(parent string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[parent]
}

func (f *fakeRecommender) total(recommender string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.totalLocked(recommender)
}

func (f *fakeRecommender) totalLocked(recommender string) int {
	n := 0
	for p, c := range f.calls {
		if strings.HasSuffix(p, "/"+recommender) {
			n += c
		}
	}
	return n
}

// gcpFinding is a recommendation: savings over 30 days as a negative
// cost projection.
func gcpFinding(name, target, desc string, units int64, nanos int64, ops ...map[string]any) map[string]any {
	return map[string]any{
		"name": name, "description": desc, "recommenderSubtype": "CHANGE_MACHINE_TYPE", "priority": "P2",
		"lastRefreshTime": "2026-11-19T06:00:00Z", "etag": `"abc"`, "targetResources": []string{target},
		"primaryImpact": map[string]any{"category": "COST", "costProjection": map[string]any{
			"cost": map[string]any{"currencyCode": "USD", "units": fmt.Sprint(-units), "nanos": -nanos}, "duration": "2592000s"}},
		"stateInfo": map[string]any{"state": "ACTIVE"},
		"content":   map[string]any{"operationGroups": []any{map[string]any{"operations": ops}}},
	}
}

func (f *fakeRecommender) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	parent, ok := strings.CutPrefix(r.URL.Path, "/recommender/v1/")
	parent, ok2 := strings.CutSuffix(parent, "/recommendations")
	if !ok || !ok2 || r.Method != http.MethodGet {
		f.t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if got := r.URL.Query().Get("filter"); got != "stateInfo.state = ACTIVE" {
		f.t.Errorf("filter = %q", got)
	}
	rec := parent[strings.LastIndex(parent, "/")+1:]
	f.mu.Lock()
	f.calls[parent]++
	n := f.totalLocked(rec)
	f.mu.Unlock()
	if f.fail != nil {
		if status, ok := f.fail(rec, n); ok {
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "1")
			}
			w.WriteHeader(status)
			state := map[int]string{403: "PERMISSION_DENIED", 429: "RESOURCE_EXHAUSTED"}[status]
			fmt.Fprintf(w, `{"error":{"code":%d,"message":"Permission denied or quota (scripted)","status":%q}}`, status, state)
			return
		}
	}
	page := map[string]any{}
	zone := "projects/" + testProject + "/zones/us-central1-a"
	switch parent {
	case "projects/" + testProject + "/locations/us-central1-a/recommenders/google.compute.instance.MachineTypeRecommender":
		if r.URL.Query().Get("pageToken") == "" {
			page["recommendations"] = []any{gcpFinding(parent+"/recommendations/r1", "//compute.googleapis.com/"+zone+"/instances/web-1",
				"Save cost by changing machine type from n1-standard-4 to e2-standard-2.", 60, 500000000,
				map[string]any{"action": "test", "resourceType": "compute.googleapis.com/Instance", "resource": "//compute.googleapis.com/" + zone + "/instances/web-1",
					"path": "/machineType", "value": "zones/us-central1-a/machineTypes/n1-standard-4"},
				map[string]any{"action": "replace", "resourceType": "compute.googleapis.com/Instance", "resource": "//compute.googleapis.com/" + zone + "/instances/web-1",
					"path": "/machineType", "value": "zones/us-central1-a/machineTypes/e2-standard-2"})}
			page["nextPageToken"] = "p2"
		} else {
			page["recommendations"] = []any{gcpFinding(parent+"/recommendations/r2", "//compute.googleapis.com/"+zone+"/instances/web-2",
				"Save cost by changing machine type.", 30, 0)}
		}
	case "projects/" + testProject + "/locations/us-central1-a/recommenders/google.compute.disk.IdleResourceRecommender":
		page["recommendations"] = []any{gcpFinding(parent+"/recommendations/d1", "//compute.googleapis.com/"+zone+"/disks/old-disk",
			"Save cost by snapshotting and then deleting idle persistent disk 'old-disk'.", 20, 0)}
	}
	providertest.WriteJSON(w, "application/json", page)
}

// recInventory has instances in two zones of one region, a zonal disk and
// a global address.
var recInventory = model.Inventory{Provider: model.GCP, Resources: []model.Resource{
	{ResourceID: "projects/" + testProject + "/zones/us-central1-a/instances/web-1"},
	{ResourceID: "projects/" + testProject + "/zones/us-central1-b/instances/web-3"},
	{ResourceID: "projects/" + testProject + "/zones/us-central1-a/disks/old-disk"},
	{ResourceID: "projects/" + testProject + "/global/addresses/lb"},
	{ResourceID: "projects/other/zones/europe-west1-b/instances/x"},
}}

func TestRecommenderRecommendations(t *testing.T) {
	f, srv := newFakeRecommender(t)
	p := newTestProvider(t, srv.URL)
	got, err := p.Recommendations(context.Background(), recInventory)
	if err != nil || len(got.Warnings) != 0 {
		t.Fatalf("Recommendations: %v, warnings %v", err, got.Warnings)
	}
	// Each recommender in the locations the inventory has: instances in
	// two zones, their region for commitments, the disk's zone, and the
	// address's global location; the machine type list in two pages.
	want := map[string]int{
		"us-central1-a/recommenders/google.compute.instance.MachineTypeRecommender":     2,
		"us-central1-b/recommenders/google.compute.instance.MachineTypeRecommender":     1,
		"us-central1-a/recommenders/google.compute.instance.IdleResourceRecommender":    1,
		"us-central1-b/recommenders/google.compute.instance.IdleResourceRecommender":    1,
		"us-central1-a/recommenders/google.compute.disk.IdleResourceRecommender":        1,
		"global/recommenders/google.compute.address.IdleResourceRecommender":            1,
		"us-central1/recommenders/google.compute.commitment.UsageCommitmentRecommender": 1,
	}
	total := 0
	for k, n := range want {
		if c := f.count("projects/" + testProject + "/locations/" + k); c != n {
			t.Errorf("%s: %d calls, want %d", k, c, n)
		}
		total += n
	}
	f.mu.Lock()
	if len(f.calls) != len(want) {
		t.Errorf("calls = %v, want only %d parents", f.calls, len(want))
	}
	f.mu.Unlock()
	if len(got.Items) != 3 {
		t.Fatalf("%d items, want 3: %+v", len(got.Items), got.Items)
	}
	month := pricing.HoursPerMonth / 24 / 30
	checks := []struct {
		id      string
		kind    model.RecommendationType
		savings float64
	}{
		{"projects/" + testProject + "/zones/us-central1-a/instances/web-1", model.RecRightsizing, 60.5 * month},
		{"projects/" + testProject + "/zones/us-central1-a/instances/web-2", model.RecRightsizing, 30 * month},
		{"projects/" + testProject + "/zones/us-central1-a/disks/old-disk", model.RecIdle, 20 * month},
	}
	for i, c := range checks {
		it := got.Items[i]
		if it.ResourceID != c.id || it.Type != c.kind || math.Abs(it.PotentialSavings-c.savings) > 1e-9 ||
			it.Currency != "USD" || it.Account != testProject || it.Source != model.RecSourceGCPRecommender {
			t.Errorf("item %d = %+v, want %+v", i, it, c)
		}
	}
	if got.Items[0].Details["recommended_machine_type"] != "e2-standard-2" || got.Items[0].ExternalID != "r1" {
		t.Errorf("machine type details = %v, id %q", got.Items[0].Details, got.Items[0].ExternalID)
	}

	// web-1, which costpilot also finds oversized, appears once.
	own := []model.Recommendation{{Type: model.RecRightsizing, Provider: model.GCP,
		ResourceID: "projects/" + testProject + "/zones/us-central1-a/instances/web-1", PotentialSavings: 40, Description: "costpilot"}}
	merged, _ := recommend.MergeExternal(own, got.Items, recommend.Rates{}, func(a float64, _ string) (float64, bool) { return a, true })
	n := 0
	for _, r := range merged {
		if strings.HasSuffix(r.ResourceID, "/web-1") {
			n++
			if r.Source != model.RecSourceCostpilot || r.Details[recommend.DetailAlsoReportedBy] == nil {
				t.Errorf("web-1 = %s %v, want costpilot's naming the recommender", r.Source, r.Details)
			}
		}
	}
	if n != 1 || len(merged) != 3 {
		t.Errorf("web-1 appears %d times in %d merged, want once in 3", n, len(merged))
	}
}

func TestRecommenderFailures(t *testing.T) {
	const machine = "google.compute.instance.MachineTypeRecommender"
	type fail = func(rec string, n int) (int, bool)
	// Calls counts the machine type list calls, over all locations.
	tests := []providertest.WarningCase[fail]{
		{
			Name:  "throttled once, with retry-after",
			Fail:  func(rec string, n int) (int, bool) { return http.StatusTooManyRequests, rec == machine && n == 1 },
			Calls: map[string]int{machine: 4}, Items: 3,
		},
		{
			Name:  "throttled past the retries",
			Fail:  func(rec string, _ int) (int, bool) { return http.StatusTooManyRequests, rec == machine },
			Calls: map[string]int{machine: 4}, Items: 1, Warn: "rate limited",
		},
		{
			Name:  "machine type denied: the other recommenders still count",
			Fail:  func(rec string, _ int) (int, bool) { return http.StatusForbidden, rec == machine },
			Calls: map[string]int{machine: 1}, Items: 1, Warn: "grant recommender.computeInstanceMachineTypeRecommendations.list",
		},
	}
	providertest.RunWarnings(t, connector, recInventory, tests, func(t *testing.T, fail fail) (provider.Recommender, func(string) int) {
		f, srv := newFakeRecommender(t)
		f.fail = fail
		return newTestProvider(t, srv.URL), f.total
	})
}
