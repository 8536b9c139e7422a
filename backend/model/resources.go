package model

// ResourceRow is a resource with its provider: a row of GET
// /api/costs/resources and of its CSV.
type ResourceRow struct {
	Provider ProviderKey `json:"provider"`
	ResourceCost
}

// ResourcePage is GET /api/costs/resources: one page of every resource
// with cost in a period and scope, most expensive first. Total is how
// many there are in all and TotalCost what they cost together, so a table
// can say "1–50 of 5,000".
type ResourcePage struct {
	Total     int           `json:"total"`
	Offset    int           `json:"offset"`
	Limit     int           `json:"limit"`
	TotalCost float64       `json:"total_cost"`
	Currency  string        `json:"currency"`
	Start     string        `json:"start"` // the period's inclusive days
	End       string        `json:"end"`
	Resources []ResourceRow `json:"resources"`
}
