package server

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestKubernetesHandlers: the overview and the sync of the clusters of
// kubernetes.clusters, against a local server answering as OpenCost.
func TestKubernetesHandlers(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "..", "backend", "service", "testdata", "kubernetes", "opencost-2days.json"))
	if err != nil {
		t.Fatal(err)
	}
	oc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/allocation" || r.URL.Query().Get("step") != "1d" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	defer oc.Close()
	se := newScenarioEnv(t, func(c *config.Config) {
		c.Kubernetes.Clusters = []config.KubernetesCluster{{Name: "prod", OpenCostURL: oc.URL}}
		c.Kubernetes.Days = 60
	})
	viewer, editor := model.RoleViewer, model.RoleEditor
	se.run(t, []scenario{
		{name: "nothing stored yet", path: "/api/kubernetes", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"clusters": []any{}, "workloads": []any{}}},
		{name: "days out of range", path: "/api/kubernetes?days=0", role: viewer, wantStatus: 200},
		{name: "days not a number", path: "/api/kubernetes?days=x", role: viewer, wantStatus: 400, wantJSON: errorJSON("ValidationError", nil)},
		{name: "a viewer cannot sync", method: "POST", path: "/api/kubernetes/sync", role: viewer, body: `{}`, wantStatus: 403},
		{name: "an unknown cluster", method: "POST", path: "/api/kubernetes/sync", role: editor, body: `{"cluster":"nope"}`,
			wantStatus: 400, wantJSON: errorJSON("ValidationError", nil)},
		{name: "sync", method: "POST", path: "/api/kubernetes/sync", role: editor, body: `{"cluster":"prod"}`, wantStatus: 200,
			wantJSON: []any{map[string]any{"cluster": "prod", "allocations": float64(8), "assets": float64(1), "matched": float64(0)}}},
		{name: "the synced cluster, its node not in the demo bill", path: "/api/kubernetes?days=60", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"clusters": []any{map[string]any{"name": "prod", "live": true, "estimated_days": float64(2)}}}},
		{name: "grouped by namespace", path: "/api/costs?start=2026-05-01&end=2026-05-02&group_by=namespace", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"summary": map[string]any{"group_by": "namespace"}}},
		{name: "an unknown grouping", path: "/api/costs?group_by=namespaces", role: viewer, wantStatus: 400, wantJSON: errorJSON("ValidationError", nil)},
	})
}
