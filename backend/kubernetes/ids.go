package kubernetes

import (
	"regexp"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// awsID finds an EC2 instance or EBS volume id in a provider id, an ARN
// or a bare id.
var awsID = regexp.MustCompile(`\b(i|vol)-[0-9a-f]{8,17}\b`)

// gcpID finds project, zone and name in a GCE provider id
// (gce://project/zone/name) or a Google Cloud resource name
// (//compute.googleapis.com/projects/p/zones/z/instances/n, or disks).
var (
	gceProviderID = regexp.MustCompile(`^gce://([^/]+)/([^/]+)/([^/]+)$`)
	gcpResource   = regexp.MustCompile(`projects/([^/]+)/zones/([^/]+)/(?:instances|disks)/([^/]+)$`)
)

// ResourceKeys returns the cloud an asset's provider id names and the
// resource keys it may be billed under, the most precise first: an Azure
// scale-set instance is billed with its scale set. It returns no keys
// when the id names no cloud resource (an on-premises node).
func ResourceKeys(providerID string) (model.ProviderKey, []string) {
	id := strings.TrimSpace(providerID)
	low := strings.ToLower(id)
	switch {
	case strings.HasPrefix(low, "azure://"):
		path := strings.TrimPrefix(low, "azure://")
		keys := []string{path}
		if i := strings.Index(path, "/virtualmachines/"); i > 0 && strings.Contains(path[:i], "/virtualmachinescalesets/") {
			keys = append(keys, path[:i])
		}
		return model.Azure, keys
	case strings.HasPrefix(low, "gce://"):
		if m := gceProviderID.FindStringSubmatch(low); m != nil {
			return model.GCP, []string{m[1] + "/" + m[2] + "/" + m[3]}
		}
		return model.GCP, nil
	case strings.HasPrefix(low, "/subscriptions/"):
		return model.Azure, []string{low}
	}
	if m := awsID.FindString(low); m != "" {
		return model.AWS, []string{m}
	}
	if m := gcpResource.FindStringSubmatch(low); m != nil {
		return model.GCP, []string{m[1] + "/" + m[2] + "/" + m[3]}
	}
	return "", nil
}

// BillKey is the resource key of a billed line's resource id, to compare
// with ResourceKeys; "" when it names nothing an asset can be.
func BillKey(p model.ProviderKey, resourceID string) string {
	low := strings.ToLower(strings.TrimSpace(resourceID))
	switch p {
	case model.AWS:
		return awsID.FindString(low)
	case model.Azure:
		if strings.HasPrefix(low, "/subscriptions/") {
			return low
		}
	case model.GCP:
		if m := gcpResource.FindStringSubmatch(low); m != nil {
			return m[1] + "/" + m[2] + "/" + m[3]
		}
	}
	return ""
}
