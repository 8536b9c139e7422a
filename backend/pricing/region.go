package pricing

import (
	"strings"
	"unicode"

	"github.com/costpilot/costpilot/backend/model"
)

// ReferenceRegion is the region each provider's multipliers are relative
// to: the one with the most complete price table.
func ReferenceRegion(p model.ProviderKey) string {
	switch p {
	case model.AWS:
		return "us-east-1"
	case model.Azure:
		return "eastus"
	case model.GCP:
		return "us-central1"
	case model.OCI:
		return "us-ashburn-1"
	}
	return ""
}

// knownMultipliers are published regional price ratios to the reference
// region for general-purpose compute (AWS: m5.large; Azure: D2s v5; GCP: n2
// vCPU). They price regions and families that the table lacks.
var knownMultipliers = map[model.ProviderKey]map[string]float64{
	model.AWS: {
		"us-east-1": 1, "us-east-2": 1, "us-west-2": 1, "us-west-1": 1.1667,
		"ca-central-1": 1.1146, "eu-west-1": 1.1146, "eu-west-2": 1.1563, "eu-west-3": 1.1667,
		"eu-central-1": 1.1979, "eu-north-1": 1.0625, "ap-south-1": 1.0521,
		"ap-southeast-1": 1.25, "ap-southeast-2": 1.25, "ap-northeast-1": 1.2917, "sa-east-1": 1.5938,
	},
	model.Azure: {
		"eastus": 1, "eastus2": 1, "westus2": 1, "westus3": 1, "westeurope": 1.1979,
	},
	model.GCP: {
		"us-central1": 1, "us-east1": 1, "us-west1": 1, "us-east4": 1.1263,
		"europe-west1": 1.1, "europe-west4": 1.1,
	},
}

// prefixMultipliers are rough geography-level ratios for regions absent
// from knownMultipliers; the first matching prefix wins.
var prefixMultipliers = map[model.ProviderKey][]struct {
	prefix string
	factor float64
}{
	model.AWS: {{"us-", 1}, {"ca-", 1.11}, {"eu-", 1.15}, {"ap-", 1.25}, {"sa-", 1.59}, {"me-", 1.3}, {"af-", 1.3}, {"il-", 1.3}},
	model.Azure: {{"brazil", 1.6}, {"europe", 1.2}, {"uk", 1.2}, {"france", 1.2}, {"germany", 1.2}, {"switzerland", 1.3},
		{"norway", 1.2}, {"sweden", 1.1}, {"asia", 1.25}, {"japan", 1.25}, {"australia", 1.3}, {"india", 1.1},
		{"korea", 1.25}, {"canada", 1.1}, {"uae", 1.3}, {"southafrica", 1.3}},
	model.GCP: {{"us-", 1}, {"northamerica-", 1.1}, {"europe-", 1.15}, {"asia-", 1.2}, {"australia-", 1.35},
		{"southamerica-", 1.5}, {"me-", 1.3}, {"africa-", 1.3}},
}

// regionMultiplier returns the price ratio of region to the reference
// region, 1 when nothing is known.
func regionMultiplier(p model.ProviderKey, region string) float64 {
	if f, ok := knownMultipliers[p][region]; ok {
		return f
	}
	for _, pm := range prefixMultipliers[p] {
		if strings.HasPrefix(region, pm.prefix) {
			return pm.factor
		}
	}
	return 1
}

// normalizeRegion lower-cases a region and turns zones into regions:
// us-east-1a -> us-east-1, us-central1-b -> us-central1, "West Europe" ->
// westeurope.
func normalizeRegion(p model.ProviderKey, region string) string {
	r := strings.ToLower(strings.TrimSpace(region))
	switch p {
	case model.Azure:
		r = strings.ReplaceAll(r, " ", "")
	case model.AWS:
		if n := len(r); n >= 2 && unicode.IsLetter(rune(r[n-1])) && unicode.IsDigit(rune(r[n-2])) {
			r = r[:n-1]
		}
	case model.GCP:
		if n := len(r); n >= 3 && r[n-2] == '-' && unicode.IsLetter(rune(r[n-1])) {
			r = r[:n-2]
		}
	}
	if r == "" {
		return ReferenceRegion(p)
	}
	return r
}
