package recommend

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

func TestNotAssessed(t *testing.T) {
	line := func(p model.ProviderKey, id, svc, cat string, billed float64) model.CostLine {
		return model.CostLine{Provider: p, ResourceID: id, Service: svc, ServiceCategory: cat, ChargeCategory: "Usage",
			Currency: "USD", Billed: model.NanosFromFloat(billed)}
	}
	in := Input{
		Inventory: []model.Inventory{{Provider: model.AWS, Utilization: []model.UtilizationSample{
			{ResourceID: "i-0SAMPLED", Time: time.Now(), CPU: 0.5},
		}}, {Provider: model.GCP, Utilization: []model.UtilizationSample{
			{ResourceID: "projects/p/zones/z/instances/vm-1", CPU: 0.5},
		}}},
		Costs: []model.CostLine{
			line(model.AWS, "i-0sampled", "Amazon EC2", "Compute", 300),
			line(model.AWS, "i-0blind", "Amazon EC2", "Compute", 2000),
			line(model.AWS, "i-0blind", "Amazon EC2", "Compute", 1000), // another line of the same machine
			line(model.AWS, "i-0other", "Amazon EC2", "Compute", 30000),
			line(model.AWS, "vol-1", "Amazon EBS", "Storage", 500), // not compute
			line(model.AWS, "", "Amazon EC2", "Compute", 700),      // no resource
			line(model.GCP, "//compute.googleapis.com/projects/p/zones/z/instances/vm-1", "Compute Engine", "Compute", 100),
			line(model.Azure, "/subscriptions/s/vm-free", "Virtual Machines", "Compute", 0),
		},
	}
	got := NotAssessed(in, "USD")
	if len(got) != 1 {
		t.Fatalf("got %+v, want AWS only (GCP's machine has samples, Azure's cost nothing)", got)
	}
	a := got[0]
	want := 33000.0 / LookbackDays * 730 / 24
	if a.Provider != model.AWS || a.Resources != 2 || a.Reason != model.NotAssessedNoUtilization || a.Currency != "USD" ||
		a.MonthlyCost < want-0.01 || a.MonthlyCost > want+0.01 {
		t.Fatalf("got %+v, want 2 AWS resources at %.2f a month", a, want)
	}
	if a.Message != "Rightsizing and idle checks not assessed for 2 AWS compute resources, $33.5K a month: no utilization data. Connect metrics: aws.inventory: api or aws.prometheus." {
		t.Fatalf("message %q", a.Message)
	}
}

func TestCompactMoney(t *testing.T) {
	tests := []struct {
		v    float64
		cur  string
		want string
	}{
		{3_100_000, "USD", "$3.1M"}, {42_500, "EUR", "€42.5K"}, {9_800, "USD", "$9,800"}, {2.4e9, "JPY", "2.4B JPY"}, {12, "", "12"},
	}
	for _, tt := range tests {
		if got := CompactMoney(tt.v, tt.cur); got != tt.want {
			t.Errorf("CompactMoney(%v, %s) = %q, want %q", tt.v, tt.cur, got, tt.want)
		}
	}
}
