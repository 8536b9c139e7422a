package recommend

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// TestIdleMachineHandComputed: an m5.large ($0.096/h) peaking at 3 % CPU
// with 1 MB an hour of traffic is idle; savings are its full cost,
// 0.096 * 730 = $70.08, low priority (70.08 < 100 at medium risk).
func TestIdleMachineHandComputed(t *testing.T) {
	r := machine(model.AWS, "i-idle", "us-east-1", "m5.large", 0.096)
	util := hourly("i-idle", 30, func(ts time.Time) (float64, float64, float64) {
		return 0.01 + 0.02*float64(ts.Hour()%2), 0.1, 1e6
	})
	recs := AnalyzeResources([]model.Resource{r}, util, defaultOptions)
	if len(recs) != 1 {
		t.Fatalf("got %d recommendations: %+v", len(recs), recs)
	}
	rec := recs[0]
	if rec.Type != model.RecIdle || rec.PotentialSavings != 70.08 || rec.CurrentConfig.Cost != 70.08 ||
		rec.Priority != model.PriorityLow || rec.Confidence != 1 {
		t.Errorf("got %+v", rec)
	}
}

func TestIdleMachineNeedsQuietNetwork(t *testing.T) {
	r := machine(model.AWS, "i-proxy", "us-east-1", "m5.large", 0.096)
	// Low CPU but 500 MB an hour: a proxy doing its job, not idle. It still
	// fits a smaller size, so it may be rightsized but never called idle.
	util := hourly("i-proxy", 30, func(time.Time) (float64, float64, float64) { return 0.02, 0.3, 500e6 })
	for _, rec := range AnalyzeResources([]model.Resource{r}, util, defaultOptions) {
		if rec.Type == model.RecIdle {
			t.Fatalf("busy network reported idle: %+v", rec)
		}
	}
}

func TestIdleStorage(t *testing.T) {
	old := testNow.AddDate(0, 0, -200)
	fresh := testNow.AddDate(0, 0, -2)
	tests := []struct {
		name    string
		res     model.Resource
		savings float64 // 0: no recommendation
	}{
		{"unattached gp3 100 GB: 100 * 0.08", model.Resource{Provider: model.AWS, ResourceID: "vol-1", ResourceType: "volume",
			Region: "us-east-1", InstanceType: "gp3", SizeGB: 100, State: "available", CreatedAt: old}, 8},
		{"attached volume", model.Resource{Provider: model.AWS, ResourceID: "vol-2", ResourceType: "volume",
			Region: "us-east-1", InstanceType: "gp3", SizeGB: 100, Attached: true, State: "in-use", CreatedAt: old}, 0},
		{"volume created two days ago", model.Resource{Provider: model.AWS, ResourceID: "vol-3", ResourceType: "volume",
			Region: "us-east-1", InstanceType: "gp3", SizeGB: 100, CreatedAt: fresh}, 0},
		{"volume with reported cost", model.Resource{Provider: model.GCP, ResourceID: "disk-1", ResourceType: "disk",
			Region: "us-central1", InstanceType: "pd-ssd", SizeGB: 500, HourlyCost: 0.1, CreatedAt: old}, 73},
		{"unused public IP: 0.005 * 730", model.Resource{Provider: model.AWS, ResourceID: "eipalloc-1", ResourceType: "public_ip",
			Region: "us-east-1", CreatedAt: old}, 3.65},
		{"gcp unused static IP: 0.01 * 730", model.Resource{Provider: model.GCP, ResourceID: "addr-1", ResourceType: "public_ip",
			Region: "us-central1", CreatedAt: old}, 7.3},
		{"oci reserved IP is free", model.Resource{Provider: model.OCI, ResourceID: "ip-1", ResourceType: "public_ip",
			Region: "us-ashburn-1", CreatedAt: old}, 0},
		{"associated IP", model.Resource{Provider: model.AWS, ResourceID: "eipalloc-2", ResourceType: "public_ip",
			Region: "us-east-1", Attached: true, CreatedAt: old}, 0},
		{"old snapshot 50 GB: 50 * 0.05", model.Resource{Provider: model.AWS, ResourceID: "snap-1", ResourceType: "snapshot",
			Region: "us-east-1", SizeGB: 50, CreatedAt: old}, 2.5},
		{"recent snapshot", model.Resource{Provider: model.AWS, ResourceID: "snap-2", ResourceType: "snapshot",
			Region: "us-east-1", SizeGB: 50, CreatedAt: testNow.AddDate(0, 0, -30)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := AnalyzeResources([]model.Resource{tt.res}, nil, defaultOptions)
			if tt.savings == 0 {
				if len(recs) != 0 {
					t.Fatalf("got %+v, want none", recs)
				}
				return
			}
			if len(recs) != 1 || recs[0].Type != model.RecIdle {
				t.Fatalf("got %+v, want one idle", recs)
			}
			if recs[0].PotentialSavings != tt.savings {
				t.Errorf("savings %v, want %v", recs[0].PotentialSavings, tt.savings)
			}
			if c := recs[0].Confidence; c <= 0 || c > 1 {
				t.Errorf("confidence %v", c)
			}
		})
	}
}
