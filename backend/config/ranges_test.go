package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// numericPaths lists the dotted path of every numeric setting in t, found
// by reflection: a list item is "[]", a map value ".*".
func numericPaths(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		path := prefix + name
		if opts == "inline" {
			path = strings.TrimSuffix(prefix, ".")
		}
		out = append(out, numericOf(f.Type, path)...)
	}
	return out
}

func numericOf(t reflect.Type, path string) []string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return []string{path}
	case reflect.Struct:
		p := path + "."
		if path == "" {
			p = ""
		}
		return numericPaths(t, p)
	case reflect.Slice, reflect.Array:
		return numericOf(t.Elem(), path+"[]")
	case reflect.Map:
		return numericOf(t.Elem(), path+".*")
	case reflect.Pointer:
		return numericOf(t.Elem(), path)
	}
	return nil
}

// nested writes key: value under the sections of a dotted path.
func nested(path, value string) string {
	parts := strings.Split(path, ".")
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(strings.Repeat("  ", i) + p + ":")
		if i == len(parts)-1 {
			b.WriteString(" " + value)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// rangeCase is one numeric setting: YAML for a value, the field an error
// names, values that must pass and values that must fail.
type rangeCase struct {
	yaml      func(v string) string
	field     string
	good, bad []string
}

func rangeCases() map[string]rangeCase {
	cases := map[string]rangeCase{}
	for _, r := range Ranges {
		key := r.Key
		cases[key] = rangeCase{
			yaml:  func(v string) string { return nested(key, v) },
			field: key,
			good:  []string{num(r.Min), num(r.Max)},
			bad:   []string{num(r.Min - 1), num(r.Max + 1), "-1", "999999999999", "1e18"},
		}
	}
	fraction := func(key string) rangeCase {
		return rangeCase{yaml: func(v string) string { return nested(key, v) }, field: key,
			good: []string{"0.01", "1"}, bad: []string{"0", "-0.5", "1.5", ".nan", ".inf"}}
	}
	cases["optimization.cpu_utilization_threshold"] = fraction("optimization.cpu_utilization_threshold")
	cases["optimization.memory_utilization_threshold"] = fraction("optimization.memory_utilization_threshold")
	cases["forecast.interval"] = rangeCase{yaml: func(v string) string { return nested("forecast.interval", v) },
		field: "forecast.interval", good: []string{"0.8", "0.95"}, bad: []string{"0.5", "1", ".nan"}}
	cases["currency.rates.*"] = rangeCase{yaml: func(v string) string { return "currency:\n  rates: {EUR: " + v + "}\n" },
		field: "currency.rates.EUR", good: []string{"1.08", "0.000000001", "1000000000"}, bad: []string{"0", "-1", "2e9", ".nan", ".inf"}}
	cases["budgets[].amount"] = rangeCase{yaml: func(v string) string { return "budgets:\n  - {name: b, amount: " + v + ", period: monthly}\n" },
		field: "budgets[0].amount", good: []string{"0.01", "5e14"}, bad: []string{"0", "-5", "1e15", ".nan", ".inf"}}
	cases["alerts.thresholds[]"] = rangeCase{yaml: func(v string) string { return "alerts:\n  thresholds: [" + v + "]\n" },
		field: "alerts.thresholds[0]", good: []string{"0.5", "1000"}, bad: []string{"0", "-1", "1000.5", ".nan"}}
	schedule := func(day, hour string) string {
		return "alerts:\n  webhook_url: https://hooks.example.com/x\nreports:\n  schedules:\n    - {name: s, frequency: monthly, day: " + day + ", hour: " + hour + ", webhook: true}\n"
	}
	cases["reports.schedules[].day"] = rangeCase{yaml: func(v string) string { return schedule(v, "1") },
		field: "reports.schedules[0].day", good: []string{"1", "28"}, bad: []string{"-1", "29", "999999999999"}}
	cases["reports.schedules[].hour"] = rangeCase{yaml: func(v string) string { return schedule("1", v) },
		field: "reports.schedules[0].hour", good: []string{"0", "23"}, bad: []string{"-1", "24", "999999999999"}}
	focus := func(field string) func(string) string {
		return func(v string) string {
			return "focus_sources:\n  - {name: gw, url: 'https://h.example/f.csv', " + field + ": " + v + "}\n"
		}
	}
	cases["focus_sources[].every"] = rangeCase{yaml: focus("every"), field: "focus_sources[0].every",
		good: []string{"1", "744"}, bad: []string{"-1", "745", "999999999999"}}
	cases["focus_sources[].max_bytes"] = rangeCase{yaml: focus("max_bytes"), field: "focus_sources[0].max_bytes",
		good: []string{"1", "17179869184"}, bad: []string{"-1", "17179869185"}}
	cases["units.sources[].days"] = rangeCase{yaml: func(v string) string {
		return "units:\n  sources:\n    - {metric: orders, prometheus_url: 'https://prom.example.com', query: 'sum(increase(orders_total[1d]))', days: " + v + "}\n"
	}, field: "units.sources[0].days", good: []string{"0", "1", "400"}, bad: []string{"-1", "401", "999999999999"}}
	return cases
}

// TestEveryNumericSettingHasARange fails for a numeric setting added
// without a range, and checks each range both ways: the ends pass, values
// past them are refused naming the key.
func TestEveryNumericSettingHasARange(t *testing.T) {
	cases := rangeCases()
	paths := numericPaths(reflect.TypeFor[Config](), "")
	for _, p := range paths {
		if _, ok := cases[p]; !ok {
			t.Errorf("numeric setting %s has no range: add it to Ranges (or its item check) and to docs/configuration.md", p)
		}
	}
	for p := range cases {
		if !slices.Contains(paths, p) {
			t.Errorf("range for %s, which is not a numeric setting", p)
		}
	}
	for p, tc := range cases {
		for _, v := range tc.good {
			t.Run(p+"="+v, func(t *testing.T) {
				wantFields(t, tc.yaml(v), nil)
			})
		}
		for _, v := range tc.bad {
			t.Run(p+"="+v, func(t *testing.T) {
				wantFields(t, tc.yaml(v), []string{tc.field})
			})
		}
	}
}

// TestRangeMessageNamesTheRange: the message says what is allowed.
func TestRangeMessageNamesTheRange(t *testing.T) {
	c, err := Parse([]byte("dashboard:\n  auth:\n    session_timeout: 1e18\n  max_body_bytes: -1\nimport:\n  max_resources: 999999999999\nperformance:\n  parallel:\n    max_workers: 100000000\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	errs := c.Validate()
	want := map[string]string{
		"dashboard.auth.session_timeout":   "between 60 and 2592000",
		"dashboard.max_body_bytes":         "between 1024 and 67108864",
		"import.max_resources":             fmt.Sprintf("between 1 and %d", MaxImportResources),
		"performance.parallel.max_workers": "between 1 and 64",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors = %v", errs)
	}
	for _, e := range errs {
		if !strings.Contains(e.Message, want[e.Field]) {
			t.Errorf("%s: %q does not name the range %q", e.Field, e.Message, want[e.Field])
		}
	}
}

func TestOutboundURLs(t *testing.T) {
	tests := []struct {
		name, yaml string
		fields     []string // nil: valid
	}{
		{"https webhook", "alerts:\n  webhook_url: https://hooks.slack.com/services/T0/B0/x\n", nil},
		{"loopback webhook", "alerts:\n  webhook_url: http://127.0.0.1:9/hook\n", nil},
		{"file webhook", "alerts:\n  webhook_url: file:///etc/passwd\n", []string{"alerts.webhook_url"}},
		{"gopher webhook", "alerts:\n  webhook_url: gopher://127.0.0.1:25/_HELO\n", []string{"alerts.webhook_url"}},
		{"no scheme", "alerts:\n  webhook_url: hooks.slack.com/services/x\n", []string{"alerts.webhook_url"}},
		{"no host", "alerts:\n  webhook_url: 'http:///x'\n", []string{"alerts.webhook_url"}},
		{"metadata v4", "alerts:\n  webhook_url: http://169.254.169.254/latest/meta-data/\n", []string{"alerts.webhook_url"}},
		{"link-local v4", "alerts:\n  webhook_url: http://169.254.1.7:8080/\n", []string{"alerts.webhook_url"}},
		{"link-local v6", "alerts:\n  webhook_url: 'http://[fe80::1]/'\n", []string{"alerts.webhook_url"}},
		{"aws metadata v6", "alerts:\n  webhook_url: 'http://[fd00:ec2::254]/latest/'\n", []string{"alerts.webhook_url"}},
		{"google metadata name", "alerts:\n  webhook_url: http://metadata.google.internal/computeMetadata/v1/\n", []string{"alerts.webhook_url"}},
		{"allowed metadata", "outbound:\n  allow_metadata_addresses: true\nalerts:\n  webhook_url: http://169.254.169.254/hook\n", nil},
		{"allowing metadata still needs http", "outbound:\n  allow_metadata_addresses: true\nalerts:\n  webhook_url: file:///etc/passwd\n", []string{"alerts.webhook_url"}},
		{"endpoints", "aws:\n  endpoint: http://169.254.169.254\n  athena:\n    endpoint: ftp://x\nazure:\n  endpoint: https://management.example.com\ngcp:\n  endpoint: 'http://[fe80::2]:9050'\noci:\n  endpoint: metadata.google.internal\n",
			[]string{"aws.endpoint", "aws.athena.endpoint", "gcp.endpoint", "oci.endpoint"}},
		{"smtp host", "reports:\n  smtp:\n    host: 169.254.169.254\n    from: a@example.com\n", []string{"reports.smtp.host"}},
		{"oidc issuer", "dashboard:\n  auth:\n    oidc:\n      enabled: true\n      issuer: http://169.254.169.254\n      client_id: c\n      redirect_url: https://c.example.com/auth/oidc/callback\n",
			[]string{"dashboard.auth.oidc.issuer", "dashboard.auth.oidc.issuer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, e := range wantFields(t, tt.yaml, tt.fields) {
				if strings.Contains(e.Message, "/services/") || strings.Contains(e.Message, "meta-data") {
					t.Errorf("%s repeats the URL: %s", e.Field, e.Message)
				}
			}
		})
	}
}
