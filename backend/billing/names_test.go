package billing

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// keyNames lists the resource names a parse gives, provider and
// resource id to name.
func keyNames(t *testing.T, res FileResult) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, b := range res.Batches {
		for _, k := range b.Facts.Keys {
			if k.ResourceName != "" {
				if prev, ok := out[string(b.Provider)+" "+k.ResourceID]; ok && prev != k.ResourceName {
					t.Fatalf("%s %s named %q and %q", b.Provider, k.ResourceID, prev, k.ResourceName)
				}
				out[string(b.Provider)+" "+k.ResourceID] = k.ResourceName
			}
		}
	}
	return out
}

// TestRealSampleResourceNames: every ResourceName of the published FOCUS
// sample reaches its lines, read independently from the CSV.
func TestRealSampleResourceNames(t *testing.T) {
	path := filepath.Join(sharedDir(t), "focus-1.0-sample-aws-azure-oci.csv")
	idx, recs := readCSVFile(t, path)
	want := map[string]string{}
	for _, rec := range recs {
		name, id := rec[idx["ResourceName"]], rec[idx["ResourceId"]]
		if name == "NULL" || name == "" || id == "NULL" || id == "" {
			continue
		}
		p := map[string]model.ProviderKey{"AWS": model.AWS, "Microsoft": model.Azure, "Oracle": model.OCI}[rec[idx["ProviderName"]]]
		want[string(p)+" "+id] = name
	}
	if len(want) < 10 {
		t.Fatalf("the sample names only %d resources", len(want))
	}
	res, err := ParseFile(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := keyNames(t, res)
	if len(got) != len(want) {
		t.Errorf("%d named resources, want %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: name %q, want %q", k, got[k], n)
		}
	}
}

// TestResourceNamesPerFormat: the name column of each format that has
// one, and none where a format has none.
func TestResourceNamesPerFormat(t *testing.T) {
	tests := []struct {
		name, csv string
		want      map[string]string
	}{
		{"gcp resource.name beside the global name",
			"billing_account_id,service.description,usage_start_time,project.id,resource.name,resource.global_name,cost,currency,cost_type\n" +
				"B,Compute Engine,2024-05-01 07:00:00 UTC,p,vm-1,//compute.googleapis.com/projects/p/zones/z/instances/123,1.5,USD,regular\n" +
				"B,Cloud Storage,2024-05-01 07:00:00 UTC,p,bucket-only,,2,USD,regular\n",
			map[string]string{"gcp //compute.googleapis.com/projects/p/zones/z/instances/123": "vm-1"}},
		{"azure ResourceName",
			"SubscriptionId,Date,CostInBillingCurrency,BillingCurrencyCode,ResourceId,ResourceName,MeterCategory,ConsumedService\n" +
				"s1,2024-05-01,3,USD,/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-a,web-a,Virtual Machines,Microsoft.Compute\n" +
				"s1,2024-05-02,3,USD,/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-a,web-a,Virtual Machines,Microsoft.Compute\n",
			map[string]string{"azure /subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-a": "web-a"}},
		{"cur Name tag",
			"lineItem/UsageAccountId,lineItem/LineItemType,lineItem/UsageStartDate,lineItem/ProductCode,lineItem/ResourceId,lineItem/CurrencyCode,lineItem/UnblendedCost,resourceTags/user:Name,resourceTags/user:team\n" +
				"111,Usage,2024-05-01T00:00:00Z,AmazonEC2,i-0abc,USD,1,api-server,core\n" +
				"111,Usage,2024-05-01T00:00:00Z,AmazonS3,bucket-x,USD,1,,core\n",
			map[string]string{"aws i-0abc": "api-server"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Parse(context.Background(), strings.NewReader(tt.csv), "names.csv", Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := keyNames(t, res)
			if len(got) != len(tt.want) {
				t.Fatalf("names %v, want %v", got, tt.want)
			}
			for k, n := range tt.want {
				if got[k] != n {
					t.Errorf("%s: %q, want %q", k, got[k], n)
				}
			}
		})
	}
}
