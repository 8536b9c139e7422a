package model

// CommitmentFact is one day of one commitment discount (a reservation, a
// savings plan, a committed use discount) in one billing account and
// currency, or, with an empty ID, the eligible usage no commitment covered
// that day. Amounts are in nano-units of Currency; Units and UnusedUnits in
// nano-units of the commitment's own unit (reserved hours), zero when the
// source gives none.
type CommitmentFact struct {
	Account  string
	Day      DayNum
	ID       string // empty: eligible usage paid on demand
	Type     string // Reserved Instance, Savings Plan, Reservation, Committed Use Discount…
	Category string // FOCUS CommitmentDiscountCategory: Usage or Spend
	End      DayNum // the last day of the term; 0 when the source does not say
	Currency string
	// CoveredList is the on-demand-equivalent (list) cost of the usage the
	// commitment covered, CoveredCost what that usage cost (amortized).
	CoveredList, CoveredCost Nanos
	// Used and Unused are the commitment's purchased amount applied to
	// usage and left unused (amortized); their sum is what was purchased.
	Used, Unused Nanos
	// OnDemand is the list cost of eligible usage no commitment covered
	// (facts with an empty ID only).
	OnDemand Nanos
	// Units is the purchased quantity (RI hours) and UnusedUnits the part
	// left unused, when the source gives them.
	Units, UnusedUnits Nanos
}

// CommitmentReport is GET /api/commitments: coverage, utilization, unused
// cost and savings of commitment discounts per provider and type over a
// period, and the commitments that expire soon.
type CommitmentReport struct {
	Period    AnalysisPeriod      `json:"period"`
	Currency  string              `json:"currency"`
	Providers []CommitmentSummary `json:"providers"`
	// Expiring are the commitments whose term ends within 90 days of the
	// period's end (ExpiringWithin30 marks the nearest).
	Expiring []ExpiringCommitment `json:"expiring"`
	// Basis, when set, says the default period was moved back to the last
	// days with data, and why.
	Basis *Basis `json:"basis,omitempty"`
}

// Basis is the days an answer read: From and To inclusive (YYYY-MM-DD),
// and Reason when they are not the days the question implied (the data
// ends before yesterday, so the last days with data were read instead).
type Basis struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason,omitempty"`
}

// CommitmentSummary is one provider's commitments of one type (Type "" is
// the provider's total). Shares are of the provider's eligible usage, so
// the types' coverages and savings rates add up to the total's. A ratio is
// nil when its denominator is zero or the source does not report it
// (Reported false: say "not reported").
type CommitmentSummary struct {
	Provider ProviderKey `json:"provider"`
	Source   SourceKind  `json:"source"`
	Type     string      `json:"type"`
	Reported bool        `json:"reported"`
	Note     string      `json:"note,omitempty"`
	// EligibleOnDemand is the list cost of all eligible usage (covered or
	// not); CoveredOnDemand the list cost of what commitments covered.
	EligibleOnDemand float64  `json:"eligible_on_demand_cost"`
	CoveredOnDemand  float64  `json:"covered_on_demand_cost"`
	Coverage         *float64 `json:"coverage"`
	// PurchasedCost is the amortized commitment of the period; UsedCost
	// and UnusedCost split it.
	PurchasedCost float64  `json:"purchased_cost"`
	UsedCost      float64  `json:"used_cost"`
	UnusedCost    float64  `json:"unused_cost"`
	Utilization   *float64 `json:"utilization"`
	// UtilizationBasis is "hours" when utilization is of reserved units,
	// "cost" when of the amortized commitment.
	UtilizationBasis string `json:"utilization_basis,omitempty"`
	// NetSavings is what covered usage would have cost on demand minus
	// what it and the unused commitment cost; EffectiveSavingsRate is it
	// over EligibleOnDemand.
	NetSavings           float64  `json:"net_savings"`
	EffectiveSavingsRate *float64 `json:"effective_savings_rate"`
	// CoverageUnknown is true when the source gives no on-demand price
	// (Note says why): EligibleOnDemand, CoveredOnDemand and NetSavings
	// are then unknown, not zero, and Coverage and EffectiveSavingsRate
	// nil; utilization and unused cost stand.
	CoverageUnknown bool `json:"coverage_unknown"`
	Commitments     int  `json:"commitments"`
	// ExpiryUnknown counts commitments whose source gives no end date.
	ExpiryUnknown int `json:"expiry_unknown"`
}

// ExpiringCommitment is a commitment whose term ends soon.
type ExpiringCommitment struct {
	Provider         ProviderKey `json:"provider"`
	ID               string      `json:"id"`
	Type             string      `json:"type"`
	End              string      `json:"end"`
	DaysLeft         int         `json:"days_left"`
	ExpiringWithin30 bool        `json:"expiring_within_30"`
	// DailyCommitment is its purchased amount per day over the period, in
	// the report's currency: what lapses unless renewed.
	DailyCommitment float64 `json:"daily_commitment"`
}
