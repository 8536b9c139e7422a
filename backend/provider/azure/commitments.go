package azure

// commitmentsNote is why the live Azure connector reports no commitment
// discounts. Reservation summaries (Microsoft.Consumption) answer only at
// billing account, billing profile or reservation order scope, never at the
// subscription scope this connector is configured with, and give reserved
// and used hours without costs; savings plan benefit utilization summaries
// are likewise at billing or savings plan order scope and give
// percentages. The Cost Management query gives amortized cost by
// PricingModel but no on-demand (list) price, so neither coverage nor
// savings could be stated without inventing the list cost of covered
// usage.
const commitmentsNote = "the live Azure connector reads subscriptions through the Cost Management query, " +
	"which has no on-demand price for usage a reservation or savings plan covered, and Azure's reservation and " +
	"savings plan summaries answer only at billing account or order scope, in hours or percentages; " +
	"import Azure's amortized cost export (FOCUS or actual/amortized pair) to see coverage, utilization and savings"

// CommitmentsNote implements provider.CommitmentSource: not reported, and why.
func (p *Provider) CommitmentsNote() string { return commitmentsNote }
