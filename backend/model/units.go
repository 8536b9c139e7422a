package model

import (
	"maps"
	"slices"
	"strings"
)

// UnitMetric is a business metric (orders, requests, customers…) whose
// daily values divide costs: GET /api/units. Scope maps a dimension
// (provider, service…) or a tag key to the value the divided costs must
// have; empty, the metric divides every cost.
type UnitMetric struct {
	Name     string            `json:"name"`
	Scope    map[string]string `json:"scope"`
	FirstDay string            `json:"first_day"`
	LastDay  string            `json:"last_day"`
	Days     int               `json:"days"`  // days with a value
	Total    float64           `json:"total"` // the sum of the values
}

// PerUnit is summary.per_unit of a cost analysis asked per a metric: the
// period's cost in the metric's scope divided by its units, in total and
// per day. CostPerUnit is nil where there are no units to divide by.
type PerUnit struct {
	Metric      string            `json:"metric"`
	Scope       map[string]string `json:"scope"`
	Units       float64           `json:"units"`
	Cost        float64           `json:"cost"` // the cost divided: the period's, within the scope
	CostPerUnit *float64          `json:"cost_per_unit"`
	DailyCosts  []UnitDay         `json:"daily_costs"`
	// Previous is the same division over the previous span of the same
	// length (summary.previous), for a period the analysis resolves.
	Previous *PerUnitPrevious `json:"previous,omitempty"`
}

// PerUnitPrevious is PerUnit over the previous span.
type PerUnitPrevious struct {
	Start       string   `json:"start"`
	End         string   `json:"end"`
	Units       float64  `json:"units"`
	Cost        float64  `json:"cost"`
	CostPerUnit *float64 `json:"cost_per_unit"`
}

// UnitDay is one day of PerUnit.DailyCosts.
type UnitDay struct {
	Date        string   `json:"date"`
	Cost        float64  `json:"cost"`
	Units       float64  `json:"units"`
	CostPerUnit *float64 `json:"cost_per_unit"`
}

// FormatScope writes a scope as key=value pairs, "(all costs)" when empty.
func FormatScope(scope map[string]string) string {
	if len(scope) == 0 {
		return "(all costs)"
	}
	keys := slices.Sorted(maps.Keys(scope))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strings.TrimPrefix(k, "tag:") + "=" + scope[k]
	}
	return strings.Join(parts, ",")
}
