// Package kubernetes reads Kubernetes cost allocations (OpenCost's
// /allocation answers, the EKS split cost allocation rows of an AWS CUR
// 2.0 export) into one shape, and names the billed resource each node or
// volume runs as, so the store can split the node's billed lines by the
// pods that ran on it (docs/kubernetes.md).
package kubernetes

import (
	"github.com/costpilot/costpilot/backend/model"
)

// Origin names where allocations come from.
type Origin string

// The origins.
const (
	OriginOpenCost Origin = "opencost"
	OriginEKS      Origin = "eks"
)

// AssetKind is what part of the bill a split divides.
type AssetKind string

// The asset kinds.
const (
	AssetNode   AssetKind = "node"
	AssetVolume AssetKind = "volume"
)

// Part is one allocation's share of one asset (a node or a volume) on one
// day: Weight is the source's cost of it, which sets the proportion in
// which the asset's billed lines are split, and Price what it adds when
// the asset has no billed line that day.
type Part struct {
	Kind       AssetKind
	Name       string // the node or volume name
	ProviderID string // as the source gives it
	Weight     float64
	Price      model.Nanos
	// CPUWeight and RAMWeight are the CPU and RAM parts of Weight, where
	// the source gives them (OpenCost, on a node).
	CPUWeight, RAMWeight float64
}

// Allocation is one pod's (or one node's idle share's) cost of one day.
type Allocation struct {
	Day          model.DayNum
	Cluster      string
	Namespace    string
	Workload     string // the controller's name; the pod's name for a bare pod
	WorkloadKind string
	Pod          string
	Labels       map[string]string
	Idle         bool
	Currency     string
	Parts        []Part
	// Day averages, where the source gives them: cores and bytes.
	CPURequest, CPUUsage, RAMRequest, RAMUsage float64
}

// Set is what one import or sync brings: allocations of an origin that
// replace, for each cluster, every allocation stored over the days given.
type Set struct {
	Origin      Origin
	Allocations []Allocation
	// Days lists, per cluster, the inclusive day span the set covers
	// (every day of it is replaced, even one with no allocation).
	Days map[string][2]model.DayNum
}

// AddDay widens the set's span of a cluster to include day d.
func (s *Set) AddDay(cluster string, d model.DayNum) {
	if s.Days == nil {
		s.Days = map[string][2]model.DayNum{}
	}
	sp, ok := s.Days[cluster]
	if !ok {
		s.Days[cluster] = [2]model.DayNum{d, d}
		return
	}
	s.Days[cluster] = [2]model.DayNum{min(sp[0], d), max(sp[1], d)}
}
