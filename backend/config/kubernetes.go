package config

import (
	"fmt"
	"strings"
)

// KubernetesConfig is the kubernetes section: the clusters whose OpenCost
// is read live (docs/kubernetes.md).
type KubernetesConfig struct {
	Clusters []KubernetesCluster `yaml:"clusters"`
	// Currency is the one OpenCost prices in (its default is USD); it is
	// the currency of estimated allocations.
	Currency string `yaml:"currency"`
	// Days is how far back the first sync of a cluster reads (OpenCost
	// keeps about 15 days by default).
	Days int `yaml:"days"`
}

// KubernetesCluster is one cluster of kubernetes.clusters.
type KubernetesCluster struct {
	Name        string `yaml:"name"`
	OpenCostURL string `yaml:"opencost_url"`
}

// The defaults of the kubernetes section.
const (
	DefaultKubernetesCurrency = "USD"
	DefaultKubernetesDays     = 15
	MaxKubernetesDays         = 400
)

func validateKubernetes(c *Config, add func(field, format string, args ...any)) {
	k := c.Kubernetes
	seen := map[string]bool{}
	for i, cl := range k.Clusters {
		f := fmt.Sprintf("kubernetes.clusters[%d]", i)
		name := strings.TrimSpace(cl.Name)
		switch {
		case name == "":
			add(f+".name", "is required")
		case seen[name]:
			add(f+".name", "%q is named twice", name)
		}
		seen[name] = true
		if strings.TrimSpace(cl.OpenCostURL) == "" {
			add(f+".opencost_url", "is required")
		} else {
			checkOutboundURL(c, f+".opencost_url", cl.OpenCostURL, add)
		}
	}
	if k.Currency != "" && (len(k.Currency) != 3 || strings.ToUpper(k.Currency) != k.Currency) {
		add("kubernetes.currency", "must be a three-letter ISO 4217 code such as USD, got %q", k.Currency)
	}
}
