package model

// ExternalRecommendation is one finding of a cloud's own recommender as
// its connector read it: Recommendation carries the kind, resource, words
// and Source, with PotentialSavings a month in Currency at the prices the
// recommender quotes. recommend.MergeExternal prices it at the account's
// effective rates and merges it with costpilot's own.
type ExternalRecommendation struct {
	Recommendation
	// Account is the cloud account the resource belongs to (AWS account,
	// Azure subscription, Google Cloud project, OCI compartment or
	// tenancy), matched against the history's accounts for the rate.
	Account  string
	Currency string
	// AtEffectiveRates is true when the recommender already priced the
	// savings at the account's own rates, so they are not scaled again.
	AtEffectiveRates bool
	// ExternalID is the recommender's own id of the finding.
	ExternalID string
}

// ExternalRecommendations is what a connector's recommenders returned:
// the findings it could read, and a warning for each recommender it could
// not (a missing permission names the one to grant).
type ExternalRecommendations struct {
	Items    []ExternalRecommendation
	Warnings []string
}
