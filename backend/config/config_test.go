package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func fieldsOf(t *testing.T, err error) []string {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Configuration {
		t.Fatalf("want a ConfigurationError, got %v", err)
	}
	f, _ := e.Details["fields"].([]string)
	return f
}

// wantFields parses and validates yaml and fails unless the errors name
// exactly fields (nil: valid). It returns the errors.
func wantFields(t *testing.T, yaml string, fields []string) Errors {
	t.Helper()
	c, err := Parse([]byte(yaml), "test.yaml")
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	errs := c.Validate()
	if fields == nil {
		if len(errs) != 0 {
			t.Fatalf("want valid, got %v", errs)
		}
		return errs
	}
	if got := fieldsOf(t, errs.Err()); !reflect.DeepEqual(got, fields) {
		t.Fatalf("fields = %v, want %v (%v)", got, fields, errs)
	}
	return errs
}

func TestParseAndValidate(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		fields []string // nil: valid
		line   string
	}{
		{name: "empty file is valid, all disabled", yaml: ""},
		{name: "aws without region", yaml: "aws:\n  enabled: true\n", fields: []string{"aws.region"}},
		{name: "aws with region", yaml: "aws:\n  enabled: true\n  region: eu-west-1\n"},
		{name: "every error at once", yaml: "aws:\n  enabled: true\nazure:\n  enabled: true\n  source: api\noptimization:\n  cpu_utilization_threshold: 2\n",
			fields: []string{"aws.region", "azure.subscription_id", "optimization.cpu_utilization_threshold"}},
		{name: "bad source", yaml: "gcp:\n  enabled: true\n  source: cloud\n", fields: []string{"gcp.source"}},
		{name: "aws athena", yaml: "aws:\n  enabled: true\n  region: us-east-1\n  source: athena\n  athena:\n    database: cur\n    table: data\n    workgroup: finops\n    output_location: s3://results/\n    format: focus\n"},
		{name: "aws athena needs its table", yaml: "aws:\n  enabled: true\n  region: us-east-1\n  source: athena\n",
			fields: []string{"aws.athena.database", "aws.athena.table"}},
		{name: "aws athena bad values", yaml: "aws:\n  enabled: true\n  region: us-east-1\n  source: athena\n  athena:\n    database: cur\n    table: 'x\"; drop'\n    format: cur3\n    output_location: /tmp\n",
			fields: []string{"aws.athena.table", "aws.athena.format", "aws.athena.output_location"}},
		{name: "athena is aws only", yaml: "gcp:\n  enabled: true\n  source: athena\n", fields: []string{"gcp.source"}},
		{name: "export without paths shows what was imported", yaml: "oci:\n  enabled: true\n  source: export\n"},
		{name: "azure public by default", yaml: "azure: {enabled: true}\n"},
		{name: "kubernetes clusters", yaml: "kubernetes: {days: 30, currency: EUR, clusters: [{name: prod, opencost_url: 'http://opencost.opencost:9003'}]}\n"},
		{name: "kubernetes bad clusters", yaml: "kubernetes: {days: 900, currency: eur, clusters: [{name: a, opencost_url: 'ftp://x'}, {name: a, opencost_url: 'http://169.254.169.254/'}, {opencost_url: ''}]}\n",
			fields: []string{"kubernetes.days", "kubernetes.clusters[0].opencost_url", "kubernetes.clusters[1].name",
				"kubernetes.clusters[1].opencost_url", "kubernetes.clusters[2].name", "kubernetes.clusters[2].opencost_url", "kubernetes.currency"}},
		{name: "azure china", yaml: "azure: {enabled: true, cloud: china}\n"},
		{name: "azure us government", yaml: "azure: {enabled: true, cloud: usgovernment}\n"},
		{name: "azure custom with its URLs", yaml: "azure: {enabled: true, cloud: custom, authority_host: 'https://login.example.com/', endpoint: 'https://arm.example.com', audience: 'https://arm.example.com/'}\n"},
		{name: "azure unknown cloud", yaml: "azure: {enabled: true, cloud: AzureChinaCloud}\n", fields: []string{"azure.cloud"}},
		{name: "azure custom needs both URLs", yaml: "azure: {enabled: true, cloud: custom}\n", fields: []string{"azure.authority_host", "azure.endpoint"}},
		{name: "azure tokens go over https only", yaml: "azure: {enabled: true, authority_host: 'http://login.example.com/', endpoint: 'arm.example.com', audience: 'https://u:p@arm.example.com'}\n",
			fields: []string{"azure.authority_host", "azure.endpoint", "azure.audience"}},
		{name: "azure disabled is not checked", yaml: "azure: {enabled: false, cloud: mars}\n"},

		{name: "bad budget", yaml: "budgets:\n  - name: x\n    amount: 0\n    period: weekly\n", fields: []string{"budgets[0].amount", "budgets[0].period"}},
		{name: "ssl needs files", yaml: "dashboard:\n  security:\n    ssl_enabled: true\n", fields: []string{"dashboard.security.ssl_cert", "dashboard.security.ssl_key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantFields(t, tt.yaml, tt.fields)
		})
	}
}

func TestInvalidYAMLNamesLine(t *testing.T) {
	tests := []struct{ name, yaml, line string }{
		{"unterminated quote", "aws:\n  enabled: true\n  region: \"x\n", "3"},
		{"wrong type", "dashboard:\n  port: lots\n", "2"},
		{"unknown key", "aws:\n  regoin: us-east-1\n", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), "bad.yaml")
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.Configuration {
				t.Fatalf("want ConfigurationError, got %v", err)
			}
			if e.Details["line"] != tt.line {
				t.Fatalf("line = %v, want %s (%v)", e.Details["line"], tt.line, err)
			}
		})
	}
}

func TestDefaultsAndTemplate(t *testing.T) {
	d := Default()
	if errs := d.Validate(); len(errs) != 0 {
		t.Fatalf("defaults invalid: %v", errs)
	}
	if got := d.EnabledProviders(); len(got) != 4 {
		t.Fatalf("defaults enable %v", got)
	}
	for _, k := range model.AllProviders {
		if d.Provider(k).Source != model.SourceDemo {
			t.Fatalf("%s source = %s", k, d.Provider(k).Source)
		}
	}
	if d.Dashboard.Port != 5000 || d.Dashboard.Host != "0.0.0.0" || d.Dashboard.Auth.SessionTimeout != 3600 || d.Dashboard.Auth.MaxLoginAttempts != 5 {
		t.Fatalf("dashboard defaults wrong: %+v", d.Dashboard)
	}
	tc, err := Parse([]byte(Template), "template")
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	if errs := tc.Validate(); len(errs) != 0 {
		t.Fatalf("template invalid: %v", errs)
	}
	tc.Path, d.Path = "", ""
	if !reflect.DeepEqual(tc.EnabledProviders(), d.EnabledProviders()) || !reflect.DeepEqual(tc.Dashboard, d.Dashboard) || tc.Optimization != d.Optimization {
		t.Fatalf("template and defaults differ")
	}
}

func TestEnvironmentSecrets(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "key")
	if err := os.WriteFile(f, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COSTPILOT_SECRET_KEY", "")
	t.Setenv("COSTPILOT_SECRET_KEY_FILE", f)
	c, err := Read("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Dashboard.Security.SecretKey != "from-file" {
		t.Fatalf("secret from _FILE not applied: %q", c.Dashboard.Security.SecretKey)
	}
	// A _FILE that cannot be read is an error naming it, not a key left
	// empty (the dashboard would generate one).
	t.Setenv("COSTPILOT_SECRET_KEY_FILE", filepath.Join(dir, "missing"))
	if _, err := Read(""); err == nil || !strings.Contains(err.Error(), "COSTPILOT_SECRET_KEY_FILE names "+filepath.Join(dir, "missing")) {
		t.Fatalf("a missing _FILE: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 70<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COSTPILOT_SECRET_KEY_FILE", big)
	if _, err := Read(""); err == nil || !strings.Contains(err.Error(), "not a secret") {
		t.Fatalf("a huge _FILE: %v", err)
	}
	t.Setenv("COSTPILOT_SECRET_KEY_FILE", f)
	t.Setenv("COSTPILOT_SECRET_KEY", "direct")
	c, _ = Read("")
	if c.Dashboard.Security.SecretKey != "direct" {
		t.Fatalf("secret from env not applied")
	}
}

func TestLocate(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	t.Setenv("COSTPILOT_CONFIG", "")
	if _, found, err := Locate(""); err != nil || found {
		t.Fatalf("empty dir: found=%v err=%v", found, err)
	}
	if _, _, err := Locate("missing.yaml"); apperr.KindOf(err) != apperr.Configuration {
		t.Fatalf("explicit missing file: %v", err)
	}
	if err := os.WriteFile("costpilot.yaml", []byte(""), 0o600); err != nil {
		t.Fatal(err)
	}
	p, found, err := Locate("")
	if err != nil || !found || filepath.Base(p) != "costpilot.yaml" {
		t.Fatalf("local file: %s %v %v", p, found, err)
	}
}

// TestFocusSourcesValidate: each focus_sources item is a named folder or
// https URL; the errors name the item's field and never repeat a URL
// (a signed URL's query is a secret).
func TestFocusSourcesValidate(t *testing.T) {
	tests := []struct {
		yml, field string
	}{
		{"focus_sources: [{name: gw, url: 'https://h.example/f.csv', every: 6, token_env: GW_TOKEN}, {name: v, path: /tmp/x}]", ""},
		{"focus_sources: [{name: GW, path: /tmp/x}]", "focus_sources[0].name"},
		{"focus_sources: [{name: a, path: /x}, {name: a, path: /y}]", "focus_sources[1].name"},
		{"focus_sources: [{name: a}]", "focus_sources[0].path"},
		{"focus_sources: [{name: a, path: /x, url: 'https://h.example/f.csv'}]", "focus_sources[0].path"},
		{"focus_sources: [{name: a, url: 'http://h.example/f.csv?sig=SECRET'}]", "focus_sources[0].url"},
		{"focus_sources: [{name: a, url: 'https://u:SECRET@h.example/f.csv'}]", "focus_sources[0].url"},
		{"focus_sources: [{name: a, url: 'https://169.254.169.254/latest'}]", "focus_sources[0].url"},
		{"focus_sources: [{name: a, url: 'https://h.example/f.csv', every: 1000}]", "focus_sources[0].every"},
		{"focus_sources: [{name: a, path: /x, token_env: T}]", "focus_sources[0].token_env"},
		{"focus_sources: [{name: a, url: 'https://h.example/f.csv', token_env: 'A B'}]", "focus_sources[0].token_env"},
	}
	for _, tt := range tests {
		c, err := Parse([]byte(tt.yml), "c.yaml")
		if err != nil {
			t.Fatalf("%s: %v", tt.yml, err)
		}
		es := c.Validate()
		var fields []string
		for _, e := range es {
			fields = append(fields, e.Field)
			if strings.Contains(e.Message, "SECRET") {
				t.Errorf("%s: secret repeated in %q", tt.yml, e.Message)
			}
		}
		if want := tt.field; (want == "" && len(es) > 0) || (want != "" && (len(es) != 1 || es[0].Field != want)) {
			t.Errorf("%s: errors on %v, want %q", tt.yml, fields, want)
		}
	}
	if f := (FocusSource{}); f.EveryHours() != DefaultFocusEvery || f.Limit() != DefaultFocusMaxBytes {
		t.Errorf("defaults %d %d", f.EveryHours(), f.Limit())
	}
}
