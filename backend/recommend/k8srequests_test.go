package recommend

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestK8sRequests(t *testing.T) {
	const gib = 1 << 30
	base := K8sWorkload{Provider: model.AWS, Cluster: "prod", Namespace: "shop", Workload: "api", Kind: "deployment", Days: 2,
		CPURequest: 2, CPUUsage: 0.5, RAMRequest: 2 * gib, RAMUsage: gib, CPUCost: 12, RAMCost: 4}
	perMonth := 730.0 / 24 / 2
	tests := []struct {
		name    string
		change  func(*K8sWorkload)
		savings float64 // 0: no recommendation
		cpuTo   float64
	}{
		// CPU 25 % used: 1 core a day down to 0.3 (0.25 + 20 %), 70 % of
		// its cost of 12 over the two days; memory 50 % used stays.
		{"cpu", func(*K8sWorkload) {}, 127.75, 0.3},
		// Memory 25 % used too: 70 % of its 4.
		{"cpu and memory", func(w *K8sWorkload) { w.RAMUsage = gib / 2 }, 170.33, 0.3},
		{"used enough", func(w *K8sWorkload) { w.CPUUsage = 1 }, 0, 0},
		{"one day", func(w *K8sWorkload) { w.Days = 1 }, 0, 0},
		{"no request", func(w *K8sWorkload) { w.CPURequest = 0 }, 0, 0},
		{"too little to matter", func(w *K8sWorkload) { w.CPUCost = 0.05 }, 0, 0},
		// No usage at all: the headroom has nothing to add to; all of it.
		{"unused", func(w *K8sWorkload) { w.CPUUsage = 0 }, 182.5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := base
			tt.change(&w)
			recs := K8sRequests([]K8sWorkload{w})
			if tt.savings == 0 {
				if len(recs) != 0 {
					t.Fatalf("recommended %+v", recs)
				}
				return
			}
			if len(recs) != 1 {
				t.Fatalf("got %d recommendations", len(recs))
			}
			r := recs[0]
			if r.PotentialSavings != tt.savings || r.Type != model.RecK8sRequests || r.ResourceID != "prod/shop/api" ||
				r.Details["recommended_cpu_cores"] != tt.cpuTo || r.ID == "" {
				t.Errorf("recommendation %+v: want savings %g, cpu to %g", r, tt.savings, tt.cpuTo)
			}
			if want := money((w.CPUCost + w.RAMCost) * perMonth); r.CurrentConfig.Cost != want {
				t.Errorf("current cost %g, want %g", r.CurrentConfig.Cost, want)
			}
		})
	}
}
