package model

// NotAssessed says, for one provider, how much compute the rightsizing
// and idle checks could not look at, and why: resources with cost in the
// recommendation window but no utilization samples. Without it an
// export-only account shows no finding and no word on why.
type NotAssessed struct {
	Provider ProviderKey `json:"provider"`
	// Resources is how many compute resources had cost in the window and
	// no utilization sample.
	Resources int `json:"resources"`
	// MonthlyCost is their cost over the window scaled to a month (730
	// hours), in Currency.
	MonthlyCost float64 `json:"monthly_cost"`
	Currency    string  `json:"currency"`
	// Reason is NotAssessedNoUtilization.
	Reason string `json:"reason"`
	// Message says it in a sentence, with what to do.
	Message string `json:"message"`
}

// NotAssessedNoUtilization is the reason of a NotAssessed: no utilization
// data reached costpilot for those resources.
const NotAssessedNoUtilization = "no_utilization"
