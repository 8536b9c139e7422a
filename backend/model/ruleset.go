package model

// RuleSet is a saved, named set of allocation rules.
type RuleSet struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Rules     AllocationRules `json:"rules"`
	CreatedAt string          `json:"created_at"`
	UpdatedAt string          `json:"updated_at"`
}
