package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/azure"
)

type fixedToken struct{}

func (fixedToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "t", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// TestFirstAzureSyncStoresRepeatedIDs is the issue end to end: Resource
// Manager lists a machine twice and one disk is malformed; a first sync
// through the real connector stores the costs and every sound resource
// once, with the skipped item as a warning.
func TestFirstAzureSyncStoresRepeatedIDs(t *testing.T) {
	const sub = "00000000-0000-0000-0000-00000000aaaa"
	vm := "/subscriptions/" + sub + "/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		p := r.URL.Path
		switch {
		case strings.HasSuffix(p, "/Microsoft.CostManagement/query") && strings.Contains(string(body), "ReservationId"):
			fmt.Fprint(w, `{"properties":{"columns":[{"name":"Cost","type":"Number"},{"name":"UsageDate","type":"Number"},{"name":"ReservationId","type":"String"},{"name":"ChargeType","type":"String"},{"name":"Currency","type":"String"}],"rows":[]}}`)
		case strings.HasSuffix(p, "/Microsoft.CostManagement/query"):
			_ = json.NewEncoder(w).Encode(map[string]any{"properties": map[string]any{
				"columns": []map[string]string{{"name": "Cost", "type": "Number"}, {"name": "UsageDate", "type": "Number"},
					{"name": "ServiceName", "type": "String"}, {"name": "ResourceId", "type": "String"}, {"name": "Currency", "type": "String"}},
				"rows": [][]any{{2.5, 20260609, "Virtual Machines", strings.ToLower(vm), "USD"}}}})
		case p == "/providers/Microsoft.Capacity/reservationOrders", strings.HasSuffix(p, "/Microsoft.Network/publicIPAddresses"):
			fmt.Fprint(w, `{"value":[]}`)
		case strings.HasSuffix(p, "/Microsoft.Compute/virtualMachines"):
			fmt.Fprintf(w, `{"value":[{"id":%[1]q,"name":"vm-1","location":"eastus","properties":{"instanceView":{"statuses":[{"code":"PowerState/stopped"}]}}},
				{"id":%[1]q,"name":"vm-1","location":"eastus","properties":{"instanceView":{"statuses":[{"code":"PowerState/deallocated"}]}}}]}`, vm)
		case strings.HasSuffix(p, "/Microsoft.Compute/disks"):
			fmt.Fprintf(w, `{"value":[{"id":"/subscriptions/%[1]s/resourceGroups/rg/providers/Microsoft.Compute/disks/ok","name":"ok","location":"eastus","properties":{"diskSizeGB":32}},
				{"id":"/subscriptions/%[1]s/resourceGroups/rg/providers/Microsoft.Compute/disks/bad","name":"bad","properties":{"diskSizeGB":"lots"}}]}`, sub)
		case p == "/subscriptions/"+sub:
			fmt.Fprintf(w, `{"subscriptionId":%q,"displayName":"Prod","state":"Enabled"}`, sub)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"code":"NotFound","message":%q}}`, p)
		}
	}))
	defer srv.Close()
	s := openLive(t, "azure: {enabled: true, source: api, subscription_id: "+sub+"}\n", model.Azure,
		func(c *config.Config, _ provider.Credentials) (provider.Provider, error) {
			return azure.New(c.Azure, nil, azure.WithCredential(fixedToken{}), azure.WithInsecureHTTP(), azure.WithRetry(0, time.Millisecond, time.Millisecond),
				azure.WithCloud(cloud.Configuration{ActiveDirectoryAuthorityHost: srv.URL + "/",
					Services: map[cloud.ServiceName]cloud.ServiceConfiguration{cloud.ResourceManager: {Endpoint: srv.URL, Audience: srv.URL}}}))
		})
	res, err := s.RunSync(adminCtx(), SyncRequest{Start: "2026-06-09", End: "2026-06-09"})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Lines != 1 || r.Resources != 2 || len(r.Warnings) != 1 {
		t.Fatalf("result %+v, want 1 line, the machine and the sound disk stored, 1 warning", r)
	}
	inv, err := s.store.Inventory(adminCtx(), model.Azure, model.SourceAPI, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Resources) != 2 || inv.Resources[1].ResourceID != strings.ToLower(vm) || inv.Resources[1].State != "deallocated" {
		t.Fatalf("stored %+v, want the disk and vm-1 once, as last listed", inv.Resources)
	}
}
