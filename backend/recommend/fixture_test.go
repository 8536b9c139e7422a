package recommend

import (
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// testNow is the analysis time of every fixture.
var testNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// hourly makes one sample per hour for the days before testNow; f gives
// CPU, memory and network bytes for each hour.
func hourly(id string, days int, f func(t time.Time) (cpu, mem, net float64)) []model.UtilizationSample {
	n := days * 24
	out := make([]model.UtilizationSample, 0, n)
	for i := n - 1; i >= 0; i-- {
		t := testNow.Add(-time.Duration(i) * time.Hour)
		cpu, mem, net := f(t)
		out = append(out, model.UtilizationSample{ResourceID: id, Time: t, CPU: cpu, Memory: mem, NetworkBytes: net})
	}
	return out
}

// machine is a running compute instance priced at its catalog price.
func machine(p model.ProviderKey, id, region, typ string, hourlyCost float64) model.Resource {
	return model.Resource{
		Provider: p, ResourceID: id, Name: id, ResourceType: "instance", Service: "compute",
		Account: "acct-1", Region: region, InstanceType: typ, State: "running", HourlyCost: hourlyCost,
		CreatedAt: testNow.AddDate(-1, 0, 0),
	}
}

// defaultOptions are the default thresholds (0.8).
var defaultOptions = Options{CPUThreshold: 0.8, MemoryThreshold: 0.8, Now: testNow}

// costLine is one day of usage cost.
func costLine(p model.ProviderKey, day, account, resource, category string, billed float64, tags map[string]string) model.CostLine {
	n := model.NanosFromFloat(billed)
	return model.CostLine{
		Provider: p, Day: day, BillingAccount: "billing", SubAccount: account, Service: "svc",
		ServiceCategory: category, Region: "us-east-1", ResourceID: resource, ChargeCategory: "Usage",
		Tags: tags, Currency: "USD", Billed: n, Effective: n, List: n,
	}
}

func countType(recs []model.Recommendation, t model.RecommendationType) int {
	n := 0
	for _, r := range recs {
		if r.Type == t {
			n++
		}
	}
	return n
}
