package model

// RuleSet is a saved, named set of allocation rules.
type RuleSet struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Rules     AllocationRules `json:"rules"`
	CreatedAt string          `json:"created_at"`
	UpdatedAt string          `json:"updated_at"`
}

// StatementSet is the chargeback statements of one allocation rule set
// and billing period: one per department (or project), adding up to
// Allocated (Total less Unallocated).
type StatementSet struct {
	RuleSet     string      `json:"rule_set"`
	Period      string      `json:"period"` // YYYY-MM
	By          string      `json:"by"`     // department or project
	Start       string      `json:"start"`  // the days allocated
	End         string      `json:"end"`
	Currency    string      `json:"currency"`
	Total       float64     `json:"total"`
	Unallocated float64     `json:"unallocated"`
	Allocated   float64     `json:"allocated"`
	GeneratedAt string      `json:"generated_at"`
	Statements  []Statement `json:"statements"`
}

// Statement is one department's or project's charge for the period.
type Statement struct {
	Name   string  `json:"name"`
	Amount float64 `json:"amount"`
	Share  float64 `json:"share"` // of the allocated total
}
