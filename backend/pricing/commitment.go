package pricing

import "github.com/costpilot/costpilot/backend/model"

// commitmentDiscounts are typical no-upfront compute discounts off on-demand
// by term (years): AWS Compute Savings Plans (m5/m6i class in us-east-1);
// Azure 1- and 3-year VM reservations paid monthly (D2s v5: $519 a year
// against $0.096 an hour is 38 %); GCP resource-based committed use
// discounts for general-purpose series (37 % and 55 %). OCI publishes no
// fixed commitment discount (annual flex credits are negotiated), so its
// figures are deliberately conservative assumptions.
var commitmentDiscounts = map[model.ProviderKey]map[int]float64{
	model.AWS:   {1: 0.28, 3: 0.50},
	model.Azure: {1: 0.38, 3: 0.58},
	model.GCP:   {1: 0.37, 3: 0.55},
	model.OCI:   {1: 0.10, 3: 0.15},
}

// CommitmentDiscount gives the typical 1-year or 3-year no-upfront discount
// fraction for compute; 0 for other terms or unknown providers.
func CommitmentDiscount(p model.ProviderKey, years int) float64 {
	return commitmentDiscounts[p][years]
}

// CommitmentKind names the provider's commitment product.
func CommitmentKind(p model.ProviderKey) string {
	switch p {
	case model.AWS:
		return "Compute Savings Plan"
	case model.Azure:
		return "Reserved VM Instances"
	case model.GCP:
		return "Committed Use Discount"
	case model.OCI:
		return "Annual Flex commitment"
	}
	return ""
}
