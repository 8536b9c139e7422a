package config

import (
	"reflect"
	"testing"
)

// TestUnitSources: units.sources are checked key by key, each problem
// naming its field.
func TestUnitSources(t *testing.T) {
	tests := []fieldCase{
		{name: "a source", yaml: "units:\n  sources:\n    - {metric: orders, prometheus_url: 'http://prom:9090', query: 'sum(increase(orders_total[1d]))', step: 1d, days: 60, bearer_token_env: PROM_TOKEN, scope: {team: web}}\n"},
		{name: "the step left out", yaml: "units: {sources: [{metric: orders, prometheus_url: 'https://prom', query: 'up'}]}\n"},
		{name: "everything missing", yaml: "units: {sources: [{step: 1h}]}\n",
			fields: []string{"units.sources[0].metric", "units.sources[0].prometheus_url", "units.sources[0].query", "units.sources[0].step"}},
		{name: "bad values", yaml: "units:\n  sources:\n    - {metric: ' orders', prometheus_url: 'https://u:p@prom', query: up, bearer_token_env: 'A B', scope: {team: ''}}\n",
			fields: []string{"units.sources[0].metric", "units.sources[0].prometheus_url", "units.sources[0].bearer_token_env", "units.sources[0].scope"}},
		{name: "not http", yaml: "units: {sources: [{metric: orders, prometheus_url: 'ftp://prom', query: up}]}\n", fields: []string{"units.sources[0].prometheus_url"}},
		{name: "the metadata service", yaml: "units: {sources: [{metric: orders, prometheus_url: 'http://169.254.169.254/', query: up}]}\n", fields: []string{"units.sources[0].prometheus_url"}},
		{name: "a metric twice", yaml: "units: {sources: [{metric: orders, prometheus_url: 'https://p', query: up}, {metric: orders, prometheus_url: 'https://q', query: up}]}\n",
			fields: []string{"units.sources[1].metric"}},
	}
	runFieldCases(t, tests)
}

// fieldCase is a config and the fields Validate must name (nil: valid).
type fieldCase = struct {
	name   string
	yaml   string
	fields []string
}

// runFieldCases validates each case's config and compares the fields its
// errors name, in order.
func runFieldCases(t *testing.T, tests []fieldCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.yaml), "test.yaml")
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			errs := c.Validate()
			if tt.fields == nil {
				if len(errs) != 0 {
					t.Fatalf("want valid, got %v", errs)
				}
				return
			}
			if got := fieldsOf(t, errs.Err()); !reflect.DeepEqual(got, tt.fields) {
				t.Fatalf("fields = %v, want %v (%v)", got, tt.fields, errs)
			}
		})
	}
}
