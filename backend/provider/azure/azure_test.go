package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

var testNow = time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)

// staticToken is a credential that hands out a fixed token.
type staticToken struct{ err error }

func (s staticToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	if s.err != nil {
		return azcore.AccessToken{}, s.err
	}
	return azcore.AccessToken{Token: "static-token", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

func testCloud(url string) cloud.Configuration {
	return cloud.Configuration{
		ActiveDirectoryAuthorityHost: url + "/",
		Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: url, Audience: url},
		},
	}
}

// newPlain is a provider over plain HTTP with a static token, as azcore
// allows for loopback with InsecureAllowCredentialWithHTTP.
func newPlain(t *testing.T, url string, cfg config.AzureConfig) *Provider {
	t.Helper()
	p, err := New(cfg, nil, WithCloud(testCloud(url)), WithInsecureHTTP(), WithCredential(staticToken{}),
		WithRetry(3, time.Millisecond, 5*time.Millisecond), WithNow(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFetchCosts(t *testing.T) {
	f, srv := newFakeARM(t, false)
	p := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub})
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	// Two query types, each two pages (the second through the nextLink).
	if f.Count("query") != 2 || f.Count("query-next") != 2 {
		t.Errorf("query calls = %d + %d next, want 2 + 2", f.Count("query"), f.Count("query-next"))
	}
	queries := f.Kept("query")
	q := queries[0]
	tp := q["timePeriod"].(map[string]any)
	if q["type"] != "ActualCost" || q["timeframe"] != "Custom" ||
		!strings.HasPrefix(tp["from"].(string), "2026-11-17T00:00:00") || !strings.HasPrefix(tp["to"].(string), "2026-11-19T23:59:59") {
		t.Errorf("first query = %v", q)
	}
	ds := q["dataset"].(map[string]any)
	if ds["granularity"] != "Daily" || len(ds["grouping"].([]any)) != 2 {
		t.Errorf("dataset = %v", ds)
	}
	if queries[1]["type"] != "AmortizedCost" && queries[2]["type"] != "AmortizedCost" {
		t.Errorf("no AmortizedCost query: %v", queries)
	}
	// Two non-zero rows a day for three days; the zero Bandwidth rows are dropped.
	if len(b.Lines) != 6 {
		t.Fatalf("lines = %d, want 6: %+v", len(b.Lines), b.Lines)
	}
	if len(b.Accounts) != 1 || b.Accounts[0] != testSub {
		t.Errorf("batch accounts = %v, want the subscription", b.Accounts)
	}
	// The configured subscription's display name, read with a GET of it.
	if f.Count("subscription") != 1 || len(b.AccountNames) != 1 || b.AccountNames[testSub] != "Prod" {
		t.Errorf("account names %v after %d subscription reads, want %s named Prod", b.AccountNames, f.Count("subscription"), testSub)
	}
	var billed, effective model.Nanos
	for _, l := range b.Lines {
		billed += l.Billed
		effective += l.Effective
		if l.Currency != "EUR" || l.SubAccount != testSub {
			t.Errorf("line %+v", l)
		}
	}
	if want := model.Nanos(3 * (12_345_678_901 + 49)); billed != want {
		t.Errorf("billed = %s, want %s", billed, want)
	}
	if want := model.Nanos(3 * (7_500_000_000 + 49)); effective != want {
		t.Errorf("effective = %s, want %s", effective, want)
	}
	vm := b.Lines[0]
	if vm.Service != "Virtual Machines" || vm.ResourceID != strings.ToLower(vmID) || vm.ResourceType != "microsoft.compute/virtualmachines" || vm.Day != "2026-11-17" {
		t.Errorf("vm line = %+v", vm)
	}
	for _, h := range f.bearer {
		if h != "Bearer static-token" {
			t.Fatalf("Authorization = %q", h)
		}
	}
}

// TestQPUThrottle: Cost Management's own retry-after header is honoured.
func TestQPUThrottle(t *testing.T) {
	f, srv := newFakeARM(t, false)
	f.qpuWait = "1"
	f.fail = func(op string, n int) (int, string, bool) { return 429, "TooManyRequests", op == "query" && n == 1 }
	// azcore gives up at once when the wait asked for exceeds the cap, so
	// the cap must allow the second asked for.
	p, err := New(config.AzureConfig{SubscriptionID: testSub}, nil, WithCloud(testCloud(srv.URL)), WithInsecureHTTP(),
		WithCredential(staticToken{}), WithRetry(3, time.Millisecond, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := p.FetchCosts(context.Background(), "2026-11-19", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < time.Second {
		t.Errorf("retried after %v, want the 1 s Cost Management asked for", waited)
	}
	if f.Count("query") != 3 {
		t.Errorf("query calls = %d, want 3 (one throttled, then actual and amortized)", f.Count("query"))
	}
}

func TestAllSubscriptions(t *testing.T) {
	f, srv := newFakeARM(t, false)
	p := newPlain(t, srv.URL, config.AzureConfig{})
	b, err := p.FetchCosts(context.Background(), "2026-11-19", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	if f.Count("subscriptions") != 1 || len(b.Lines) == 0 || b.Lines[0].SubAccount != testSub {
		t.Errorf("subscriptions calls = %d, lines = %+v", f.Count("subscriptions"), b.Lines)
	}
	// Names come with the list (the disabled one is not synced, not named).
	if len(b.AccountNames) != 1 || b.AccountNames[testSub] != "Prod" || f.Count("subscription") != 0 {
		t.Errorf("account names %v, want %s named Prod from the list alone", b.AccountNames, testSub)
	}
	// The disabled subscription is skipped: one subscription, two query types.
	if f.Count("query") != 2 {
		t.Errorf("query calls = %d, want 2", f.Count("query"))
	}
}

func TestInventory(t *testing.T) {
	f, srv := newFakeARM(t, false)
	p := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub})
	inv, byName := providertest.Listed(t, p, func(r model.Resource) string { return r.Name })
	web := byName["vm-web"]
	if web.State != "running" || web.InstanceType != "Standard_D4s_v5" || web.VCPU != 4 || web.MemoryGB != 16 ||
		web.ResourceID != strings.ToLower(vmID) || web.Region != "westeurope" || web.Tags["env"] != "prod" || web.HourlyCost <= 0 {
		t.Errorf("vm-web = %+v", web)
	}
	if b := byName["vm-batch"]; b.State != "deallocated" {
		t.Errorf("vm-batch (second page) = %+v", b)
	}
	if d := byName["orphan"]; d.Attached || d.SizeGB != 1024 || d.State != "unattached" || d.ResourceType != "volume" {
		t.Errorf("orphan disk = %+v", d)
	}
	if d := byName["os"]; !d.Attached {
		t.Errorf("os disk = %+v", d)
	}
	if ip := byName["20.1.2.4"]; ip.Attached || ip.ResourceType != "public_ip" {
		t.Errorf("idle ip = %+v", ip)
	}
	if ip := byName["20.1.2.3"]; !ip.Attached {
		t.Errorf("used ip = %+v", ip)
	}
	// Only the running machine is measured.
	if f.Count("metrics") != 1 {
		t.Errorf("metrics calls = %d, want 1", f.Count("metrics"))
	}
	s := providertest.FirstSample(t, inv, UtilizationDays)
	if s.CPU != 0.125 || s.Memory != 0.75 || s.NetworkBytes != 1000 || s.ResourceID != strings.ToLower(vmID) {
		t.Errorf("sample = %+v", s)
	}
}

// connector is what the shared checks know of this package's connector.
var connector = providertest.Cloud{Key: model.Azure, Secrets: []string{clientSecret}}

func TestFailures(t *testing.T) {
	type fail = func(op string, n int) (int, string, bool)
	tests := []providertest.FailureCase[fail]{
		{
			Name:  "throttled then success",
			Fail:  func(op string, n int) (int, string, bool) { return 429, "TooManyRequests", op == "query" && n <= 2 },
			Call:  providertest.FetchDay,
			Calls: map[string]int{"query": 4},
		},
		{
			Name:  "throttled for good",
			Fail:  func(op string, n int) (int, string, bool) { return 429, "TooManyRequests", op == "query" },
			Call:  providertest.FetchDay,
			Want:  model.FailureThrottled,
			Calls: map[string]int{"query": 4},
		},
		{
			Name:  "server error then success",
			Fail:  func(op string, n int) (int, string, bool) { return 503, "ServiceUnavailable", op == "disks" && n == 1 },
			Call:  providertest.ListInventory,
			Calls: map[string]int{"disks": 2},
		},
		{
			Name:  "missing Cost Management role",
			Fail:  func(op string, n int) (int, string, bool) { return 403, "RBACAccessDenied", op == "query" },
			Call:  providertest.FetchDay,
			Want:  model.FailurePermission,
			Calls: map[string]int{"query": 1},
		},
		{
			Name:  "expired token",
			Fail:  func(op string, n int) (int, string, bool) { return 401, "ExpiredAuthenticationToken", true },
			Call:  providertest.CheckAccess,
			Want:  model.FailureCredentials,
			Calls: map[string]int{"subscription": 1},
		},
		{
			Name: "subscription not found",
			Fail: func(op string, n int) (int, string, bool) { return 404, "SubscriptionNotFound", op == "subscription" },
			Call: providertest.CheckAccess,
			Want: model.FailureNotFound,
		},
	}
	providertest.RunFailures(t, connector, tests, func(t *testing.T, fail fail) (provider.Provider, func(string) int) {
		f, srv := newFakeARM(t, false)
		f.fail = fail
		return newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}), f.Count
	})
}

// clientSecret is the service principal's secret, which no error may show.
const clientSecret = "s3cr3t-value"

// TestServicePrincipal goes through azidentity's client secret flow against
// the fake Entra ID endpoints (MSAL insists on HTTPS, so the server is TLS).
func TestServicePrincipal(t *testing.T) {
	tests := []struct {
		name        string
		tokenStatus int
		wantReason  model.ProviderFailure
	}{
		{"valid secret", http.StatusOK, ""},
		{"expired secret", http.StatusUnauthorized, model.FailureCredentials},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFakeARM(t, true)
			f.tokenStatus = tt.tokenStatus
			cfg := config.AzureConfig{SubscriptionID: testSub, TenantID: testTenant, ClientID: "app-id", ClientSecret: clientSecret}
			p, err := New(cfg, nil, WithCloud(testCloud(srv.URL)), WithHTTPClient(srv.Client()), WithRetry(1, time.Millisecond, time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(context.Background())
			if tt.wantReason == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(f.bearer) == 0 || f.bearer[0] != "Bearer tok-from-entra" {
					t.Errorf("Authorization = %v", f.bearer)
				}
				return
			}
			connector.Failure(t, err, tt.wantReason)
			if f.Count("subscription") != 0 {
				t.Error("the subscription was read without a token")
			}
		})
	}
}

func TestNoToken(t *testing.T) {
	_, srv := newFakeARM(t, false)
	p, err := New(config.AzureConfig{SubscriptionID: testSub}, nil, WithCloud(testCloud(srv.URL)), WithInsecureHTTP(),
		WithCredential(staticToken{err: errors.New("DefaultAzureCredential: no credential in the chain")}), WithRetry(0, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	connector.Failure(t, p.Check(context.Background()), model.FailureCredentials)
}

func TestCancelled(t *testing.T) {
	_, srv := newFakeARM(t, false)
	providertest.Cancelled(t, connector, newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}))
}

// TestLive runs against the subscription of the environment's credentials.
func TestLive(t *testing.T) {
	providertest.Live(t, model.Azure, "(with AZURE_SUBSCRIPTION_ID and an Azure login)", func() (provider.Provider, error) {
		return New(config.AzureConfig{SubscriptionID: os.Getenv("AZURE_SUBSCRIPTION_ID")}, nil)
	})
}

// TestMetricsFailureKeepsResources: without Azure Monitor access the listed
// resources still come back, beside the error.
func TestMetricsFailureKeepsResources(t *testing.T) {
	f, srv := newFakeARM(t, false)
	f.fail = func(op string, n int) (int, string, bool) { return 403, "AuthorizationFailed", op == "metrics" }
	providertest.MetricsDenied(t, connector, newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}), 6)
}

// TestInventoryKeepsWhatItCan: an id listed twice (as in Microsoft's own
// examples) is one resource with the last listing's data, and a malformed
// item or one without an id is skipped and counted; the rest comes back
// with a warning, not an error that loses the listing.
func TestInventoryKeepsWhatItCan(t *testing.T) {
	f, srv := newFakeARM(t, false)
	disk := "/subscriptions/" + testSub + "/resourceGroups/rg/providers/Microsoft.Compute/disks/"
	f.bodies = map[string]string{
		"vms": fmt.Sprintf(`{"value":[
			{"id":%[1]q,"name":"vm-web","location":"westeurope","properties":{"hardwareProfile":{"vmSize":"Standard_D2s_v5"},"instanceView":{"statuses":[{"code":"PowerState/deallocated"}]}}},
			{"id":%[2]q,"name":"vm-other","location":"westeurope","properties":{"instanceView":{"statuses":[{"code":"PowerState/stopped"}]}}},
			{"id":%[1]q,"name":"vm-web","location":"westeurope","properties":{"hardwareProfile":{"vmSize":"Standard_D4s_v5"},"instanceView":{"statuses":[{"code":"PowerState/running"}]}}}]}`,
			vmID, strings.Replace(vmID, "vm-web", "vm-other", 1)),
		"disks": `{"value":[
			{"id":"` + disk + `good","name":"good","location":"westeurope","properties":{"diskSizeGB":64,"diskState":"Unattached"}},
			{"id":"` + disk + `bad","name":"bad","location":"westeurope","properties":{"diskSizeGB":"lots"}},
			{"name":"no-id","location":"westeurope"}]}`,
	}
	inv, err := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}).Inventory(context.Background())
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Provider || e.Details["skipped"] != 2 {
		t.Fatalf("err = %v, want a warning counting 2 skipped items", err)
	}
	if first, _ := e.Details["first_skipped"].(map[string]string); !strings.HasPrefix(first[opDisks], disk+"bad: ") || len(first) != 1 {
		t.Errorf("first skipped = %v, want the malformed disk named under %s", e.Details["first_skipped"], opDisks)
	}
	var names []string
	for _, r := range inv.Resources {
		names = append(names, r.Name)
	}
	// vm-web once, where first listed, as last listed; the good disk; both IPs.
	if want := []string{"vm-web", "vm-other", "good", "20.1.2.3", "20.1.2.4"}; !slices.Equal(names, want) {
		t.Fatalf("resources %v, want %v", names, want)
	}
	if web := inv.Resources[0]; web.State != "running" || web.InstanceType != "Standard_D4s_v5" {
		t.Errorf("vm-web = %+v, want the last listing (running, Standard_D4s_v5)", web)
	}
	// The repeated machine is measured once.
	if f.Count("metrics") != 1 || len(inv.Utilization) != UtilizationDays*24 {
		t.Errorf("metrics calls = %d, samples = %d", f.Count("metrics"), len(inv.Utilization))
	}
}

// TestInventoryWarningsJoined: skipped items and a metrics failure are two
// warnings, each still findable in the error.
func TestInventoryWarningsJoined(t *testing.T) {
	f, srv := newFakeARM(t, false)
	f.fail = func(op string, n int) (int, string, bool) { return 403, "AuthorizationFailed", op == "metrics" }
	f.bodies = map[string]string{"ips": `{"value":[{"id":42}]}`}
	inv, err := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}).Inventory(context.Background())
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 2 {
		t.Fatalf("err = %v, want two joined warnings", err)
	}
	connector.Failure(t, joined.Unwrap()[1], model.FailurePermission)
	if e, ok := apperr.As(joined.Unwrap()[0]); !ok || e.Details["skipped"] != 1 {
		t.Errorf("first warning = %v, want 1 skipped", joined.Unwrap()[0])
	}
	if len(inv.Resources) != 4 {
		t.Errorf("resources = %d, want the 2 machines and 2 disks", len(inv.Resources))
	}
}
