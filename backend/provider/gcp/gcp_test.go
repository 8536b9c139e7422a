package gcp

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/option"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

var testNow = time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)

func newTestProvider(t *testing.T, url string) *Provider {
	t.Helper()
	cfg := config.GCPConfig{ProjectID: testProject, BillingTable: "acme-billing.billing.gcp_billing_export_resource_v1_01A2B3", Endpoint: url}
	p, err := New(cfg, nil, WithClientOptions(option.WithoutAuthentication(), option.WithHTTPClient(&http.Client{Timeout: 5 * time.Second})),
		WithRetry(4, time.Millisecond, 5*time.Millisecond), WithNow(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFetchCosts(t *testing.T) {
	tests := []struct {
		name        string
		schema      []string
		partitioned bool
		pending     bool
		wantSQL     []string
		avoidSQL    []string
	}{
		{
			name:        "detailed export with list cost, ingestion partitioned",
			partitioned: true,
			wantSQL:     []string{"resource.global_name", "IFNULL(cost_at_list, cost)", "_PARTITIONTIME", "UNNEST(credits)", "usage_start_time"},
		},
		{
			name:     "standard export without list cost",
			schema:   []string{"billing_account_id", "service", "usage_start_time", "project", "location", "cost", "currency", "credits", "cost_type"},
			wantSQL:  []string{"CAST(cost AS NUMERIC)", "usage_start_time"},
			avoidSQL: []string{"resource.", "cost_at_list", "_PARTITIONTIME"},
		},
		{
			name:     "FOCUS view, job still running at first",
			schema:   []string{"BillingAccountId", "SubAccountId", "ServiceName", "RegionId", "ResourceId", "ChargeCategory", "ChargePeriodStart", "BilledCost", "EffectiveCost", "ListCost", "BillingCurrency"},
			pending:  true,
			wantSQL:  []string{"BilledCost", "EffectiveCost", "ListCost", "ChargePeriodStart"},
			avoidSQL: []string{"usage_start_time"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFakeGoogle(t)
			if tt.schema != nil {
				f.schema = tt.schema
			}
			f.partitioned, f.pending = tt.partitioned, tt.pending
			p := newTestProvider(t, srv.URL)
			b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
			if err != nil {
				t.Fatal(err)
			}
			queries := f.Kept("jobs.query")
			if len(queries) != 1 {
				t.Fatalf("jobs.query calls = %d", len(queries))
			}
			// Project names come with the rows.
			if b.AccountNames["acme-prod"] != "Acme Production" || b.AccountNames["acme-data"] != "Acme Data" {
				t.Errorf("account names %v", b.AccountNames)
			}
			q := queries[0]
			sql := q["query"].(string)
			for _, s := range tt.wantSQL {
				if !strings.Contains(sql, s) {
					t.Errorf("query lacks %q:\n%s", s, sql)
				}
			}
			for _, s := range tt.avoidSQL {
				if strings.Contains(sql, s) {
					t.Errorf("query has %q:\n%s", s, sql)
				}
			}
			if !strings.Contains(sql, "`acme-billing.billing.gcp_billing_export_resource_v1_01A2B3`") {
				t.Errorf("query does not name the table:\n%s", sql)
			}
			// The incremental window travels as DATE parameters.
			params := q["queryParameters"].([]any)
			got := map[string]string{}
			for _, x := range params {
				m := x.(map[string]any)
				got[m["name"].(string)] = m["parameterValue"].(map[string]any)["value"].(string)
			}
			if got["from"] != "2026-11-17" || got["to"] != "2026-11-19" || q["useLegacySql"] != false {
				t.Errorf("parameters = %v, useLegacySql = %v", got, q["useLegacySql"])
			}
			wantResults := 1
			if tt.pending {
				wantResults = 2
			}
			if f.Count("jobs.getQueryResults") != wantResults {
				t.Errorf("getQueryResults calls = %d, want %d", f.Count("jobs.getQueryResults"), wantResults)
			}
			// Two non-zero rows a day, three days; the zero tax row is dropped.
			if len(b.Lines) != 6 {
				t.Fatalf("lines = %d, want 6", len(b.Lines))
			}
			var billed, eff, list model.Nanos
			for _, l := range b.Lines {
				billed, eff, list = billed+l.Billed, eff+l.Effective, list+l.List
			}
			if billed != 3*(20_123_456_789+1) || eff != 3*(14_086_419_752+1) || list != 3*(25_500_000_000+1) {
				t.Errorf("billed %s effective %s list %s", billed, eff, list)
			}
			l := b.Lines[0]
			if l.Day != "2026-11-17" || l.BillingAccount != "01A2B3-C4D5E6-F7G8H9" || l.SubAccount != "acme-prod" ||
				l.Service != "Compute Engine" || l.Region != "us-central1" || l.ChargeCategory != "Usage" || l.Currency != "USD" ||
				!strings.HasSuffix(l.ResourceID, "/instances/1234567890123") {
				t.Errorf("first line = %+v", l)
			}
		})
	}
}

func TestInventory(t *testing.T) {
	f, srv := newFakeGoogle(t)
	p := newTestProvider(t, srv.URL)
	inv, byName := providertest.Listed(t, p, func(r model.Resource) string { return r.ResourceType + "/" + r.Name })
	web := byName["instance/web-1"]
	if web.State != "running" || web.InstanceType != "n2-standard-4" || web.Region != "us-central1" || web.VCPU != 4 ||
		web.ResourceID != "projects/acme-prod/zones/us-central1-a/instances/web-1" || web.Tags["team"] != "web" || web.CreatedAt.IsZero() {
		t.Errorf("web-1 = %+v", web)
	}
	if old := byName["instance/old"]; old.State != "terminated" || old.Region != "europe-west1" {
		t.Errorf("old (second page) = %+v", old)
	}
	if d := byName["volume/scratch"]; d.Attached || d.SizeGB != 2000 || d.InstanceType != "pd-standard" || d.HourlyCost <= 0 {
		t.Errorf("scratch = %+v", d)
	}
	if d := byName["volume/web-1"]; !d.Attached {
		t.Errorf("boot disk = %+v", d)
	}
	if a := byName["public_ip/34.1.2.4"]; a.Attached || a.State != "available" {
		t.Errorf("spare address = %+v", a)
	}
	if a := byName["public_ip/34.1.2.3"]; !a.Attached {
		t.Errorf("lb address = %+v", a)
	}
	// Four metrics, two pages each; only the running instance's series count.
	if f.Count("timeSeries") != 8 {
		t.Errorf("timeSeries calls = %d, want 8", f.Count("timeSeries"))
	}
	s := providertest.FirstSample(t, inv, UtilizationDays)
	if s.ResourceID != web.ResourceID || s.CPU != 0.3 || s.Memory != 0.45 || s.NetworkBytes != 1000 {
		t.Errorf("sample = %+v", s)
	}
	if want := testNow.Truncate(time.Hour).Add(-UtilizationDays * 24 * time.Hour); !s.Time.Equal(want) {
		t.Errorf("first sample at %v, want %v", s.Time, want)
	}
}

// connector is what the shared checks know of this package's connector.
var connector = providertest.Cloud{Key: model.GCP}

func TestFailures(t *testing.T) {
	type fail = func(op string, n int) (int, string, bool)
	tests := []providertest.FailureCase[fail]{
		{
			Name: "BigQuery rate limit then success",
			Fail: func(op string, n int) (int, string, bool) {
				return 403, "rateLimitExceeded", op == "jobs.query" && n <= 2
			},
			Call:  providertest.FetchDay,
			Calls: map[string]int{"jobs.query": 3},
		},
		{
			Name:  "rate limited for good",
			Fail:  func(op string, n int) (int, string, bool) { return 429, "rateLimitExceeded", op == "jobs.query" },
			Call:  providertest.FetchDay,
			Want:  model.FailureThrottled,
			Calls: map[string]int{"jobs.query": 4},
		},
		{
			Name:  "backend error then success",
			Fail:  func(op string, n int) (int, string, bool) { return 503, "backendError", op == "instances" && n == 1 },
			Call:  providertest.ListInventory,
			Calls: map[string]int{"instances": 3}, // the retry, then the second page
		},
		{
			Name:  "expired credentials",
			Fail:  func(op string, n int) (int, string, bool) { return 401, "authError", true },
			Call:  providertest.CheckAccess,
			Want:  model.FailureCredentials,
			Calls: map[string]int{"tables.get": 1},
		},
		{
			Name:  "missing BigQuery permission",
			Fail:  func(op string, n int) (int, string, bool) { return 403, "accessDenied", op == "jobs.query" },
			Call:  providertest.FetchDay,
			Want:  model.FailurePermission,
			Calls: map[string]int{"jobs.query": 1},
		},
		{
			Name: "missing Compute permission",
			Fail: func(op string, n int) (int, string, bool) { return 403, "forbidden", op == "disks" },
			Call: providertest.ListInventory,
			Want: model.FailurePermission,
		},
		{
			Name:  "billing table not found",
			Fail:  func(op string, n int) (int, string, bool) { return 404, "notFound", op == "tables.get" },
			Call:  providertest.CheckAccess,
			Want:  model.FailureNotFound,
			Calls: map[string]int{"tables.get": 1, "jobs.query": 0},
		},
	}
	providertest.RunFailures(t, connector, tests, func(t *testing.T, fail fail) (provider.Provider, func(string) int) {
		f, srv := newFakeGoogle(t)
		f.fail = fail
		return newTestProvider(t, srv.URL), f.Count
	})
}

func TestCheckDryRun(t *testing.T) {
	f, srv := newFakeGoogle(t)
	p := newTestProvider(t, srv.URL)
	if err := p.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if q := f.Kept("jobs.query"); len(q) != 1 || q[0]["dryRun"] != true {
		t.Fatalf("queries = %v, want one dry run", q)
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "key.json")
	if err := os.WriteFile(bad, []byte(`{"type":"something_else"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  config.GCPConfig
		call bool
	}{
		{"no project", config.GCPConfig{BillingTable: "a.b.c"}, false},
		{"no table", config.GCPConfig{ProjectID: "p"}, false},
		{"bad table name", config.GCPConfig{ProjectID: "p", BillingTable: "x; DROP TABLE y"}, false},
		{"unknown credentials type", config.GCPConfig{ProjectID: "p", BillingTable: "a.b.c", CredentialsFile: bad}, true},
		{"missing credentials file", config.GCPConfig{ProjectID: "p", BillingTable: "a.b.c", CredentialsFile: filepath.Join(dir, "none.json")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg, nil)
			if tt.call && err == nil {
				err = p.Check(context.Background())
			}
			if apperr.KindOf(err) != apperr.Configuration {
				t.Errorf("kind = %q (%v), want ConfigurationError", apperr.KindOf(err), err)
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	_, srv := newFakeGoogle(t)
	providertest.Cancelled(t, connector, newTestProvider(t, srv.URL))
}

// TestLive runs against the project and billing table of the environment.
func TestLive(t *testing.T) {
	providertest.Live(t, model.GCP, "with GOOGLE_CLOUD_PROJECT, COSTPILOT_GCP_BILLING_TABLE and Application Default Credentials", func() (provider.Provider, error) {
		return New(config.GCPConfig{ProjectID: os.Getenv("GOOGLE_CLOUD_PROJECT"), BillingTable: os.Getenv("COSTPILOT_GCP_BILLING_TABLE")}, nil)
	})
}

// TestMetricsFailureKeepsResources: without Cloud Monitoring access the
// listed resources still come back, beside the error.
func TestMetricsFailureKeepsResources(t *testing.T) {
	f, srv := newFakeGoogle(t)
	f.fail = func(op string, n int) (int, string, bool) { return 403, "forbidden", op == "timeSeries" }
	providertest.MetricsDenied(t, connector, newTestProvider(t, srv.URL), 6)
}
