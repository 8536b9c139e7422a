package pricing

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// volumePrices: block storage per GB-month by volume type and region. Azure
// managed disks are billed per size tier; the per-GB figure is the 128 GiB
// tier (P10, E10, S10) divided by its size.
var volumePrices = map[model.ProviderKey]map[string]map[string]float64{
	model.AWS: {
		"gp3":      {"us-east-1": 0.08, "us-west-2": 0.08, "eu-west-1": 0.088},
		"gp2":      {"us-east-1": 0.10, "us-west-2": 0.10, "eu-west-1": 0.11},
		"io1":      {"us-east-1": 0.125, "us-west-2": 0.125, "eu-west-1": 0.138},
		"io2":      {"us-east-1": 0.125, "us-west-2": 0.125, "eu-west-1": 0.138},
		"st1":      {"us-east-1": 0.045, "us-west-2": 0.045, "eu-west-1": 0.05},
		"sc1":      {"us-east-1": 0.015, "us-west-2": 0.015, "eu-west-1": 0.0168},
		"standard": {"us-east-1": 0.05, "us-west-2": 0.05, "eu-west-1": 0.055},
	},
	model.Azure: {
		"premium_lrs":     {"eastus": 0.154},
		"premiumv2_lrs":   {"eastus": 0.12},
		"standardssd_lrs": {"eastus": 0.075},
		"standard_lrs":    {"eastus": 0.046},
	},
	model.GCP: {
		"pd-standard": {"us-central1": 0.04, "europe-west1": 0.04},
		"pd-balanced": {"us-central1": 0.10, "europe-west1": 0.10},
		"pd-ssd":      {"us-central1": 0.17, "europe-west1": 0.17},
		"pd-extreme":  {"us-central1": 0.125, "europe-west1": 0.125},
	},
	// OCI: 0.0255 storage plus 0.0017 per VPU; lower cost 0, balanced 10,
	// higher performance 20 VPUs per GB. Global prices.
	model.OCI: {
		"lower_cost":         {"": 0.0255},
		"balanced":           {"": 0.0425},
		"higher_performance": {"": 0.0595},
	},
}

// defaultVolumeType is the general-purpose type assumed for unknown types.
var defaultVolumeType = map[model.ProviderKey]string{
	model.AWS: "gp3", model.Azure: "premium_lrs", model.GCP: "pd-balanced", model.OCI: "balanced",
}

// VolumePricePerGBMonth is the price of one GB-month of a block volume type
// in region. Unknown types are priced as the provider's general-purpose
// type; regions outside the table use the regional multiplier. 0 for an
// unknown provider.
func VolumePricePerGBMonth(p model.ProviderKey, region, volumeType string) float64 {
	types := volumePrices[p]
	if types == nil {
		return 0
	}
	t := strings.ToLower(strings.TrimSpace(volumeType))
	byRegion, ok := types[t]
	if !ok {
		byRegion = types[defaultVolumeType[p]]
	}
	if p == model.OCI {
		return byRegion[""]
	}
	r := normalizeRegion(p, region)
	if v, ok := byRegion[r]; ok {
		return v
	}
	return roundPrice(byRegion[ReferenceRegion(p)] * regionMultiplier(p, r))
}

// snapshotPrices: standard snapshot storage per GB-month; the same in the
// catalog's regions (OCI: block volume backups in object storage).
var snapshotPrices = map[model.ProviderKey]float64{
	model.AWS: 0.05, model.Azure: 0.05, model.GCP: 0.05, model.OCI: 0.0255,
}

// SnapshotPricePerGBMonth is the price of one GB-month of snapshot storage.
func SnapshotPricePerGBMonth(p model.ProviderKey, region string) float64 {
	return snapshotPrices[p]
}

// PublicIPHourly is the hourly price of a public IPv4 address that is not
// serving a running machine (the case the idle analyzer cares about): AWS
// charges every public IPv4 0.005, an Azure Standard static IP 0.005, a GCP
// unused static external IP 0.01. OCI does not charge for reserved public
// IPs, so it is 0.
func PublicIPHourly(p model.ProviderKey, region string) float64 {
	switch p {
	case model.AWS, model.Azure:
		return 0.005
	case model.GCP:
		return 0.01
	}
	return 0
}
