package recommend

import (
	"fmt"
	"math"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// Rightsizing of Kubernetes requests (docs/recommendations.md,
// "Kubernetes requests").
const (
	// RequestEfficiency: a workload whose usage is below this share of
	// its CPU (or memory) request is asked to lower that request.
	RequestEfficiency = 0.5
	// RequestHeadroom is what the recommended request keeps above the
	// average usage.
	RequestHeadroom = 0.2
	// MinRequestDays is how many days of requests and usage it needs.
	MinRequestDays = 2
)

// K8sWorkload is one Kubernetes workload over the recommendation window:
// its requests and usage (sums of its pods' day averages: core-days and
// byte-days, over Days days) and what its CPU and its memory cost there,
// its splits' share of its nodes' bill (OpenCost charges a pod the larger
// of request and usage, so an over-requested pod's cost is its request's).
type K8sWorkload struct {
	Provider                           model.ProviderKey
	Cluster, Namespace, Workload, Kind string
	Days                               int
	CPURequest, CPUUsage               float64
	RAMRequest, RAMUsage               float64
	CPUCost, RAMCost                   float64
}

// K8sRequests recommends lowering the requests of the workloads that use
// less than RequestEfficiency of them: to the average usage plus
// RequestHeadroom. For each resource so lowered the saving is its cost
// times the share of the request given up, 1 − new/old; the monthly
// figure scales the window's saving to pricing.HoursPerMonth. It is the
// workload's share of its nodes that drops: the bill drops when the
// cluster's autoscaler removes the capacity freed.
func K8sRequests(ws []K8sWorkload) []model.Recommendation {
	var out []model.Recommendation
	for _, w := range ws {
		if r, ok := k8sRequest(w); ok {
			out = append(out, r)
		}
	}
	return finish(out)
}

// lowered is one resource's request change: the new request and the
// window's saving (0, false when the request is used enough).
func lowered(req, use, cost float64) (float64, float64, bool) {
	if req <= 0 || use < 0 || use >= RequestEfficiency*req {
		return req, 0, false
	}
	to := math.Min(req, use*(1+RequestHeadroom))
	return to, cost * (1 - to/req), true
}

func k8sRequest(w K8sWorkload) (model.Recommendation, bool) {
	if w.Days < MinRequestDays {
		return model.Recommendation{}, false
	}
	n := float64(w.Days)
	cpuTo, cpuSave, cpuLow := lowered(w.CPURequest, w.CPUUsage, w.CPUCost)
	ramTo, ramSave, ramLow := lowered(w.RAMRequest, w.RAMUsage, w.RAMCost)
	if !cpuLow && !ramLow {
		return model.Recommendation{}, false
	}
	perMonth := pricing.HoursPerMonth / hoursPerDay / n
	savings := money((cpuSave + ramSave) * perMonth)
	if savings < MinMonthlySavings {
		return model.Recommendation{}, false
	}
	var what string
	if cpuLow {
		what = fmt.Sprintf("CPU request from %.3g to %.3g cores (%.0f%% used)", w.CPURequest/n, cpuTo/n, 100*w.CPUUsage/w.CPURequest)
	}
	if ramLow {
		if what != "" {
			what += " and "
		}
		what += fmt.Sprintf("memory request from %.0f to %.0f MiB (%.0f%% used)", w.RAMRequest/n/(1<<20), ramTo/n/(1<<20), 100*w.RAMUsage/w.RAMRequest)
	}
	cur := (w.CPUCost + w.RAMCost) * perMonth
	ev := evidence{completeness: 1, days: n, stability: 1, kind: 0.9}
	return model.Recommendation{
		Type:         model.RecK8sRequests,
		ResourceID:   w.Cluster + "/" + w.Namespace + "/" + w.Workload,
		ResourceName: w.Workload,
		ResourceType: "k8s_" + kindOr(w.Kind),
		Description: fmt.Sprintf("Lower the %s of %s %s in %s/%s (average over %d days, plus %.0f%% headroom): "+
			"its share of the nodes drops by %s a month.", what, kindOr(w.Kind), w.Workload, w.Cluster, w.Namespace,
			w.Days, RequestHeadroom*100, dollars(savings)),
		CurrentConfig:        &model.InstanceConfig{Cost: money(cur)},
		RecommendedConfig:    &model.InstanceConfig{Cost: money(cur - savings)},
		PotentialSavings:     savings,
		Priority:             priority(savings, riskMedium),
		Provider:             w.Provider,
		Confidence:           ev.confidence(),
		ImplementationEffort: model.EffortLow,
		Details: map[string]any{
			"cluster":               w.Cluster,
			"namespace":             w.Namespace,
			"workload":              w.Workload,
			"days_analyzed":         w.Days,
			"cpu_request_cores":     round4(w.CPURequest / n),
			"cpu_usage_cores":       round4(w.CPUUsage / n),
			"recommended_cpu_cores": round4(cpuTo / n),
			"ram_request_bytes":     math.Round(w.RAMRequest / n),
			"ram_usage_bytes":       math.Round(w.RAMUsage / n),
			"recommended_ram_bytes": math.Round(ramTo / n),
			"cpu_cost_monthly":      money(w.CPUCost * perMonth),
			"ram_cost_monthly":      money(w.RAMCost * perMonth),
			"cpu_savings_monthly":   money(cpuSave * perMonth),
			"ram_savings_monthly":   money(ramSave * perMonth),
			"efficiency_threshold":  RequestEfficiency,
		},
	}, true
}

func kindOr(k string) string {
	if k == "" {
		return "workload"
	}
	return k
}
