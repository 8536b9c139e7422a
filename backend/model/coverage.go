package model

// TagCoverage is GET /api/allocation/coverage: how much of the usage
// spend of a period carries an owner tag (allocatable) and how much does
// not, per provider, account and owner, month by month, with a worklist of
// tags to set. It is a measure, not a recommendation: tagging saves
// nothing by itself.
type TagCoverage struct {
	From      string   `json:"from"` // YYYY-MM-DD, the period's first day
	To        string   `json:"to"`   // its last day
	Currency  string   `json:"currency"`
	OwnerKeys []string `json:"owner_keys"` // the tag keys that make spend allocatable
	CoverageCell
	Providers []CoverageRow   `json:"providers"`
	Accounts  []CoverageRow   `json:"accounts"` // most unallocated spend first
	Owners    []OwnerCost     `json:"owners"`   // most spend first
	Months    []CoverageMonth `json:"months"`   // oldest first
	Worklist  []TagWork       `json:"worklist"` // most unallocated spend first
	// AccountsTotal and WorklistTotal are how many rows there are in all;
	// the answer lists the largest (AccountsListed, WorklistListed).
	AccountsTotal int `json:"accounts_total"`
	WorklistTotal int `json:"worklist_total"`
}

// CoverageCell is spend split into allocatable and unallocated.
type CoverageCell struct {
	Total            float64 `json:"total_cost"`
	Allocatable      float64 `json:"allocatable_cost"`
	Unallocated      float64 `json:"unallocated_cost"`
	AllocatableShare float64 `json:"allocatable_share"` // 0..1; 0 when there is no spend
}

// CoverageRow is one provider's or account's coverage.
type CoverageRow struct {
	Provider ProviderKey `json:"provider"`
	Account  string      `json:"account,omitempty"`
	CoverageCell
	UntaggedResources int `json:"untagged_resources"`
}

// OwnerCost is the spend tagged with one owner value.
type OwnerCost struct {
	Key   string  `json:"key"`
	Value string  `json:"value"`
	Cost  float64 `json:"cost"`
}

// CoverageMonth is a calendar month's coverage (the period's first and
// last months may be partial: From and To say which days).
type CoverageMonth struct {
	Month string `json:"month"` // YYYY-MM
	From  string `json:"from"`
	To    string `json:"to"`
	CoverageCell
}

// TagWork is one account's tagging work: its untagged spend and the tags
// suggested for its largest untagged resources.
type TagWork struct {
	Provider          ProviderKey     `json:"provider"`
	Account           string          `json:"account"`
	UnallocatedCost   float64         `json:"unallocated_cost"`
	SuggestedCost     float64         `json:"suggested_cost"` // the untagged spend the suggestions cover
	UntaggedResources int             `json:"untagged_resources"`
	Suggestions       []TagSuggestion `json:"suggestions"`
}

// TagSuggestion is a proposed set of owner tags for one untagged resource.
type TagSuggestion struct {
	ResourceID string            `json:"resource_id"`
	Cost       float64           `json:"cost"`
	Tags       map[string]string `json:"tags"`
	Reason     string            `json:"reason"` // name, neighbour or account
}
