package config

import (
	"net/url"
	"slices"
	"strings"
)

// Azure clouds, the values of azure.cloud.
const (
	AzurePublic       = "public"       // login.microsoftonline.com, management.azure.com
	AzureChina        = "china"        // login.chinacloudapi.cn, management.chinacloudapi.cn
	AzureUSGovernment = "usgovernment" // login.microsoftonline.us, management.usgovcloudapi.net
	AzureCustom       = "custom"       // azure.authority_host and azure.endpoint say where
)

// AzureClouds lists the values azure.cloud takes.
var AzureClouds = []string{AzurePublic, AzureChina, AzureUSGovernment, AzureCustom}

// validateAzureCloud checks azure.cloud and the URLs that go with it:
// tokens are sent to them, so they must be https.
func validateAzureCloud(a AzureConfig, add func(field, format string, args ...any)) {
	if a.Cloud != "" && !slices.Contains(AzureClouds, a.Cloud) {
		add("azure.cloud", "must be %s, not %q", strings.Join(AzureClouds, ", "), a.Cloud)
	}
	if a.Cloud == AzureCustom {
		if a.AuthorityHost == "" {
			add("azure.authority_host", "is required when azure.cloud is custom (the Entra ID authority, e.g. https://login.example.com/)")
		}
		if a.Endpoint == "" {
			add("azure.endpoint", "is required when azure.cloud is custom (the Resource Manager URL)")
		}
	}
	for _, f := range []struct{ name, v string }{
		{"azure.authority_host", a.AuthorityHost}, {"azure.endpoint", a.Endpoint}, {"azure.audience", a.Audience},
	} {
		if f.v == "" {
			continue
		}
		if u, err := url.Parse(f.v); err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			add(f.name, "must be an absolute https URL without credentials or query, got %q", f.v)
		}
	}
}
