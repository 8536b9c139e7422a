package recommend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// fleet is one autoscaling group or fleet of running machines.
type fleet struct {
	provider model.ProviderKey
	name     string
	members  []model.Resource
	prices   []currentPrice
	metrics  []model.UtilizationSample
	series   []demandPoint
	pattern  pattern
}

// fleets groups running, priced machines by Resource.Group and measures
// their demand pattern. The split between fleet and single-machine analysis
// depends only on the data, never on the thresholds.
func fleets(resources []model.Resource, byID map[string][]model.UtilizationSample, opt Options) map[string]*fleet {
	out := map[string]*fleet{}
	for _, r := range resources {
		if r.Group == "" || !running(r) {
			continue
		}
		cp, ok := priceOf(r)
		if !ok {
			continue
		}
		key := string(r.Provider) + "\x00" + r.Group
		f := out[key]
		if f == nil {
			f = &fleet{provider: r.Provider, name: r.Group}
			out[key] = f
		}
		f.members = append(f.members, r)
		f.prices = append(f.prices, cp)
		f.metrics = append(f.metrics, window(byID[r.ResourceID], opt.Now)...)
	}
	for _, f := range out {
		f.series = demandSeries(f.metrics)
		f.pattern = analyzePattern(f.series)
	}
	return out
}

// autoscale recommends a scaling policy for a fleet with a strong daily or
// weekly pattern when following demand saves money.
func autoscale(f *fleet, opt Options) (model.Recommendation, bool) {
	if !f.pattern.strong() {
		return model.Recommendation{}, false
	}
	policy := OptimizeScalingPolicy(ScalingPolicy{TargetUtilization: opt.CPUThreshold}, f.metrics)
	now, with := policy.simulate(f.series)
	var hourly float64
	types := map[string]int{}
	for _, cp := range f.prices {
		hourly += cp.hourly
		types[cp.quote.Name]++
	}
	hourly /= float64(len(f.prices))
	curMonthly := now * hourly * pricing.HoursPerMonth
	newMonthly := with * hourly * pricing.HoursPerMonth
	savings := money(curMonthly - newMonthly)
	if savings < max(MinMonthlySavings, MinSavingsFraction*curMonthly) {
		return model.Recommendation{}, false
	}
	typ := mostCommon(types)
	kind := "daily"
	if f.pattern.useWeekly() {
		kind = "weekly"
	}
	estimated := false
	for _, cp := range f.prices {
		estimated = estimated || cp.estimated()
	}
	ev := evidence{completeness: f.pattern.coverage, days: f.pattern.days, stability: 1, estimated: estimated, kind: f.pattern.strength()}
	ids := make([]string, 0, len(f.members))
	for _, m := range f.members {
		ids = append(ids, m.ResourceID)
	}
	slices.Sort(ids)
	return model.Recommendation{
		Type:         model.RecAutoscaling,
		ResourceID:   f.name,
		ResourceType: "autoscaling_group",
		Description: fmt.Sprintf("Scale %s with demand: it runs %.1f %s on average but its %s pattern needs %.1f; "+
			"a %d-%d instance policy tracking %.0f%% CPU, with %d scheduled minimum(s) in UTC, saves %s a month.",
			f.name, now, typ, kind, with, policy.Min, policy.Max, policy.TargetUtilization*100, len(policy.Schedule), dollars(savings)),
		CurrentConfig:        &model.InstanceConfig{InstanceType: fmt.Sprintf("%s x %.1f", typ, now), Cost: money(curMonthly)},
		RecommendedConfig:    &model.InstanceConfig{InstanceType: fmt.Sprintf("%s x %d-%d", typ, policy.Min, policy.Max), Cost: money(newMonthly)},
		PotentialSavings:     savings,
		Priority:             priority(savings, riskMedium),
		Provider:             f.provider,
		Confidence:           ev.confidence(),
		ImplementationEffort: model.EffortMedium,
		Details: map[string]any{
			"policy":                policy,
			"pattern":               kind,
			"daily_r2":              round4(f.pattern.daily),
			"weekly_r2":             round4(f.pattern.weekly),
			"members":               ids,
			"avg_instances_now":     round4(now),
			"avg_instances_with":    round4(with),
			"days_analyzed":         round4(f.pattern.days),
			"schedule_timezone":     "UTC",
			"instance_hourly_price": hourly,
		},
	}, true
}

// mostCommon returns the most frequent key, ties by name.
func mostCommon(counts map[string]int) string {
	best, n := "", -1
	for k, c := range counts {
		if c > n || (c == n && k < best) {
			best, n = k, c
		}
	}
	return best
}

// running reports whether a machine is up; an unknown state counts as up.
func running(r model.Resource) bool {
	s := strings.ToLower(r.State)
	return s == "" || strings.Contains(s, "running") || s == "active"
}
