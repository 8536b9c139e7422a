package billing

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// serviceInfo is a FOCUS ServiceName and ServiceCategory.
type serviceInfo struct {
	Name, Category string
}

// ociCategory maps an OCI cost report product/service to its FOCUS
// ServiceCategory, following the categories OCI's own FOCUS reports use.
var ociCategory = map[string]string{
	"compute": "Compute", "container_engine": "Compute", "functions": "Compute",
	"block_storage": "Storage", "objectstore": "Storage", "file_storage": "Storage", "archive_storage": "Storage",
	"database": "Databases", "mysql": "Databases", "nosql": "Databases", "postgresql": "Databases",
	"network": "Networking", "load_balancer": "Networking", "dns": "Networking", "fastconnect": "Networking",
	"telemetry": "Management and Governance", "logging": "Management and Governance", "monitoring": "Management and Governance",
	"oracle_streaming_service": "Analytics", "data_science": "AI and Machine Learning", "vault": "Security",
	"integration": "Integration", "api_gateway": "Integration", "notifications": "Integration",
}

// serviceCategory returns the FOCUS ServiceCategory of a provider's service
// ("Other" when unknown).
func serviceCategory(p model.ProviderKey, keys ...string) string {
	var table map[string]string
	switch p {
	case model.AWS:
		table = awsCategory
	case model.Azure:
		table = azureConsumedCategory
	case model.GCP:
		table = gcpCategory
	case model.OCI:
		table = ociCategory
	}
	for _, k := range keys {
		if k == "" {
			continue
		}
		if c, ok := table[strings.ToLower(k)]; ok {
			return c
		}
	}
	if p == model.Azure {
		for _, k := range keys {
			if s, ok := azureConsumedService[strings.ToLower(k)]; ok {
				return s.Category
			}
		}
	}
	return "Other"
}

// azureService names an Azure charge's service: by resource type first, then
// by consumed service, then the meter category the export gives.
func azureService(resourceType, consumed, meterCategory string) serviceInfo {
	if s, ok := azureResourceService[strings.ToLower(resourceType)]; ok {
		return s
	}
	if s, ok := azureConsumedService[strings.ToLower(consumed)]; ok {
		return s
	}
	name := meterCategory
	if name == "" {
		name = consumed
	}
	return serviceInfo{Name: name, Category: serviceCategory(model.Azure, consumed)}
}

// providerKey maps a FOCUS provider, publisher or invoice issuer name to a
// provider key ("" when it names none of the four clouds).
func providerKey(name string) model.ProviderKey { return model.ProviderOfName(name) }
