package model

import (
	"encoding/json"
	"fmt"
)

// MarshalJSON writes summary and one object per provider at the top level,
// as GET /api/costs shapes the result (docs/api.md).
func (a CostAnalysis) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(a.Providers)+1)
	m["summary"] = a.Summary
	for k, v := range a.Providers {
		m[string(k)] = v
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the shape MarshalJSON writes.
func (a *CostAnalysis) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	a.Providers = map[ProviderKey]ProviderCosts{}
	for k, v := range raw {
		if k == "summary" {
			if err := json.Unmarshal(v, &a.Summary); err != nil {
				return fmt.Errorf("summary: %w", err)
			}
			continue
		}
		var pc ProviderCosts
		if err := json.Unmarshal(v, &pc); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		a.Providers[ProviderKey(k)] = pc
	}
	return nil
}
