package report

import (
	"fmt"
	"math"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// evilName is billing text an attacker controls: it must show as text.
const evilName = "<script>alert(1)</script>"

// Names outside ASCII: Latin with accents, Japanese, Greek and Cyrillic,
// and an Azure resource id too long for its column.
const (
	accentedName = "café-€-Ærø"
	japaneseName = "東京ウェブサーバー"
	greekName    = "διακομιστής-αθήνα"
	cyrillicName = "сервер-москва"
	longARMID    = "/subscriptions/1f0e8a7b-2c3d-4e5f-8a9b-0c1d2e3f4a5b/resourceGroups/rg-production-westeurope/providers/Microsoft.Compute/virtualMachines/vm-web-frontend-01"
)

var fixedTime = time.Date(2026, 3, 31, 12, 30, 0, 0, time.UTC)

// sampleData builds a deterministic report input: three providers over 45
// days, services, resources (one named evilName), nRecs recommendations, a
// forecast and an allocation.
func sampleData(typ model.ReportType, nRecs int) Data {
	start := time.Date(2026, 2, 14, 0, 0, 0, 0, time.UTC)
	a := model.CostAnalysis{
		Summary: model.CostSummary{
			ProvidersAnalyzed: []model.ProviderKey{model.AWS, model.Azure, model.GCP},
			AnalysisPeriod:    model.AnalysisPeriod{StartDate: "2026-02-14T00:00:00", EndDate: "2026-03-30T23:59:59"},
			Currency:          "USD",
			Metric:            model.MetricBilled,
		},
		Providers: map[model.ProviderKey]model.ProviderCosts{},
	}
	base := map[model.ProviderKey]float64{model.AWS: 410, model.Azure: 230, model.GCP: 95}
	for k, b := range base {
		pc := model.ProviderCosts{ServiceBreakdown: map[string]float64{}, Source: model.SourceDemo}
		for i := 0; i < 45; i++ {
			c := b * (1 + 0.15*math.Sin(float64(i)*2*math.Pi/7) + 0.004*float64(i))
			pc.DailyCosts = append(pc.DailyCosts, model.DailyPoint{Date: start.AddDate(0, 0, i).Format(model.DateLayout), Cost: c})
			pc.TotalCost += c
		}
		services := []string{"Compute", "Storage", "Database", "Networking", "Support"}
		rest := pc.TotalCost
		for i, s := range services {
			v := rest / 2
			if i == len(services)-1 {
				v = rest
			}
			pc.ServiceBreakdown[string(k)+" "+s] = v
			rest -= v
		}
		for i := 0; i < 12; i++ {
			name := fmt.Sprintf("%s-vm-%02d", k, i)
			if k == model.AWS && i == 3 {
				name = evilName
			}
			if k == model.AWS && i == 4 {
				name = accentedName
			}
			if k == model.Azure && i < 4 {
				name = []string{longARMID, japaneseName, greekName, cyrillicName}[i]
			}
			pc.Resources = append(pc.Resources, model.ResourceCost{
				ResourceID: name, ResourceType: "instance", Service: "Compute", Region: "eu-west-1",
				Cost: pc.TotalCost / float64(20+i), Tags: map[string]string{"team": "<b>platform</b>"},
			})
		}
		a.Providers[k] = pc
		a.Summary.TotalCost += pc.TotalCost
	}
	var recs []model.Recommendation
	prios := []model.Priority{model.PriorityHigh, model.PriorityMedium, model.PriorityLow}
	types := []model.RecommendationType{model.RecRightsizing, model.RecIdle, model.RecAutoscaling, model.RecCommitment}
	for i := 0; i < nRecs; i++ {
		recs = append(recs, model.Recommendation{
			Type: types[i%len(types)], ResourceID: fmt.Sprintf("i-%04d", i), ResourceType: "instance",
			Description:   fmt.Sprintf("Downsize m5.2xlarge to m5.large: average CPU %d%% over 14 days", 5+i%20),
			CurrentConfig: &model.InstanceConfig{InstanceType: "m5.2xlarge", Cost: 280}, RecommendedConfig: &model.InstanceConfig{InstanceType: "m5.large", Cost: 70},
			PotentialSavings: 210 - float64(i), Priority: prios[i%3], Provider: model.AWS, Confidence: 0.8, ImplementationEffort: model.EffortLow,
		})
	}
	if nRecs > 0 {
		recs[0].Description = "Idle instance " + evilName
	}
	f := &model.Forecast{TotalForecast: 24000, ConfidenceInterval: [2]float64{21000, 27000}, ConfidenceLevel: 0.95, ForecastPeriod: 30,
		ProviderForecasts: map[model.ProviderKey]model.ProviderForecast{
			model.AWS: {TotalForecast: 14000, ConfidenceInterval: [2]float64{12000, 16000}, TrendAnalysis: model.TrendAnalysis{TrendDirection: model.TrendIncreasing, Volatility: 0.12}},
		},
		RecommendationsImpact: &model.RecommendationsImpact{BaseForecast: 24000, OptimizedForecast: 21000, TotalSavings: 3000, SavingsPercentage: 12.5},
		Currency:              "USD", Model: "linear+weekly"}
	for i := 0; i < 30; i++ {
		v := 800 + 3*float64(i)
		f.DailyForecast = append(f.DailyForecast, model.ForecastPoint{Date: time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(model.DateLayout), Forecast: v, Lower: v - 60 - float64(i), Upper: v + 60 + float64(i)})
	}
	alloc := &model.AllocationResult{
		AllocatedCosts: model.AllocatedCosts{
			ByDepartment: map[string]float64{"platform": 18000, "data": 9000, evilName: 1000},
			ByProject:    map[string]float64{"apollo": 20000, "(no project)": 8000},
			Unallocated:  a.Summary.TotalCost - 28000, Shared: 1200, Total: a.Summary.TotalCost,
		},
		Rules:        model.AllocationRules{Method: "tag_based", Tags: []string{"team"}},
		MatchedRules: map[string]float64{"tag:team": 26800, "shared:proportional": 1200},
		Currency:     "USD",
	}
	a.Summary.Period = &model.PeriodInfo{Kind: model.PeriodCustom, Granularity: model.GranularityDay, Label: "Custom", Start: "2026-02-14", End: "2026-03-30"}
	a.Summary.Previous = &model.Comparison{Start: "2025-12-31", End: "2026-02-13", Days: 45, TotalCost: a.Summary.TotalCost * 0.9}
	done := model.Recommendation{Type: model.RecIdle, ResourceID: "i-done", Provider: model.AWS, PotentialSavings: 50,
		Lifecycle: &model.Lifecycle{State: model.RecDone, Realized: &model.RealizedSavings{Monthly: 42.5, Currency: "USD"}}}
	cov := &model.TagCoverage{From: "2026-02-14", To: "2026-03-30", Currency: "USD", OwnerKeys: []string{"team", "owner"},
		CoverageCell:  model.CoverageCell{Total: 30000, Allocatable: 21000, Unallocated: 9000, AllocatableShare: 0.7},
		Providers:     []model.CoverageRow{{Provider: model.AWS, CoverageCell: model.CoverageCell{Total: 30000, Allocatable: 21000, Unallocated: 9000, AllocatableShare: 0.7}, UntaggedResources: 12}},
		Accounts:      []model.CoverageRow{{Provider: model.AWS, Account: "coverage-acct-111", CoverageCell: model.CoverageCell{Total: 30000, Allocatable: 21000, Unallocated: 9000, AllocatableShare: 0.7}, UntaggedResources: 12}},
		AccountsTotal: 1}
	return Data{Type: typ, GeneratedAt: fixedTime, Analysis: a, Recommendations: recs, Forecast: f, Allocation: alloc, Coverage: cov,
		Outlook: &Outlook{Label: "Next 30 days", End: "2026-04-29", Days: 30, Forecast: 24000, Interval: [2]float64{21000, 27000}, Projected: 24000},
		Budgets: []Budget{
			{Name: "Cloud total", Scope: "all providers", Period: "2026-03", Amount: 30000, Actual: 26000, Projected: 29500, HasForecast: true, Currency: "USD"},
			{Name: "AWS", Scope: "AWS", Period: "2026-Q1", Amount: 50000, Actual: 52000, Projected: 52000, HasForecast: true, Currency: "USD"},
		},
		ServiceGroups: []model.CostGroup{
			{Key: "Compute", Label: "Compute", Cost: 9000, PreviousCost: 7000},
			{Key: "Storage", Label: "Storage", Cost: 3000, PreviousCost: 3500},
			{Key: "", Label: "Other", Cost: 900, PreviousCost: 10, Other: 4},
		},
		AccountGroups: []model.CostGroup{{Key: "123456789012", Label: "prod (123456789012)", Cost: 12000, PreviousCost: 11000}},
		Realized:      []model.Recommendation{done},
	}
}
