package config

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestInventoryAndPrometheusKeys(t *testing.T) {
	tests := []fieldCase{
		{name: "export with the live inventory", yaml: "azure: {enabled: true, source: export, inventory: api, subscription_id: s}\n"},
		{name: "export inventory needs the identity", yaml: "azure: {enabled: true, source: export, inventory: api}\ngcp: {enabled: true, source: export, inventory: api}\n",
			fields: []string{"azure.subscription_id", "gcp.project_id", "gcp.billing_table"}},
		{name: "unknown inventory source", yaml: "aws: {enabled: true, region: us-east-1, source: export, inventory: cloudwatch}\n", fields: []string{"aws.inventory"}},
		{name: "demo has its own inventory", yaml: "aws: {enabled: true, region: us-east-1, inventory: api}\n", fields: []string{"aws.inventory"}},
		{name: "disabled provider not checked", yaml: "aws: {enabled: false, inventory: lots}\n"},
		{name: "prometheus for an export", yaml: "aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  prometheus:\n    url: http://prom:9090\n    id_label: instance\n    id_regex: '^(i-[0-9a-f]+)'\n    type_label: instance_type\n    days: 14\n    timeout: 30\n"},
		{name: "prometheus keys without url", yaml: "aws: {enabled: true, region: us-east-1, source: export, prometheus: {id_label: instance}}\n", fields: []string{"aws.prometheus.url"}},
		{name: "prometheus bad values", yaml: "oci:\n  enabled: true\n  source: export\n  prometheus:\n    url: 'http://u:p@prom:9090'\n    id_label: 9x\n    id_regex: '(a)(b)'\n    days: 400\n    timeout: -1\n    bearer_token_env: 'A B'\n",
			fields: []string{"oci.prometheus.url", "oci.prometheus.id_label", "oci.prometheus.id_regex", "oci.prometheus.bearer_token_env", "oci.prometheus.days", "oci.prometheus.timeout"}},
		{name: "prometheus bad regex", yaml: "oci: {enabled: true, source: export, prometheus: {url: 'https://prom', id_regex: '(['}}\n", fields: []string{"oci.prometheus.id_regex"}},
		{name: "prometheus not for demo", yaml: "oci: {enabled: true, prometheus: {url: 'https://prom'}}\n", fields: []string{"oci.prometheus.url"}},
	}
	runFieldCases(t, tests)
}

func TestInventorySyncedAndWithSource(t *testing.T) {
	c, err := Parse([]byte("azure: {enabled: true, source: export, inventory: api, subscription_id: s}\ngcp: {enabled: true, source: export}\noci: {enabled: true, source: export, prometheus: {url: 'http://p'}}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[model.ProviderKey]bool{model.Azure: true, model.GCP: false, model.OCI: true, model.AWS: false} {
		if got := c.Provider(k).InventorySynced(); got != want {
			t.Errorf("%s InventorySynced = %v, want %v", k, got, want)
		}
	}
	api := c.WithSource(model.Azure, model.SourceAPI)
	if api.Provider(model.Azure).Source != model.SourceAPI || c.Provider(model.Azure).Source != model.SourceExport {
		t.Fatalf("WithSource changed %s / kept %s", api.Provider(model.Azure).Source, c.Provider(model.Azure).Source)
	}
	if api.Azure.SubscriptionID != "s" {
		t.Fatal("WithSource lost the identity")
	}
}
