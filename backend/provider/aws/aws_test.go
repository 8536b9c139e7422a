package aws

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

// isolate keeps the developer's own AWS setup out of the tests.
func isolate(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": dir + "/config", "AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials",
		"AWS_PROFILE": "", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_CA_BUNDLE": "", "AWS_ENDPOINT_URL": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
	} {
		t.Setenv(k, v)
	}
}

var testNow = time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)

func newTestProvider(t *testing.T, url string, creds keyring) *Provider {
	t.Helper()
	cfg := config.AWSConfig{Region: "us-east-1", Endpoint: url, AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: secretKey + "/K7MDENG/bPxRfiCYEXAMPLEKEY"}
	if creds != nil {
		cfg.AccessKeyID, cfg.SecretAccessKey = "", ""
	}
	p, err := New(cfg, creds, WithRetry(4, time.Millisecond), WithNow(func() time.Time { return testNow }),
		WithHTTPClient(&http.Client{Timeout: 5 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// keyring is a provider.Credentials backed by a map.
type keyring map[string]string

func (k keyring) Get(_ model.ProviderKey, field string) (string, error) { return k[field], nil }

func TestFetchCosts(t *testing.T) {
	isolate(t)
	f, srv := newFakeAWS(t)
	p := newTestProvider(t, srv.URL, nil)
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	// The incremental window: exactly the asked days, end exclusive, and
	// one page per day.
	ce := f.Kept("GetCostAndUsage")
	if len(ce) != 3 {
		t.Fatalf("Cost Explorer calls = %d, want 3 pages", len(ce))
	}
	tp := ce[0]["TimePeriod"].(map[string]any)
	if tp["Start"] != "2026-11-17" || tp["End"] != "2026-11-20" {
		t.Errorf("TimePeriod = %v, want 2026-11-17..2026-11-20 (exclusive end)", tp)
	}
	// The linked accounts' names from DimensionValueAttributes.
	if b.AccountNames["111111111111"] != "prod" {
		t.Errorf("account names %v, want 111111111111 named prod", b.AccountNames)
	}
	if ce[0]["Granularity"] != "DAILY" {
		t.Errorf("Granularity = %v", ce[0]["Granularity"])
	}
	if len(b.Lines) != 6 {
		t.Fatalf("lines = %d, want 6 (two non-zero groups on three days)", len(b.Lines))
	}
	if len(b.Accounts) != 1 || b.Accounts[0] != "111111111111" {
		t.Errorf("batch accounts = %v, want the payer only", b.Accounts)
	}
	days := map[string]int{}
	var total model.Nanos
	for _, l := range b.Lines {
		days[l.Day]++
		total += l.Billed
		if l.BillingAccount != "111111111111" || l.Currency != "USD" || l.Provider != model.AWS {
			t.Errorf("line %+v: wrong account, currency or provider", l)
		}
	}
	if len(days) != 3 || days["2026-11-17"] != 2 || days["2026-11-19"] != 2 {
		t.Errorf("days = %v", days)
	}
	// 10.1234567891 rounds to 10.123456789, 0.0000000123 to 0.000000012.
	if want := model.Nanos(3 * (10_123_456_789 + 12)); total != want {
		t.Errorf("billed total = %s, want %s", total, want)
	}
	l := b.Lines[0]
	if l.Service != "Amazon Elastic Compute Cloud - Compute" || l.SubAccount != "111111111111" ||
		l.Effective != 8_500_000_000 || l.List != l.Billed {
		t.Errorf("first line = %+v", l)
	}
	// The payer account is asked of STS once.
	if _, err := p.FetchCosts(context.Background(), "2026-11-19", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	if n := f.Count("GetCallerIdentity"); n != 1 {
		t.Errorf("GetCallerIdentity calls = %d, want 1", n)
	}
}

// connector is what the shared checks know of this package's connector.
var connector = providertest.Cloud{Key: model.AWS, Secrets: []string{secretKey}}

func TestFailures(t *testing.T) {
	type fail = func(op string, n int) (int, string, string, bool)
	tests := []providertest.FailureCase[fail]{
		{
			Name: "throttled then success",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 400, "LimitExceededException", "Rate exceeded", op == "GetCostAndUsage" && n <= 2
			},
			Call:  providertest.FetchDay,
			Calls: map[string]int{"GetCostAndUsage": 3},
		},
		{
			Name: "server error then success",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 503, "ServiceUnavailable", "try later", op == "DescribeInstances" && n == 1
			},
			Call:  providertest.ListInventory,
			Calls: map[string]int{"DescribeInstances": 3},
		},
		{
			Name: "throttled for good",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 400, "LimitExceededException", "Rate exceeded", op == "GetCostAndUsage"
			},
			Call:  providertest.FetchDay,
			Want:  model.FailureThrottled,
			Calls: map[string]int{"GetCostAndUsage": 4},
		},
		{
			Name: "expired credentials",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 403, "ExpiredToken", "The security token included in the request is expired", true
			},
			Call:  providertest.CheckAccess,
			Want:  model.FailureCredentials,
			Calls: map[string]int{"GetCallerIdentity": 1},
		},
		{
			Name: "missing Cost Explorer permission",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 400, "AccessDeniedException", "User: arn:aws:iam::111111111111:user/finops is not authorized to perform: ce:GetCostAndUsage", op == "GetCostAndUsage"
			},
			Call:  providertest.FetchDay,
			Want:  model.FailurePermission,
			Calls: map[string]int{"GetCostAndUsage": 1},
		},
		{
			Name: "missing EC2 permission",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 403, "UnauthorizedOperation", "You are not authorized to perform this operation.", op == "DescribeVolumes"
			},
			Call:  providertest.ListInventory,
			Want:  model.FailurePermission,
			Calls: map[string]int{"DescribeVolumes": 1},
		},
		{
			Name: "missing CloudWatch permission",
			Fail: func(op string, n int) (int, string, string, bool) {
				return 403, "AccessDenied", "not authorized to perform: cloudwatch:GetMetricData", op == "GetMetricData"
			},
			Call:  providertest.ListInventory,
			Want:  model.FailurePermission,
			Calls: map[string]int{"GetMetricData": 1},
		},
	}
	providertest.RunFailures(t, connector, tests, func(t *testing.T, fail fail) (provider.Provider, func(string) int) {
		isolate(t)
		f, srv := newFakeAWS(t)
		f.fail = fail
		return newTestProvider(t, srv.URL, nil), f.Count
	})
}

// secretKey is the start of the test secret access key, which no error
// or warning may show.
const secretKey = "wJalrXUtnFEMI"

func TestNoCredentialsAnywhere(t *testing.T) {
	isolate(t)
	_, srv := newFakeAWS(t)
	p, err := New(config.AWSConfig{Region: "us-east-1", Endpoint: srv.URL}, nil, WithRetry(2, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	connector.Failure(t, p.Check(context.Background()), model.FailureCredentials)
}

func TestKeyringCredentials(t *testing.T) {
	isolate(t)
	f, srv := newFakeAWS(t)
	p := newTestProvider(t, srv.URL, keyring{FieldAccessKeyID: "AKIDKEYRING", FieldSecretAccessKey: "keyring-secret"})
	if err := p.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(f.auth) == 0 || !strings.Contains(f.auth[0], "Credential=AKIDKEYRING/") {
		t.Errorf("Authorization = %v, want SigV4 with the keyring's key", f.auth)
	}
}

func TestInventory(t *testing.T) {
	isolate(t)
	f, srv := newFakeAWS(t)
	p := newTestProvider(t, srv.URL, nil)
	inv, byID := providertest.Listed(t, p, func(r model.Resource) string { return r.ResourceID })
	if _, ok := byID["i-gone"]; ok {
		t.Error("terminated instance listed")
	}
	web, batch := byID["i-web"], byID["i-batch"]
	if web.State != "running" || web.InstanceType != "m5.large" || web.Name != "web-1" || web.Group != "web-asg" ||
		web.Account != "111111111111" || web.Region != "us-east-1" || web.VCPU != 2 || web.HourlyCost <= 0 {
		t.Errorf("i-web = %+v", web)
	}
	if batch.State != "stopped" || batch.Account != "222222222222" {
		t.Errorf("i-batch (second page) = %+v", batch)
	}
	if v := byID["vol-orphan"]; v.Attached || v.SizeGB != 500 || v.State != "available" || v.Tags["team"] != "data" || v.HourlyCost <= 0 {
		t.Errorf("vol-orphan = %+v", v)
	}
	if v := byID["vol-attached"]; !v.Attached || v.State != "in-use" {
		t.Errorf("vol-attached = %+v", v)
	}
	if ip := byID["eipalloc-idle"]; ip.Attached || ip.ResourceType != "public_ip" {
		t.Errorf("idle EIP = %+v", ip)
	}
	if ip := byID["eipalloc-used"]; !ip.Attached {
		t.Errorf("used EIP = %+v", ip)
	}
	// Only the running instance is measured, over 14 days of hours, from
	// two pages of GetMetricData.
	if len(f.cwQueries) != 1 || strings.Join(f.cwQueries[0], ",") != "cpu0,nin0,nout0,mem0" {
		t.Errorf("GetMetricData queries = %v", f.cwQueries)
	}
	if f.Count("GetMetricData") != 2 {
		t.Errorf("GetMetricData calls = %d, want 2 (NextToken)", f.Count("GetMetricData"))
	}
	s := providertest.FirstSample(t, inv, UtilizationDays)
	if s.ResourceID != "i-web" || s.CPU != 0.25 || s.Memory != 0.60 || s.NetworkBytes != 2000 {
		t.Errorf("sample = %+v", s)
	}
	if want := testNow.Truncate(time.Hour).Add(-UtilizationDays * 24 * time.Hour); !s.Time.Equal(want) {
		t.Errorf("first sample at %v, want %v", s.Time, want)
	}
	for i := 1; i < len(inv.Utilization); i++ {
		if !inv.Utilization[i].Time.After(inv.Utilization[i-1].Time) {
			t.Fatalf("samples not in time order at %d", i)
		}
	}
}

func TestCancelled(t *testing.T) {
	isolate(t)
	_, srv := newFakeAWS(t)
	providertest.Cancelled(t, connector, newTestProvider(t, srv.URL, nil))
}

func TestBadDayRange(t *testing.T) {
	p, err := New(config.AWSConfig{Region: "us-east-1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.FetchCosts(context.Background(), "2026-11-20", "2026-11-19"); apperr.KindOf(err) != apperr.Validation {
		t.Errorf("kind = %q, want ValidationError", apperr.KindOf(err))
	}
	if _, err := New(config.AWSConfig{}, nil); apperr.KindOf(err) != apperr.Configuration {
		t.Errorf("no region: kind = %q, want ConfigurationError", apperr.KindOf(err))
	}
}

// TestLive runs against the real account of the environment's credentials.
func TestLive(t *testing.T) {
	p := providertest.Live(t, model.AWS, "(with AWS credentials and AWS_REGION)", func() (provider.Provider, error) {
		region := os.Getenv("AWS_REGION")
		if region == "" {
			region = "us-east-1"
		}
		return New(config.AWSConfig{Region: region, Profile: os.Getenv("AWS_PROFILE")}, nil)
	})
	inv, err := p.Inventory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d resources, %d samples", len(inv.Resources), len(inv.Utilization))
}

// TestMetricsFailureKeepsResources: without CloudWatch access the listed
// resources still come back, beside the error.
func TestMetricsFailureKeepsResources(t *testing.T) {
	isolate(t)
	f, srv := newFakeAWS(t)
	f.fail = func(op string, n int) (int, string, string, bool) {
		return 403, "AccessDenied", "not authorized to perform: cloudwatch:GetMetricData", op == "GetMetricData"
	}
	providertest.MetricsDenied(t, connector, newTestProvider(t, srv.URL, nil), 6)
}
