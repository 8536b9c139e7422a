package allocate

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// K8sTagPrefix starts a tag_based rule's key that names a Kubernetes
// dimension rather than a tag: k8s:cluster, k8s:namespace, k8s:workload,
// k8s:pod, k8s:label:KEY. The caller gives each pod's share of a node's
// lines these keys (K8sTag) before allocating.
const K8sTagPrefix = "k8s:"

// K8sTag is the rule key of Kubernetes dimension d.
func K8sTag(d model.Dimension) string { return K8sTagPrefix + string(d) }

// UsesK8s reports whether a rule set reads a Kubernetes dimension, so its
// lines must first be split by pod.
func UsesK8s(r model.AllocationRules) bool {
	if r.Method != MethodTagBased {
		return false
	}
	for _, t := range r.Tags {
		if strings.HasPrefix(strings.TrimSpace(t), K8sTagPrefix) {
			return true
		}
	}
	return false
}

// validK8sTag reports whether a k8s: key names a Kubernetes dimension.
func validK8sTag(t string) bool {
	d, ok := strings.CutPrefix(strings.TrimSpace(t), K8sTagPrefix)
	return !ok || model.Dimension(d).IsK8s()
}

// isIdleShare: a node's idle share is shared by the departments like a
// support fee, not unallocated, since no single team left it idle.
func isIdleShare(l model.CostLine) bool {
	return l.Tags[K8sTag(model.DimNamespace)] == model.IdleValue
}
