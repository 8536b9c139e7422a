package azure

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/provider/providertest"
)

const (
	testSub    = "00000000-0000-0000-0000-00000000aaaa"
	testTenant = "11111111-1111-1111-1111-111111111111"
	vmID       = "/subscriptions/" + testSub + "/resourceGroups/RG-Web/providers/Microsoft.Compute/virtualMachines/vm-web"
)

// fakeARM answers the resource manager APIs the connector uses, in their
// JSON shapes, plus the Entra ID token endpoints for a TLS server.
type fakeARM struct {
	t   *testing.T
	url string
	// Recorder counts requests by a short operation name and keeps every
	// Cost Management query body (next pages too) under "query".
	providertest.Recorder
	mu sync.Mutex
	// hosts keeps the Host each operation was sent to, tokenForms the
	// token requests' forms.
	hosts      map[string][]string
	tokenForms []url.Values
	// fail, when set, answers an operation with an error.
	fail func(op string, n int) (status int, code string, ok bool)
	// tokenStatus, when not 200, makes the token endpoint refuse.
	tokenStatus int
	bearer      []string
	// qpuWait, when set, throttles with Cost Management's own headers
	// instead of Retry-After.
	qpuWait string
	// res is the tenant's reservations (none when nil).
	res *fakeReservations
	// bodies, when set for an operation, is its whole answer.
	bodies map[string]string
}

func newFakeARM(t *testing.T, tls bool) (*fakeARM, *httptest.Server) {
	f := &fakeARM{t: t, hosts: map[string][]string{}, tokenStatus: http.StatusOK}
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(http.HandlerFunc(f.serve))
		t.Cleanup(srv.Close)
	} else {
		srv = providertest.Serve(t, f.serve)
	}
	f.url = srv.URL
	return f, srv
}

func (f *fakeARM) op(r *http.Request, body []byte) string {
	p := r.URL.Path
	switch {
	case p == "/providers/Microsoft.Capacity/reservationOrders":
		return "reservation-orders"
	case strings.HasSuffix(p, "/providers/Microsoft.Consumption/reservationSummaries"):
		return "reservation-summaries"
	case strings.HasSuffix(p, "/providers/Microsoft.CostManagement/query") && strings.Contains(string(body), `"ReservationId"`):
		return "query-reservations"
	case strings.HasSuffix(p, "/openid-configuration"):
		return "openid"
	case p == "/common/discovery/instance":
		return "discovery"
	case strings.HasSuffix(p, "/oauth2/v2.0/token"):
		return "token"
	case strings.HasSuffix(p, "/providers/Microsoft.CostManagement/query"):
		if r.URL.Query().Get("$skiptoken") != "" {
			return "query-next"
		}
		return "query"
	case strings.HasSuffix(p, "/providers/Microsoft.Compute/virtualMachines"):
		return "vms"
	case strings.HasSuffix(p, "/providers/Microsoft.Compute/disks"):
		return "disks"
	case strings.HasSuffix(p, "/providers/Microsoft.Network/publicIPAddresses"):
		return "ips"
	case strings.HasSuffix(p, "/providers/Microsoft.Insights/metrics"):
		return "metrics"
	case p == "/subscriptions":
		return "subscriptions"
	case strings.HasPrefix(p, "/subscriptions/") && strings.Count(p, "/") == 2:
		return "subscription"
	}
	return "unknown " + r.Method + " " + p
}

func (f *fakeARM) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op := f.op(r, body)
	n := f.Hit(op)
	f.mu.Lock()
	f.hosts[op] = append(f.hosts[op], r.Host)
	if op == "token" {
		form, _ := url.ParseQuery(string(body))
		f.tokenForms = append(f.tokenForms, form)
	}
	if op != "openid" && op != "token" && op != "discovery" {
		f.bearer = append(f.bearer, r.Header.Get("Authorization"))
	}
	f.mu.Unlock()
	if f.fail != nil {
		if status, code, ok := f.fail(op, n); ok {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("x-ms-error-code", code)
			if status == http.StatusTooManyRequests {
				if f.qpuWait != "" {
					w.Header().Set("x-ms-ratelimit-microsoft.costmanagement-qpu-retry-after", f.qpuWait)
					w.Header().Set("x-ms-ratelimit-microsoft.costmanagement-entity-retry-after", "0")
				} else {
					w.Header().Set("Retry-After", "0")
				}
			}
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"code":%q,"message":"test failure"}}`, code)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if b, ok := f.bodies[op]; ok {
		fmt.Fprint(w, b)
		return
	}
	switch op {
	case "openid":
		// The authority the request was sent to, as Entra ID answers.
		base := "https://" + r.Host + "/" + testTenant
		fmt.Fprintf(w, `{"token_endpoint":%q,"authorization_endpoint":%q,"issuer":%q,"token_endpoint_auth_methods_supported":["client_secret_post"]}`,
			base+"/oauth2/v2.0/token", base+"/oauth2/v2.0/authorize", base+"/v2.0")
	case "discovery":
		// MSAL's instance discovery, asked of a well-known authority itself.
		fmt.Fprintf(w, `{"tenant_discovery_endpoint":%q,"api-version":"1.1","metadata":[{"preferred_network":%q,"preferred_cache":%q,"aliases":[%q]}]}`,
			"https://"+r.Host+"/"+testTenant+"/v2.0/.well-known/openid-configuration", r.Host, r.Host, r.Host)
	case "token":
		if f.tokenStatus != http.StatusOK {
			w.WriteHeader(f.tokenStatus)
			fmt.Fprint(w, `{"error":"invalid_client","error_description":"AADSTS7000222: The provided client secret keys are expired.","error_codes":[7000222]}`)
			return
		}
		fmt.Fprint(w, `{"token_type":"Bearer","expires_in":3599,"ext_expires_in":3599,"access_token":"tok-from-entra"}`)
	case "subscription":
		fmt.Fprintf(w, `{"id":"/subscriptions/%s","subscriptionId":%q,"displayName":"Prod","state":"Enabled"}`, testSub, testSub)
	case "subscriptions":
		fmt.Fprintf(w, `{"value":[{"id":"/subscriptions/%s","subscriptionId":%q,"displayName":"Prod","state":"Enabled"},
			{"id":"/subscriptions/dead","subscriptionId":"dead","displayName":"Old","state":"Disabled"}]}`, testSub, testSub)
	case "query", "query-next":
		f.query(w, r, body, op == "query-next")
	case "reservation-orders":
		f.reservationOrders(w, r)
	case "reservation-summaries":
		f.reservationSummaries(w, r)
	case "query-reservations":
		f.reservationQuery(w, body)
	case "vms":
		if r.URL.Query().Get("statusOnly") != "true" {
			f.t.Errorf("VM list without statusOnly=true: %s", r.URL.RawQuery)
		}
		if r.URL.Query().Get("page") == "" {
			fmt.Fprintf(w, `{"value":[{"id":%q,"name":"vm-web","location":"westeurope","tags":{"env":"prod"},
				"properties":{"hardwareProfile":{"vmSize":"Standard_D4s_v5"},"timeCreated":"2026-01-02T03:04:05Z",
				"instanceView":{"statuses":[{"code":"ProvisioningState/succeeded"},{"code":"PowerState/running"}]}}}],
				"nextLink":%q}`, vmID, f.url+r.URL.Path+"?"+r.URL.RawQuery+"&page=2")
			return
		}
		fmt.Fprintf(w, `{"value":[{"id":"/subscriptions/%s/resourceGroups/rg-batch/providers/Microsoft.Compute/virtualMachines/vm-batch","name":"vm-batch","location":"westeurope",
			"properties":{"hardwareProfile":{"vmSize":"Standard_F8s_v2"},"instanceView":{"statuses":[{"code":"PowerState/deallocated"}]}}}]}`, testSub)
	case "disks":
		fmt.Fprintf(w, `{"value":[
			{"id":"/subscriptions/%[1]s/resourceGroups/rg-web/providers/Microsoft.Compute/disks/os","name":"os","location":"westeurope","managedBy":%[2]q,
			 "sku":{"name":"Premium_LRS"},"properties":{"diskSizeGB":128,"diskState":"Attached"}},
			{"id":"/subscriptions/%[1]s/resourceGroups/rg-web/providers/Microsoft.Compute/disks/orphan","name":"orphan","location":"westeurope",
			 "sku":{"name":"Standard_LRS"},"properties":{"diskSizeGB":1024,"diskState":"Unattached"},"tags":{"team":"data"}}]}`, testSub, vmID)
	case "ips":
		fmt.Fprintf(w, `{"value":[
			{"id":"/subscriptions/%[1]s/resourceGroups/rg-web/providers/Microsoft.Network/publicIPAddresses/web-ip","name":"web-ip","location":"westeurope",
			 "properties":{"ipAddress":"20.1.2.3","ipConfiguration":{"id":"/subscriptions/%[1]s/resourceGroups/rg-web/providers/Microsoft.Network/networkInterfaces/nic/ipConfigurations/ipconfig1"}}},
			{"id":"/subscriptions/%[1]s/resourceGroups/rg-web/providers/Microsoft.Network/publicIPAddresses/idle-ip","name":"idle-ip","location":"westeurope",
			 "properties":{"ipAddress":"20.1.2.4"}}]}`, testSub)
	case "metrics":
		f.metrics(w, r)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":{"code":"NotFound","message":%q}}`, op)
	}
}

// query answers the Cost Management table: two days per page, the first
// page with a nextLink. Actual and amortized differ so the merge shows.
func (f *fakeARM) query(w http.ResponseWriter, r *http.Request, body []byte, next bool) {
	in := f.Keep(f.t, "query", body)
	amortized := in["type"] == "AmortizedCost"
	vmCost, effective := 12.345678901, 12.345678901
	if amortized {
		effective = 7.5
	}
	rows := [][]any{}
	days := []int{20261117, 20261118}
	if next {
		days = []int{20261119}
	}
	for _, d := range days {
		rows = append(rows,
			[]any{map[bool]float64{false: vmCost, true: effective}[amortized], d, "Virtual Machines", strings.ToLower(vmID), "EUR"},
			[]any{0.000000049, d, "Storage", "", "EUR"},
			[]any{0.0, d, "Bandwidth", "", "EUR"})
	}
	props := map[string]any{
		"columns": []map[string]string{{"name": "Cost", "type": "Number"}, {"name": "UsageDate", "type": "Number"},
			{"name": "ServiceName", "type": "String"}, {"name": "ResourceId", "type": "String"}, {"name": "Currency", "type": "String"}},
		"rows": rows,
	}
	if !next {
		props["nextLink"] = f.url + r.URL.Path + "?api-version=2022-10-01&$skiptoken=page2"
	}
	providertest.WriteJSON(w, "application/json", map[string]any{"id": "q1", "name": "q1", "type": "Microsoft.CostManagement/query", "properties": props})
}

// metrics answers hourly points across the asked timespan.
func (f *fakeARM) metrics(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	span := strings.Split(q.Get("timespan"), "/")
	if len(span) != 2 || q.Get("interval") != "PT1H" {
		f.t.Errorf("metrics query = %s", r.URL.RawQuery)
		return
	}
	start, _ := time.Parse(time.RFC3339, span[0])
	end, _ := time.Parse(time.RFC3339, span[1])
	series := func(name, field string, v float64) map[string]any {
		var data []map[string]any
		for t := start; t.Before(end); t = t.Add(time.Hour) {
			data = append(data, map[string]any{"timeStamp": t.Format(time.RFC3339), field: v})
		}
		return map[string]any{"id": "m", "type": "Microsoft.Insights/metrics", "name": map[string]string{"value": name, "localizedValue": name},
			"unit": "Percent", "timeseries": []any{map[string]any{"metadatavalues": []any{}, "data": data}}}
	}
	providertest.WriteJSON(w, "application/json", map[string]any{
		"cost": 0, "timespan": q.Get("timespan"), "interval": "PT1H", "namespace": "Microsoft.Compute/virtualMachines", "resourceregion": "westeurope",
		"value": []any{
			series("Percentage CPU", "average", 12.5),
			// Standard_D4s_v5 has 16 GiB: 4 GiB available is 75% used.
			series("Available Memory Bytes", "average", 4*(1<<30)),
			series("Network In Total", "total", 300),
			series("Network Out Total", "total", 700),
		},
	})
}
