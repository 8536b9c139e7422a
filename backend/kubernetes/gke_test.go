package kubernetes

import (
	"bytes"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

const gkeHeader = "usage_start_time,labels,resource.name,resource.global_name,cost,currency\n"

const gkeCSV = gkeHeader +
	`2026-05-01 00:00:00 UTC,"[{""key"":""goog-k8s-cluster-name"",""value"":""prod""},{""key"":""k8s-namespace"",""value"":""shop""},{""key"":""k8s-workload-name"",""value"":""api""},{""key"":""k8s-workload-type"",""value"":""apps/v1-Deployment""},{""key"":""k8s-label/team"",""value"":""web""}]",n1,//compute.googleapis.com/projects/p/zones/z/instances/1,3,EUR` + "\n" +
	`2026-05-01T10:00:00Z,"[{""key"":""goog-k8s-cluster-name"",""value"":""prod""},{""key"":""k8s-namespace"",""value"":""shop""},{""key"":""k8s-workload-name"",""value"":""api""},{""key"":""k8s-workload-type"",""value"":""apps/v1-Deployment""},{""key"":""k8s-label/team"",""value"":""web""}]",n1,//compute.googleapis.com/projects/p/zones/z/instances/1,1,EUR` + "\n" +
	`2026-05-01 00:00:00 UTC,"[{""key"":""goog-k8s-cluster-name"",""value"":""prod""},{""key"":""k8s-namespace"",""value"":""kube:unallocated""}]",n1,//compute.googleapis.com/projects/p/zones/z/instances/1,2,EUR` + "\n" +
	`2026-05-01 00:00:00 UTC,"[{""key"":""goog-k8s-cluster-name"",""value"":""prod""},{""key"":""k8s-namespace"",""value"":""shop""},{""key"":""k8s-workload-name"",""value"":""db""}]",d1,//compute.googleapis.com/projects/p/zones/z/disks/d1,1.5,EUR` + "\n" +
	`2026-05-01 00:00:00 UTC,"[{""key"":""goog-k8s-cluster-name"",""value"":""prod""}]",prod,//container.googleapis.com/projects/p/zones/z/clusters/prod,2.4,EUR` + "\n" +
	`2026-05-01 00:00:00 UTC,"[{""key"":""app"",""value"":""x""}]",b,//storage.googleapis.com/b,9,EUR` + "\n"

func TestParseGKE(t *testing.T) {
	set, err := ParseGKE(strings.NewReader(gkeCSV), "gcp.csv")
	if err != nil {
		t.Fatal(err)
	}
	may1, _ := model.ParseDayNum("2026-05-01")
	if set.Origin != OriginGKE || len(set.Allocations) != 3 || set.Days["prod"] != [2]model.DayNum{may1, may1} {
		t.Fatalf("set %+v", set)
	}
	api, idle, db := set.Allocations[0], set.Allocations[1], set.Allocations[2]
	if api.Namespace != "shop" || api.Workload != "api" || api.Pod != "api" || api.WorkloadKind != "apps/v1-Deployment" ||
		api.Labels["team"] != "web" || api.Currency != "EUR" || api.Parts[0].Weight != 4 || api.Parts[0].Kind != AssetNode {
		t.Errorf("api %+v", api)
	}
	if !idle.Idle || idle.Namespace != model.IdleValue || idle.Parts[0].Weight != 2 {
		t.Errorf("idle %+v", idle)
	}
	if db.Parts[0].Kind != AssetVolume || db.Parts[0].Weight != 1.5 {
		t.Errorf("disk %+v", db)
	}
	for _, tt := range []struct{ name, in, want string }{
		{"no labels column", "usage_start_time,cost,resource.name\n", "no column labels"},
		{"bad labels", gkeHeader + `2026-05-01 00:00:00 UTC,{goog-k8s-cluster-name},n,g,1,USD` + "\n", "gcp.csv:2: labels"},
		{"bad cost", gkeHeader + `2026-05-01 00:00:00 UTC,"[{""key"":""goog-k8s-cluster-name"",""value"":""c""}]",n,//compute.googleapis.com/projects/p/zones/z/instances/1,x,USD` + "\n", "gcp.csv:2: cost"},
		{"bad time", gkeHeader + `yesterday,"[{""key"":""goog-k8s-cluster-name"",""value"":""c""}]",n,//compute.googleapis.com/projects/p/zones/z/instances/1,1,USD` + "\n", "gcp.csv:2: usage_start_time"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseGKE(strings.NewReader(tt.in), "gcp.csv"); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// FuzzParseGKE: any CSV is read or refused, never a panic.
func FuzzParseGKE(f *testing.F) {
	f.Add([]byte(gkeCSV))
	f.Fuzz(func(t *testing.T, in []byte) {
		set, err := ParseGKE(bytes.NewReader(in), "gcp.csv")
		if err == nil {
			for _, a := range set.Allocations {
				if a.Cluster == "" || a.Namespace == "" || a.Parts[0].Weight <= 0 {
					t.Fatalf("allocation %+v", a)
				}
			}
		}
	})
}

// TestParseGKEJSONLines: the export saved as BigQuery's JSON lines gives
// what its CSV gives.
func TestParseGKEJSONLines(t *testing.T) {
	const jsonl = `{"usage_start_time":"2026-05-01 00:00:00 UTC","labels":[{"key":"goog-k8s-cluster-name","value":"prod"},{"key":"k8s-namespace","value":"shop"},{"key":"k8s-workload-name","value":"api"},{"key":"k8s-label/team","value":"web"}],"resource":{"name":"n1","global_name":"//compute.googleapis.com/projects/p/zones/z/instances/1"},"cost":4,"currency":"EUR"}

{"usage_start_time":"2026-05-01 00:00:00 UTC","labels":[{"key":"goog-k8s-cluster-name","value":"prod"},{"key":"k8s-namespace","value":"kube:unallocated"}],"resource":{"name":"n1","global_name":"//compute.googleapis.com/projects/p/zones/z/instances/1"},"cost":2,"currency":"EUR"}
{"usage_start_time":"2026-05-01 00:00:00 UTC","labels":[],"resource":{"name":"b"},"cost":9,"currency":"EUR"}
`
	set, err := ParseGKE(strings.NewReader(jsonl), "gcp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Allocations) != 2 || set.Allocations[0].Workload != "api" || set.Allocations[0].Labels["team"] != "web" ||
		set.Allocations[0].Parts[0].Weight != 4 || !set.Allocations[1].Idle || set.Allocations[1].Parts[0].Weight != 2 {
		t.Fatalf("allocations %+v", set.Allocations)
	}
	if _, err := ParseGKE(strings.NewReader("{\"cost\": [1]}\n"), "gcp.jsonl"); err == nil || !strings.Contains(err.Error(), "gcp.jsonl:1") {
		t.Errorf("error %v, want one naming gcp.jsonl:1", err)
	}
}
