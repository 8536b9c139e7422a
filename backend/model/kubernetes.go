package model

import "strings"

// The Kubernetes dimensions (docs/kubernetes.md): a split of the billed
// lines of the nodes (and volumes) that Kubernetes allocations cover. A
// pod label is the dimension "label:<key>".
const (
	DimCluster   Dimension = "cluster"
	DimNamespace Dimension = "namespace"
	DimWorkload  Dimension = "workload" // the pod's controller
	DimPod       Dimension = "pod"
)

// K8sDimensions lists the fixed Kubernetes dimensions.
var K8sDimensions = []Dimension{DimCluster, DimNamespace, DimWorkload, DimPod}

// IdleValue is the value of every Kubernetes dimension but the cluster for
// a node's share that no pod used.
const IdleValue = "(idle)"

// labelDimPrefix starts the dimension of a pod label key.
const labelDimPrefix = "label:"

// LabelDimension is the dimension of pod label key k.
func LabelDimension(k string) Dimension { return Dimension(labelDimPrefix + k) }

// LabelKey returns the pod label key of a label dimension.
func (d Dimension) LabelKey() (string, bool) {
	k, ok := strings.CutPrefix(string(d), labelDimPrefix)
	return k, ok && k != ""
}

// IsK8s reports whether d is a Kubernetes dimension: one of K8sDimensions
// or a pod label.
func (d Dimension) IsK8s() bool {
	if _, ok := d.LabelKey(); ok {
		return true
	}
	for _, k := range K8sDimensions {
		if d == k {
			return true
		}
	}
	return false
}

// NoticeK8sEstimated says a Kubernetes grouping holds allocations on
// nodes the bill lacks, at their source's price: the groups then add up
// to more than the bill's total.
const NoticeK8sEstimated = "k8s_estimated"
