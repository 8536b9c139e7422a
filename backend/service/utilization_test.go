package service

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/azure"
)

// writeFOCUS writes a FOCUS export with one compute line a day per
// resource over the 30 days before testNow, each at its daily cost.
func writeFOCUS(t *testing.T, provider, region string, daily map[string]float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,EffectiveCost,ListCost,ProviderName,ServiceName,ServiceCategory,RegionId,ResourceId\n")
	day := testNow.Truncate(24 * time.Hour)
	for d := 1; d <= 30; d++ {
		start := day.AddDate(0, 0, -d)
		for id, c := range daily {
			v := strconv.FormatFloat(c, 'f', -1, 64)
			fmt.Fprintf(&b, "%s,acct-1,USD,Usage,%s,%s,%s,%s,%s,Virtual Machines,Compute,%s,%s\n", v, start.Format(time.RFC3339),
				start.AddDate(0, 0, 1).Format(time.RFC3339), v, v, provider, region, id)
		}
	}
	path := filepath.Join(t.TempDir(), "focus.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func notAssessedOf(t *testing.T, s *Service, k model.ProviderKey) model.NotAssessed {
	t.Helper()
	na, err := s.NotAssessed(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range na {
		if n.Provider == k {
			return n
		}
	}
	return model.NotAssessed{}
}

func recommendationFor(t *testing.T, s *Service, id string) model.Recommendation {
	t.Helper()
	recs, err := s.GenerateRecommendations(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if strings.EqualFold(r.ResourceID, id) {
			return r
		}
	}
	return model.Recommendation{}
}

// TestExportCostsWithLiveAzureInventory is the issue end to end: Azure
// costs come from a FOCUS export, inventory and utilization from the live
// connector (azure.inventory: api) through the real SDK against a local
// Resource Manager. Before the sync the export's machines are not
// assessed, with their monthly cost; after it the listed machine is
// rightsized and only the unlisted one is left, while no cost is asked
// of Cost Management.
func TestExportCostsWithLiveAzureInventory(t *testing.T) {
	const sub = "00000000-0000-0000-0000-00000000bbbb"
	vm := "/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-web"
	blind := "/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-blind"
	var costQueries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		p := r.URL.Path
		switch {
		case strings.Contains(p, "/Microsoft.CostManagement/"):
			costQueries.Add(1)
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"error":{"code":"AuthorizationFailed","message":"no cost access"}}`)
		case strings.HasSuffix(p, "/Microsoft.Compute/virtualMachines"):
			fmt.Fprintf(w, `{"value":[{"id":%q,"name":"vm-web","location":"westeurope",
				"properties":{"hardwareProfile":{"vmSize":"Standard_D8s_v5"},"instanceView":{"statuses":[{"code":"PowerState/running"}]}}}]}`, vm)
		case strings.HasSuffix(p, "/Microsoft.Compute/disks"), strings.HasSuffix(p, "/Microsoft.Network/publicIPAddresses"):
			fmt.Fprint(w, `{"value":[]}`)
		case strings.HasSuffix(p, "/providers/Microsoft.Insights/metrics"):
			span := strings.Split(r.URL.Query().Get("timespan"), "/")
			start, _ := time.Parse(time.RFC3339, span[0])
			end, _ := time.Parse(time.RFC3339, span[1])
			series := func(name, field string, v float64) map[string]any {
				var data []map[string]any
				for t := start; t.Before(end); t = t.Add(time.Hour) {
					data = append(data, map[string]any{"timeStamp": t.Format(time.RFC3339), field: v})
				}
				return map[string]any{"name": map[string]string{"value": name}, "timeseries": []any{map[string]any{"data": data}}}
			}
			// 10 % CPU; Standard_D8s_v5 has 32 GiB, 24 available: 25 % used.
			_ = json.NewEncoder(w).Encode(map[string]any{"timespan": r.URL.Query().Get("timespan"), "interval": "PT1H", "value": []any{
				series("Percentage CPU", "average", 10), series("Available Memory Bytes", "average", 24*(1<<30)),
				series("Network In Total", "total", 5e8), series("Network Out Total", "total", 5e8)}})
		case p == "/subscriptions/"+sub:
			fmt.Fprintf(w, `{"subscriptionId":%q,"displayName":"Prod","state":"Enabled"}`, sub)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"code":"NotFound","message":%q}}`, p)
		}
	}))
	defer srv.Close()
	s := openLive(t, "azure: {enabled: true, source: export, inventory: api, subscription_id: "+sub+"}\n", model.Azure,
		func(c *config.Config, _ provider.Credentials) (provider.Provider, error) {
			return azure.New(c.Azure, nil, azure.WithCredential(fixedToken{}), azure.WithInsecureHTTP(), azure.WithRetry(0, time.Millisecond, time.Millisecond),
				azure.WithNow(func() time.Time { return testNow }),
				azure.WithCloud(cloud.Configuration{ActiveDirectoryAuthorityHost: srv.URL + "/",
					Services: map[cloud.ServiceName]cloud.ServiceConfiguration{cloud.ResourceManager: {Endpoint: srv.URL, Audience: srv.URL}}}))
		})
	ctx := adminCtx()
	export := writeFOCUS(t, "Microsoft", "westeurope", map[string]float64{vm: 9.2, blind: 100})
	if _, err := s.ImportFiles(ctx, []string{export}, ImportOptions{Format: "focus", Provider: model.Azure}); err != nil {
		t.Fatal(err)
	}
	before := notAssessedOf(t, s, model.Azure)
	if before.Resources != 2 || before.Reason != model.NotAssessedNoUtilization || !strings.Contains(before.Message, "azure.inventory: api") {
		t.Fatalf("before the sync: %+v, want both machines not assessed", before)
	}
	if r := recommendationFor(t, s, vm); r.ID != "" {
		t.Fatalf("a recommendation without utilization: %+v", r)
	}

	res, err := s.RunSync(ctx, SyncRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Skipped || r.Source != model.SourceExport || r.Resources != 1 || r.Lines != 0 || r.Warning != "" {
		t.Fatalf("sync result %+v, want the inventory of one machine and no cost lines", r)
	}
	if n := costQueries.Load(); n != 0 {
		t.Fatalf("%d Cost Management calls: costs must stay from the export", n)
	}
	inv, err := s.store.Inventory(ctx, model.Azure, model.SourceExport, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Resources) != 1 || len(inv.Utilization) < 24*14 {
		t.Fatalf("stored %d resources, %d samples", len(inv.Resources), len(inv.Utilization))
	}
	rec := recommendationFor(t, s, vm)
	if rec.Type != model.RecRightsizing || rec.RecommendedConfig == nil || rec.RecommendedConfig.InstanceType == "Standard_D8s_v5" || rec.PotentialSavings <= 0 {
		t.Fatalf("recommendation for vm-web %+v, want rightsizing to a smaller size", rec)
	}
	after := notAssessedOf(t, s, model.Azure)
	want := 100 * 730.0 / 24
	if after.Resources != 1 || after.MonthlyCost < want-0.01 || after.MonthlyCost > want+0.01 || after.Currency != "USD" {
		t.Fatalf("after the sync: %+v, want vm-blind alone at %.2f a month", after, want)
	}
}

// fakePrometheus answers query_range with one series per machine, its
// labels given, at fixed CPU, memory and network readings.
func fakePrometheus(t *testing.T, labels []map[string]string, cpu, mem, net string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/query_range" || r.ParseForm() != nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		q := r.Form.Get("query")
		v := cpu
		switch {
		case strings.Contains(q, "MemAvailable"):
			v = mem
		case strings.Contains(q, "network"):
			v = net
		}
		start, _ := strconv.ParseInt(r.Form.Get("start"), 10, 64)
		end, _ := strconv.ParseInt(r.Form.Get("end"), 10, 64)
		var result []map[string]any
		for _, l := range labels {
			var values [][2]any
			for ts := start; ts <= end; ts += 3600 {
				values = append(values, [2]any{ts, v})
			}
			result = append(result, map[string]any{"metric": l, "values": values})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{"resultType": "matrix", "result": result}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestExportCostsWithPrometheusUtilization: an AWS export and node-exporter
// series in Prometheus, mapped by instance_id with the type from a label,
// and no live API at all: the sync stores the export's machines with the
// samples, and the idle check finds the idle one.
func TestExportCostsWithPrometheusUtilization(t *testing.T) {
	url := fakePrometheus(t, []map[string]string{
		{"instance_id": "i-0idle", "instance_type": "m5.xlarge"},
		{"instance_id": "i-0elsewhere", "instance_type": "m5.large"}, // not in the export
	}, "0.01", "0.1", "1000")
	s := openLive(t, "aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  prometheus:\n    url: "+url+"\n    type_label: instance_type\n", model.AWS,
		func(*config.Config, provider.Credentials) (provider.Provider, error) {
			t.Error("the live connector was built without inventory: api")
			return nil, fmt.Errorf("no live aws")
		})
	ctx := adminCtx()
	export := writeFOCUS(t, "AWS", "us-east-1", map[string]float64{"i-0idle": 4.6, "i-0blind": 20})
	if _, err := s.ImportFiles(ctx, []string{export}, ImportOptions{Format: "focus", Provider: model.AWS}); err != nil {
		t.Fatal(err)
	}
	// Before any utilization, the recommendations report says why it
	// finds nothing for the export's machines.
	rep, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportRecommendations, Format: model.FormatHTML})
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(rep.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "not assessed for 2 AWS compute resources, $748 a month") {
		t.Fatalf("the report has no not-assessed notice:\n%s", page)
	}
	res, err := s.RunSync(ctx, SyncRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Skipped || r.Resources != 2 || r.Warning != "" {
		t.Fatalf("sync result %+v, want the export's two machines stored", r)
	}
	if rec := recommendationFor(t, s, "i-0idle"); rec.Type != model.RecIdle {
		t.Fatalf("recommendation for i-0idle %+v, want idle", rec)
	}
	// Without the type label, the machines with samples cannot be priced:
	// the sync says so.
	s.cfg.AWS.Prometheus.TypeLabel = ""
	res, err = s.RunSync(ctx, SyncRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; len(r.Warnings) != 1 || !strings.Contains(r.Warning, "aws.prometheus.type_label") {
		t.Fatalf("sync without type_label: %+v, want one warning naming the key", r)
	}
	if n := notAssessedOf(t, s, model.AWS); n.Resources != 1 {
		t.Fatalf("not assessed %+v, want i-0blind alone", n)
	}
}

// TestDemoNotAssessed: the demo inventory has utilization for
// the machines it bills, so nothing is reported as not assessed, and the
// list is [] rather than null.
func TestDemoNotAssessed(t *testing.T) {
	s := openDemo(t, nil)
	na, err := s.NotAssessed(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	if na == nil || len(na) != 0 {
		t.Fatalf("demo not assessed %+v, want []", na)
	}
}

// listed is recording whose inventory lists one machine with no samples.
type listed struct{ recording }

func (listed) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{Provider: model.GCP, Resources: []model.Resource{{Provider: model.GCP, ResourceID: "projects/p/zones/z/instances/vm-1", State: "running"}}}, nil
}

// TestLiveSyncAddsPrometheusSamples: a live provider's inventory gets the
// Prometheus samples of its machines (ids matched ignoring case); a
// Prometheus that cannot be read is a warning, the inventory still stored.
func TestLiveSyncAddsPrometheusSamples(t *testing.T) {
	up := fakePrometheus(t, []map[string]string{{"instance_id": "projects/p/zones/z/instances/VM-1"}}, "0.4", "0.5", "10")
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"status":"error","errorType":"unavailable","error":"not ready"}`)
	}))
	defer down.Close()
	for _, tt := range []struct {
		name, url string
		samples   int
		warned    bool
	}{{"prometheus up", up, 14 * 24, false}, {"prometheus down", down.URL, 0, true}} {
		t.Run(tt.name, func(t *testing.T) {
			var asked [][2]string
			s := openLive(t, "gcp: {enabled: true, source: api, project_id: p, billing_table: p.d.t, prometheus: {url: '"+tt.url+"'}}\n", model.GCP,
				func(*config.Config, provider.Credentials) (provider.Provider, error) {
					return listed{recording{&asked}}, nil
				})
			res, err := s.RunSync(adminCtx(), SyncRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if r := res[0]; r.Resources != 1 || (len(r.Warnings) == 1) != tt.warned {
				t.Fatalf("result %+v", r)
			}
			inv, err := s.store.Inventory(adminCtx(), model.GCP, model.SourceAPI, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if len(inv.Utilization) != tt.samples || (tt.samples > 0 && inv.Utilization[0].ResourceID != "projects/p/zones/z/instances/vm-1") {
				t.Fatalf("%d samples stored, want %d of the listed id", len(inv.Utilization), tt.samples)
			}
		})
	}
}
