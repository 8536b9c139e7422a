package model

// ContractCommitment is a FOCUS contract commitment (an amount of spend
// or usage committed over a period) with how far the charges applied to
// it have come: GET /api/contracts.
type ContractCommitment struct {
	Provider          ProviderKey `json:"provider"`
	ContractID        string      `json:"contract_id,omitempty"`
	ID                string      `json:"id"`
	Category          string      `json:"category"` // Spend or Usage
	Type              string      `json:"type,omitempty"`
	Description       string      `json:"description,omitempty"`
	Start             string      `json:"start"` // the commitment's period, days, inclusive
	End               string      `json:"end"`
	ContractStart     string      `json:"contract_start,omitempty"`
	ContractEnd       string      `json:"contract_end,omitempty"`
	Currency          string      `json:"currency,omitempty"`
	Committed         float64     `json:"committed"` // spend committed (0 for usage only)
	CommittedExact    string      `json:"committed_exact,omitempty"`
	CommittedQuantity *float64    `json:"committed_quantity,omitempty"`
	Unit              string      `json:"unit,omitempty"`
	Applied           float64     `json:"applied"` // cost applied so far within the period
	AppliedExact      string      `json:"applied_exact"`
	AppliedQuantity   float64     `json:"applied_quantity"`
	Rows              int64       `json:"rows"` // charge rows that applied to it
	// Share is applied ÷ committed (spend, or usage for a Usage
	// commitment); Elapsed the share of the period gone by; Projected the
	// share at the period's end at the pace so far (while it runs).
	Share     float64 `json:"share"`
	Elapsed   float64 `json:"elapsed"`
	Projected float64 `json:"projected,omitempty"`
	// Status: upcoming, on_track, at_risk, met, short or no_charges.
	Status string `json:"status"`
}
