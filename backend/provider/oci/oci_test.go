package oci

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

var testNow = time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)

var (
	keyOnce sync.Once
	testKey *rsa.PrivateKey
)

// signingKey is one RSA key for the whole package: generating one per test
// would cost more than the tests.
func signingKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		testKey = k
	})
	return testKey
}

func writeKey(t *testing.T, k *rsa.PrivateKey) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "oci_api_key.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func newTestProvider(t *testing.T, url string, keyPath string) *Provider {
	t.Helper()
	cfg := config.OCIConfig{TenancyID: testTenancy, UserID: testUser, Fingerprint: testFingerprint,
		PrivateKeyPath: keyPath, Region: "us-ashburn-1", Endpoint: url}
	p, err := New(cfg, nil, WithRetry(4, time.Millisecond), WithNow(func() time.Time { return testNow }),
		WithHTTPClient(&http.Client{Timeout: 5 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func setup(t *testing.T) (*fakeOCI, *Provider) {
	t.Helper()
	k := signingKey(t)
	f, srv := newFakeOCI(t, &k.PublicKey)
	return f, newTestProvider(t, srv.URL, writeKey(t, k))
}

func TestFetchCosts(t *testing.T) {
	f, p := setup(t)
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	// Signed with the configured identity.
	want := testTenancy + "/" + testUser + "/" + testFingerprint
	for _, id := range f.keyIDs {
		if id != want {
			t.Fatalf("keyId = %q, want %q", id, want)
		}
	}
	// One page per day; the window is exactly the asked days, end exclusive.
	usage := f.Kept("usage")
	if len(usage) != 3 {
		t.Fatalf("usage calls = %d, want 3", len(usage))
	}
	u := usage[0]
	if u["tenantId"] != testTenancy || u["granularity"] != "DAILY" || u["queryType"] != "COST" ||
		!strings.HasPrefix(u["timeUsageStarted"].(string), "2026-11-17T00:00:00") || !strings.HasPrefix(u["timeUsageEnded"].(string), "2026-11-20T00:00:00") {
		t.Errorf("usage request = %v", u)
	}
	if len(b.Lines) != 6 {
		t.Fatalf("lines = %d, want 6 (the zero Networking rows dropped)", len(b.Lines))
	}
	if len(b.Accounts) != 1 || b.Accounts[0] != testTenancy {
		t.Errorf("batch accounts = %v, want the tenancy", b.Accounts)
	}
	// The compartment of the lines is named from Identity ListCompartments.
	if len(b.AccountNames) != 1 || b.AccountNames[testCompartment] != "apps" {
		t.Errorf("account names %v, want %s named apps", b.AccountNames, testCompartment)
	}
	for _, l := range b.Lines {
		if l.SubAccount != testCompartment {
			t.Errorf("line sub-account %q, want the named compartment", l.SubAccount)
		}
	}
	var total model.Nanos
	for _, l := range b.Lines {
		total += l.Billed
	}
	// float32 12.34 and 0.0425 come back exactly through their decimal strings.
	if want := model.Nanos(3 * (12_340_000_000 + 42_500_000)); total != want {
		t.Errorf("total = %s, want %s", total, want)
	}
	l := b.Lines[0]
	if l.Day != "2026-11-17" || l.BillingAccount != testTenancy || l.SubAccount != testCompartment || l.Service != "Compute" ||
		l.ResourceID != instanceID || l.Region != "us-ashburn-1" || l.Currency != "USD" || l.Effective != l.Billed {
		t.Errorf("first line = %+v", l)
	}
}

func TestInventory(t *testing.T) {
	f, p := setup(t)
	inv, byName := providertest.Listed(t, p, func(r model.Resource) string { return r.Name })
	if _, ok := byName["gone"]; ok {
		t.Error("terminated instance listed")
	}
	web := byName["web-1"]
	if web.State != "running" || web.InstanceType != "VM.Standard.E4.Flex/2/16" || web.MemoryGB != 16 || web.VCPU != 4 ||
		web.Account != testCompartment || web.Region != "us-ashburn-1" || web.Tags["team"] != "web" || web.Tags["Finance.CostCenter"] != "42" || web.HourlyCost <= 0 {
		t.Errorf("web-1 = %+v", web)
	}
	if old := byName["old"]; old.State != "stopped" {
		t.Errorf("old (second page) = %+v", old)
	}
	if v := byName["data"]; !v.Attached || v.State != "in-use" || v.SizeGB != 200 {
		t.Errorf("data volume = %+v", v)
	}
	if v := byName["orphan"]; v.Attached || v.SizeGB != 1024 || v.HourlyCost <= 0 {
		t.Errorf("orphan volume = %+v", v)
	}
	if ip := byName["129.1.2.3"]; ip.Attached || ip.ResourceType != "public_ip" {
		t.Errorf("reserved ip = %+v", ip)
	}
	// Root and one child compartment; four metric queries over the tenancy.
	if f.Count("instances") != 3 || f.Count("metrics") != 4 {
		t.Errorf("instances calls = %d (want 3), metrics calls = %d (want 4)", f.Count("instances"), f.Count("metrics"))
	}
	s := providertest.FirstSample(t, inv, UtilizationDays)
	if s.ResourceID != instanceID || s.CPU != 0.08 || s.Memory != 0.55 || s.NetworkBytes != 800 {
		t.Errorf("sample = %+v", s)
	}
}

// connector is what the shared checks know of this package's connector.
var connector = providertest.Cloud{Key: model.OCI, Secrets: []string{keySecret}}

func TestFailures(t *testing.T) {
	type fail = func(op string, n int) (int, string, bool)
	tests := []providertest.FailureCase[fail]{
		{
			Name:  "throttled then success",
			Fail:  func(op string, n int) (int, string, bool) { return 429, "TooManyRequests", op == "usage" && n <= 2 },
			Call:  providertest.FetchDay,
			Calls: map[string]int{"usage": 3},
		},
		{
			Name:  "throttled for good",
			Fail:  func(op string, n int) (int, string, bool) { return 429, "TooManyRequests", op == "usage" },
			Call:  providertest.FetchDay,
			Want:  model.FailureThrottled,
			Calls: map[string]int{"usage": 4},
		},
		{
			Name: "server error then success",
			Fail: func(op string, n int) (int, string, bool) {
				return 500, "InternalServerError", op == "volumes" && n == 1
			},
			Call:  providertest.ListInventory,
			Calls: map[string]int{"volumes": 3},
		},
		{
			Name:  "key not accepted",
			Fail:  func(op string, n int) (int, string, bool) { return 401, "NotAuthenticated", true },
			Call:  providertest.CheckAccess,
			Want:  model.FailureCredentials,
			Calls: map[string]int{"getUser": 1},
		},
		{
			Name:  "no usage policy",
			Fail:  func(op string, n int) (int, string, bool) { return 404, "NotAuthorizedOrNotFound", op == "usage" },
			Call:  providertest.FetchDay,
			Want:  model.FailurePermission,
			Calls: map[string]int{"usage": 1},
		},
		{
			Name: "no monitoring policy",
			Fail: func(op string, n int) (int, string, bool) { return 404, "NotAuthorizedOrNotFound", op == "metrics" },
			Call: providertest.ListInventory,
			Want: model.FailurePermission,
		},
	}
	providertest.RunFailures(t, connector, tests, func(t *testing.T, fail fail) (provider.Provider, func(string) int) {
		f, p := setup(t)
		f.fail = fail
		return p, f.Count
	})
}

// keySecret is what any PEM private key shows, and no error may.
const keySecret = "PRIVATE KEY"

// TestWrongKey signs with a key the server does not know: the signature
// check fails and the answer is bad credentials.
func TestWrongKey(t *testing.T) {
	other, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	f, srv := newFakeOCI(t, &signingKey(t).PublicKey)
	p := newTestProvider(t, srv.URL, writeKey(t, other))
	connector.Failure(t, p.Check(context.Background()), model.FailureCredentials)
	if f.Count("getUser") != 1 {
		t.Errorf("getUser calls = %d, want 1 (no retry on 401)", f.Count("getUser"))
	}
}

func TestCheck(t *testing.T) {
	f, p := setup(t)
	if err := p.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.Count("getUser") != 1 {
		t.Errorf("getUser calls = %d", f.Count("getUser"))
	}
}

func TestMissingKeyFile(t *testing.T) {
	p := newTestProvider(t, "http://127.0.0.1:1", filepath.Join(t.TempDir(), "none.pem"))
	if err := p.Check(context.Background()); apperr.KindOf(err) != apperr.Configuration {
		t.Errorf("kind = %q (%v), want ConfigurationError", apperr.KindOf(err), err)
	}
}

func TestNanos32(t *testing.T) {
	tests := []struct {
		in   float32
		want model.Nanos
	}{
		{12.34, 12_340_000_000},
		{0.0425, 42_500_000},
		{-3.5, -3_500_000_000},
		{1e-7, 100},
		{1234567.8, 1_234_567_800_000_000},
	}
	for _, tt := range tests {
		got, err := nanos32(&tt.in)
		if err != nil || got != tt.want {
			t.Errorf("nanos32(%v) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestCancelled(t *testing.T) {
	_, p := setup(t)
	providertest.Cancelled(t, connector, p)
}

// TestLive runs against the tenancy of ~/.oci/config (or OCI_CLI_*).
func TestLive(t *testing.T) {
	providertest.Live(t, model.OCI, "with a working ~/.oci/config (or OCI_CLI_CONFIG_FILE/OCI_CLI_PROFILE)", func() (provider.Provider, error) {
		return New(config.OCIConfig{Region: os.Getenv("OCI_CLI_REGION")}, nil)
	})
}

// TestMetricsFailureKeepsResources: without a Monitoring policy the listed
// resources still come back, beside the error.
func TestMetricsFailureKeepsResources(t *testing.T) {
	f, p := setup(t)
	f.fail = func(op string, n int) (int, string, bool) { return 404, "NotAuthorizedOrNotFound", op == "metrics" }
	providertest.MetricsDenied(t, connector, p, 5)
}

// TestCompartmentNamesOptional: without the permission to list
// compartments the costs still come, unnamed; the connector says why it
// gives no commitment discounts.
func TestCompartmentNamesOptional(t *testing.T) {
	f, p := setup(t)
	f.fail = func(op string, _ int) (int, string, bool) {
		return http.StatusNotFound, "NotAuthorizedOrNotFound", op == "compartments"
	}
	b, err := p.FetchCosts(context.Background(), "2026-11-19", "2026-11-19")
	if err != nil {
		t.Fatalf("the costs should not fail without compartment names: %v", err)
	}
	if len(b.Lines) != 2 || len(b.AccountNames) != 0 {
		t.Errorf("%d lines, names %v; want 2 lines, no names", len(b.Lines), b.AccountNames)
	}
	var cs provider.CommitmentSource = p
	if cs.CommitmentsNote() == "" || len(b.Commitments) != 0 {
		t.Error("the OCI connector should give no commitments and say why")
	}
}
