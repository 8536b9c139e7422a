package kubernetes

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestResourceKeysMatchBillKeys(t *testing.T) {
	tests := []struct {
		name, providerID string
		provider         model.ProviderKey
		billID           string // a billed resource id that must match
	}{
		{"aws provider id, CUR id", "aws:///eu-west-1a/i-0abc1234def567890", model.AWS, "i-0abc1234def567890"},
		{"aws provider id, FOCUS ARN", "aws:///eu-west-1a/i-0abc1234def567890", model.AWS, "arn:aws:ec2:eu-west-1:123456789012:instance/i-0abc1234def567890"},
		{"bare instance id", "i-0abc1234def567890", model.AWS, "i-0abc1234def567890"},
		{"EBS volume", "aws://eu-west-1a/vol-0123456789abcdef0", model.AWS, "vol-0123456789abcdef0"},
		{"Azure VM", "azure:///subscriptions/S/resourceGroups/RG/providers/Microsoft.Compute/virtualMachines/vm1", model.Azure,
			"/subscriptions/s/resourcegroups/rg/providers/microsoft.compute/virtualmachines/VM1"},
		{"Azure scale-set instance, billed as its scale set",
			"azure:///subscriptions/S/resourceGroups/MC_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-pool-1/virtualMachines/3",
			model.Azure, "/subscriptions/S/resourceGroups/MC_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-pool-1"},
		{"GCE instance", "gce://my-proj/europe-west1-b/gke-pool-1-abcd", model.GCP,
			"//compute.googleapis.com/projects/my-proj/zones/europe-west1-b/instances/gke-pool-1-abcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, keys := ResourceKeys(tt.providerID)
			if p != tt.provider {
				t.Fatalf("provider %q, want %q", p, tt.provider)
			}
			bk := BillKey(tt.provider, tt.billID)
			if bk == "" || !strings.Contains(strings.Join(keys, "\n")+"\n", bk+"\n") {
				t.Errorf("keys %q do not hold the bill's key %q", keys, bk)
			}
		})
	}
	if p, keys := ResourceKeys("k3s://node-1"); p != "" || keys != nil {
		t.Errorf("an on-premises node names %q %q", p, keys)
	}
}

const ocAnswer1 = `{"code":200,"data":[{
 "c/n1/ns/api/api-1":{"name":"c/n1/ns/api/api-1","properties":{"cluster":"c","node":"n1","namespace":"ns","controller":"api",
   "controllerKind":"deployment","pod":"api-1","providerID":"aws:///z/i-0abc1234def567890","labels":{"team":"web"}},
   "window":{"start":"2026-05-01T00:00:00Z","end":"2026-05-02T00:00:00Z"},"cpuCost":1,"ramCost":0.5,"gpuCost":0,"pvCost":0.25,
   "pvs":{"cluster=c:name=pv-1":{"byteHours":1,"cost":0.25,"providerID":"vol-0123456789abcdef0"}},
   "totalCost":1.75,"cpuCoreRequestAverage":0.5,"cpuCoreUsageAverage":0.1},
 "c/n1/__idle__":{"name":"c/n1/__idle__","properties":{"cluster":"c","node":"n1"},
   "window":{"start":"2026-05-01T00:00:00Z","end":"2026-05-02T00:00:00Z"},"cpuCost":2,"ramCost":1,"totalCost":3}}]}`

func TestParseOpenCost(t *testing.T) {
	set, err := ParseOpenCost(strings.NewReader(ocAnswer1), "a.json", "", "USD")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Allocations) != 2 || set.Days["c"] != [2]model.DayNum{model.DayNum(20574), model.DayNum(20574)} {
		t.Fatalf("set = %+v", set)
	}
	var idle, pod Allocation
	for _, a := range set.Allocations {
		if a.Idle {
			idle = a
		} else {
			pod = a
		}
	}
	// The idle share takes its node's provider id from the pod's.
	if idle.Namespace != model.IdleValue || len(idle.Parts) != 1 || idle.Parts[0].ProviderID != "aws:///z/i-0abc1234def567890" || idle.Parts[0].Weight != 3 {
		t.Errorf("idle = %+v", idle)
	}
	// The volume splits itself; the node part is CPU + RAM + GPU, priced
	// at the rest of the total.
	if pod.Workload != "api" || pod.Labels["team"] != "web" || len(pod.Parts) != 2 ||
		pod.Parts[0].Kind != AssetVolume || pod.Parts[0].Weight != 0.25 ||
		pod.Parts[1].Kind != AssetNode || pod.Parts[1].Weight != 1.5 || pod.Parts[1].Price != model.NanosFromFloat(1.5) {
		t.Errorf("pod = %+v", pod)
	}
	bad := []struct{ name, body string }{
		{"not JSON", `{"code":200,"data":[`},
		{"an error answer", `{"code":500,"message":"boom"}`},
		{"a window of two days", strings.Replace(ocAnswer1, "2026-05-02T00:00:00Z", "2026-05-03T00:00:00Z", 1)},
		{"a window not at midnight", strings.Replace(ocAnswer1, "2026-05-01T00:00:00Z", "2026-05-01T06:00:00Z", 1)},
		{"a negative cost", strings.Replace(ocAnswer1, `"cpuCost":1,`, `"cpuCost":-1,`, 1)},
	}
	for _, b := range bad {
		if _, err := ParseOpenCost(strings.NewReader(b.body), "a.json", "", "USD"); err == nil || !strings.Contains(err.Error(), "a.json") {
			t.Errorf("%s: error %v, want one naming the file", b.name, err)
		}
	}
}

const eksCSV = `line_item_usage_start_date,line_item_resource_id,line_item_currency_code,line_item_unblended_cost,split_line_item_parent_resource_id,split_line_item_split_cost,split_line_item_unused_cost,resource_tags
2026-05-01T00:00:00Z,i-0abc1234def567890,USD,10,,,,{}
2026-05-01T00:00:00Z,arn:aws:eks:eu-west-1:1:pod/prod/shop/api-1/u1,USD,0,i-0abc1234def567890,3,1,"{""aws:eks:workload-name"":""api""}"
2026-05-01T01:00:00Z,arn:aws:eks:eu-west-1:1:pod/prod/shop/api-1/u1,USD,0,i-0abc1234def567890,2,0.5,"{""aws:eks:workload-name"":""api""}"
2026-05-01T00:00:00Z,arn:aws:eks:eu-west-1:1:pod/prod/ops/agent-1/u2,USD,0,i-0abc1234def567890,3,0.5,{}
`

func TestParseEKSSplit(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	_, _ = w.Write([]byte(eksCSV))
	_ = w.Close()
	for name, in := range map[string][]byte{"plain": []byte(eksCSV), "gzip": gz.Bytes()} {
		set, err := ParseEKSSplit(bytes.NewReader(in), "cur.csv")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := map[string]float64{}
		for _, a := range set.Allocations {
			got[a.Cluster+"/"+a.Namespace+"/"+a.Workload] += a.Parts[0].Weight
		}
		if len(got) != 2 || got["prod/shop/api"] != 6.5 || got["prod/ops/agent-1"] != 3.5 {
			t.Errorf("%s: %v", name, got)
		}
	}
	if _, err := ParseEKSSplit(strings.NewReader("a,b\n1,2\n"), "cur.csv"); err == nil || !strings.Contains(err.Error(), "split cost allocation") {
		t.Errorf("a file without split columns: %v", err)
	}
	badRow := strings.Replace(eksCSV, ",3,1,", ",x,1,", 1)
	if _, err := ParseEKSSplit(strings.NewReader(badRow), "cur.csv"); err == nil || !strings.Contains(err.Error(), "cur.csv:3: split_line_item_split_cost") {
		t.Errorf("a bad number: %v", err)
	}
}
