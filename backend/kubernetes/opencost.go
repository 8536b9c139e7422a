package kubernetes

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// An OpenCost /allocation answer: {"code":200,"data":[{name: allocation}…]},
// one map per step window. Only the fields used are read.
type ocAnswer struct {
	Code    int                        `json:"code"`
	Message string                     `json:"message"`
	Data    []map[string]*ocAllocation `json:"data"`
}

type ocAllocation struct {
	Name       string `json:"name"`
	Properties struct {
		Cluster        string            `json:"cluster"`
		Node           string            `json:"node"`
		Namespace      string            `json:"namespace"`
		Controller     string            `json:"controller"`
		ControllerKind string            `json:"controllerKind"`
		Pod            string            `json:"pod"`
		ProviderID     string            `json:"providerID"`
		Labels         map[string]string `json:"labels"`
	} `json:"properties"`
	Window struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"window"`
	CPUCost                float64             `json:"cpuCost"`
	CPUCostAdjustment      float64             `json:"cpuCostAdjustment"`
	GPUCost                float64             `json:"gpuCost"`
	GPUCostAdjustment      float64             `json:"gpuCostAdjustment"`
	RAMCost                float64             `json:"ramCost"`
	RAMCostAdjustment      float64             `json:"ramCostAdjustment"`
	PVCost                 float64             `json:"pvCost"`
	NetworkCost            float64             `json:"networkCost"`
	LoadBalancerCost       float64             `json:"loadBalancerCost"`
	SharedCost             float64             `json:"sharedCost"`
	ExternalCost           float64             `json:"externalCost"`
	TotalCost              float64             `json:"totalCost"`
	CPUCoreRequestAverage  float64             `json:"cpuCoreRequestAverage"`
	CPUCoreUsageAverage    float64             `json:"cpuCoreUsageAverage"`
	RAMBytesRequestAverage float64             `json:"ramByteRequestAverage"`
	RAMByteUsageAverage    float64             `json:"ramByteUsageAverage"`
	PVs                    map[string]ocVolume `json:"pvs"`
}

type ocVolume struct {
	Cost       float64 `json:"cost"`
	ProviderID string  `json:"providerID"`
}

// idleName is the name OpenCost gives idle allocations (alone, or as the
// last segment of an aggregated name).
const idleName = "__idle__"

// ParseOpenCost reads an OpenCost /allocation answer (step=1d windows,
// any aggregate down to pod) from r; name is the file or URL errors name.
// cluster, when set, overrides the cluster each allocation names (a live
// source's configured name); currency is the one OpenCost prices in.
func ParseOpenCost(r io.Reader, name, cluster, currency string) (Set, error) {
	set := Set{Origin: OriginOpenCost}
	var ans ocAnswer
	dec := json.NewDecoder(r)
	if err := dec.Decode(&ans); err != nil {
		return set, fmt.Errorf("%s: not an OpenCost /allocation answer: %w", name, err)
	}
	if ans.Code != 0 && ans.Code != 200 {
		return set, fmt.Errorf("%s: OpenCost answered code %d: %s", name, ans.Code, clip(ans.Message))
	}
	return fromWindows(ans.Data, name, cluster, currency)
}

// fromWindows reads the allocations of step=1d windows.
func fromWindows(data []map[string]*ocAllocation, name, cluster, currency string) (Set, error) {
	set := Set{Origin: OriginOpenCost}
	ans := ocAnswer{Data: data}
	// Pods name their node; the node's provider id may be on another
	// allocation of it (its idle share), so gather them first.
	providerIDs := map[[2]string]string{}
	for _, window := range ans.Data {
		for _, a := range window {
			if a != nil && a.Properties.ProviderID != "" && a.Properties.Node != "" {
				providerIDs[[2]string{a.Properties.Cluster, a.Properties.Node}] = a.Properties.ProviderID
			}
		}
	}
	for wi, window := range ans.Data {
		names := make([]string, 0, len(window))
		for n := range window {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			a := window[n]
			if a == nil {
				continue
			}
			al, err := a.allocation(n, cluster, currency, providerIDs)
			if err != nil {
				return set, fmt.Errorf("%s: data[%d][%q]: %w", name, wi, n, err)
			}
			set.AddDay(al.Cluster, al.Day)
			if len(al.Parts) > 0 {
				set.Allocations = append(set.Allocations, al)
			}
		}
	}
	return set, nil
}

func (a *ocAllocation) allocation(key, cluster, currency string, providerIDs map[[2]string]string) (Allocation, error) {
	var al Allocation
	day, err := windowDay(a.Window.Start, a.Window.End)
	if err != nil {
		return al, err
	}
	for _, f := range []float64{a.CPUCost, a.GPUCost, a.RAMCost, a.PVCost, a.TotalCost, a.NetworkCost, a.LoadBalancerCost} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return al, fmt.Errorf("a cost is negative or not a number")
		}
	}
	p := a.Properties
	al.Day, al.Currency = day, currency
	al.Cluster = cluster
	if al.Cluster == "" {
		al.Cluster = p.Cluster
	}
	name := a.Name
	if name == "" {
		name = key
	}
	al.Idle = name == idleName || strings.HasSuffix(name, "/"+idleName)
	if al.Idle {
		al.Namespace, al.Workload, al.Pod = model.IdleValue, model.IdleValue, model.IdleValue
	} else {
		al.Namespace, al.Pod, al.WorkloadKind = p.Namespace, p.Pod, p.ControllerKind
		al.Workload = p.Controller
		if al.Workload == "" {
			al.Workload = p.Pod
		}
		al.Labels = p.Labels
		al.CPURequest, al.CPUUsage = a.CPUCoreRequestAverage, a.CPUCoreUsageAverage
		al.RAMRequest, al.RAMUsage = a.RAMBytesRequestAverage, a.RAMByteUsageAverage
	}
	providerID := p.ProviderID
	if providerID == "" {
		providerID = providerIDs[[2]string{p.Cluster, p.Node}]
	}
	// The volumes that name their provider id split those volumes; the
	// rest of the allocation splits its node.
	total := a.TotalCost
	volNames := make([]string, 0, len(a.PVs))
	for n := range a.PVs {
		volNames = append(volNames, n)
	}
	sort.Strings(volNames)
	for _, n := range volNames {
		v := a.PVs[n]
		if v.ProviderID == "" || v.Cost <= 0 {
			continue
		}
		al.Parts = append(al.Parts, Part{Kind: AssetVolume, Name: n, ProviderID: v.ProviderID, Weight: v.Cost, Price: model.NanosFromFloat(v.Cost)})
		total -= v.Cost
	}
	nodeWeight := a.CPUCost + a.CPUCostAdjustment + a.GPUCost + a.GPUCostAdjustment + a.RAMCost + a.RAMCostAdjustment
	if nodeWeight > 0 || total > 0 {
		al.Parts = append(al.Parts, Part{Kind: AssetNode, Name: p.Node, ProviderID: providerID,
			Weight: max(nodeWeight, 0), Price: model.NanosFromFloat(max(total, 0)),
			CPUWeight: max(a.CPUCost+a.CPUCostAdjustment, 0), RAMWeight: max(a.RAMCost+a.RAMCostAdjustment, 0)})
	}
	return al, nil
}

// windowDay is the UTC day of a step=1d window: it starts at midnight UTC
// and lasts at most a day (the current day's window is shorter).
func windowDay(start, end string) (model.DayNum, error) {
	s, err := time.Parse(time.RFC3339, start)
	if err != nil {
		return 0, fmt.Errorf("window.start %q is not an RFC 3339 time", clip(start))
	}
	e, err := time.Parse(time.RFC3339, end)
	if err != nil {
		return 0, fmt.Errorf("window.end %q is not an RFC 3339 time", clip(end))
	}
	s, e = s.UTC(), e.UTC()
	if !s.Equal(s.Truncate(24*time.Hour)) || !e.After(s) || e.Sub(s) > 24*time.Hour {
		return 0, fmt.Errorf("window %s..%s is not one UTC day: ask OpenCost for step=1d", start, end)
	}
	return model.DayOf(s), nil
}

// clip shortens what a file said before it goes into an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
