package recommend

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// commitmentTermYears is the term recommended: one year keeps the lock-in
// short; the three-year saving is given in the details.
const commitmentTermYears = 1

// computeServices are service names (lower case) that bill machines, for
// cost lines without a FOCUS ServiceCategory.
var computeServices = []string{"amazon elastic compute cloud", "amazonec2", "ec2", "virtual machines",
	"compute engine", "compute"}

// isComputeUsage reports whether a cost line is usage of compute.
func isComputeUsage(l model.CostLine) bool {
	if !isUsage(l) {
		return false
	}
	if strings.EqualFold(l.ServiceCategory, "Compute") {
		return true
	}
	if l.ServiceCategory != "" {
		return false
	}
	s := strings.ToLower(l.Service)
	return slices.Contains(computeServices, s)
}

// isUsage reports whether a line is usage (not a purchase, tax, credit or
// adjustment); lines without a category are usage.
func isUsage(l model.CostLine) bool {
	return l.ChargeCategory == "" || strings.EqualFold(l.ChargeCategory, "Usage")
}

// OnDemandShare is how close to list price a line's effective cost must be
// to count as paid on demand: a line whose effective cost is clearly below
// its list cost is already covered by a commitment or discount. The store
// applies the same share in SQL (store.Scope.NearList).
const OnDemandShare = 0.98

func onDemand(l model.CostLine) bool {
	return l.List <= 0 || float64(l.Effective) >= OnDemandShare*float64(l.List)
}

// IsComputeUsage reports whether a line is usage of a compute service: the
// spend a commitment would cover.
func IsComputeUsage(l model.CostLine) bool { return isComputeUsage(l) }

// ComputeDaily sums daily lines' on-demand compute usage (billed) per
// provider and day: the series the commitment baseline reads.
func ComputeDaily(lines []model.CostLine) map[model.ProviderKey]map[string]float64 {
	out := map[model.ProviderKey]map[string]float64{}
	for _, l := range lines {
		if isComputeUsage(l) && onDemand(l) {
			if out[l.Provider] == nil {
				out[l.Provider] = map[string]float64{}
			}
			out[l.Provider][l.Day] += l.Billed.Float64()
		}
	}
	return out
}

// baseline is the steady hourly on-demand compute spend of a provider.
type baseline struct {
	hourly       float64 // on-demand spend per hour, every hour
	days         float64
	completeness float64
	cv           float64
	source       string
}

// costBaseline takes the 10th-percentile day of on-demand compute spend
// over the last LookbackDays days of costs (ending at now when given).
func costBaseline(daily map[string]float64, now time.Time) (baseline, bool) {
	days := make([]string, 0, len(daily))
	for d := range daily {
		days = append(days, d)
	}
	slices.Sort(days)
	last := ""
	if !now.IsZero() {
		last = now.UTC().Format(model.DateLayout)
	} else if len(days) > 0 {
		last = days[len(days)-1]
	}
	end, err := time.Parse(model.DateLayout, last)
	if err != nil {
		return baseline{}, false
	}
	first := end.AddDate(0, 0, -LookbackDays+1).Format(model.DateLayout)
	var vals []float64
	for _, d := range days {
		if d >= first && d <= last {
			vals = append(vals, daily[d])
		}
	}
	if len(vals) < MinDays {
		return baseline{}, false
	}
	return baseline{
		hourly:       percentile(vals, 0.10) / hoursPerDay,
		days:         float64(len(vals)),
		completeness: float64(len(vals)) / LookbackDays,
		cv:           cv(vals),
		source:       "cost history",
	}, true
}

// coverageBaseline sizes the purchase from commitment coverage: the
// 10th-percentile day of eligible usage that no commitment covered (at
// on-demand prices), less the usage the existing commitments could still
// absorb, their average daily unused amount at on-demand prices (unused /
// (1 - discount)). Only what stays uncovered after the commitments held is
// worth a new one; a baseline at or below zero recommends nothing.
func coverageBaseline(p model.ProviderKey, cov Coverage, now time.Time) (baseline, bool) {
	b, ok := costBaseline(cov.OnDemand, now)
	d1 := pricing.CommitmentDiscount(p, commitmentTermYears)
	if !ok || d1 >= 1 {
		return baseline{}, false
	}
	if now.IsZero() { // the window ends on the last day with data, as costBaseline's
		for d := range cov.OnDemand {
			if t, err := time.Parse(model.DateLayout, d); err == nil && t.After(now) {
				now = t
			}
		}
	}
	end := now.UTC().Format(model.DateLayout)
	first := now.UTC().AddDate(0, 0, -LookbackDays+1).Format(model.DateLayout)
	var unused float64
	for d, v := range cov.Unused {
		if d >= first && d <= end {
			unused += v
		}
	}
	b.hourly -= unused / b.days / (1 - d1) / hoursPerDay
	b.source = "eligible usage no commitment covers"
	return b, true
}

// inventoryBaseline sums the machines that ran every hour of the window,
// for providers without cost history.
func inventoryBaseline(resources []model.Resource, byID map[string][]model.UtilizationSample, opt Options) (baseline, bool) {
	var b baseline
	n := 0
	for _, r := range resources {
		if !running(r) {
			continue
		}
		cp, ok := priceOf(r)
		if !ok {
			continue
		}
		u := summarize(window(byID[r.ResourceID], opt.Now))
		if u.days < MinDays || u.coverage < 0.95 {
			continue
		}
		b.hourly += cp.hourly
		b.days += u.days
		b.completeness += u.coverage
		n++
	}
	if n == 0 {
		return baseline{}, false
	}
	b.days /= float64(n)
	b.completeness /= float64(n)
	b.source = "always-on machines"
	return b, true
}

// commit recommends a commitment for the steady baseline left after the
// other recommendations (rightsize and clean up first, then commit).
func commit(p model.ProviderKey, b baseline, otherMonthlySavings float64) (model.Recommendation, bool) {
	d1 := pricing.CommitmentDiscount(p, commitmentTermYears)
	d3 := pricing.CommitmentDiscount(p, 3)
	covered := b.hourly - otherMonthlySavings/pricing.HoursPerMonth
	if d1 <= 0 || covered <= 0 {
		return model.Recommendation{}, false
	}
	savings := money(covered * d1 * pricing.HoursPerMonth)
	if savings < MinMonthlySavings {
		return model.Recommendation{}, false
	}
	commitPerHour := covered * (1 - d1)
	product := pricing.CommitmentKind(p)
	ev := evidence{completeness: b.completeness, days: b.days, stability: stabilityOf(b.cv), kind: 1}
	return model.Recommendation{
		Type:         model.RecCommitment,
		ResourceID:   "compute-baseline",
		ResourceType: "commitment",
		Description: fmt.Sprintf("Buy a %d-year %s for the steady %s compute baseline: $%.4f an hour of on-demand "+
			"spend (from %s, after the other recommendations) costs $%.4f an hour committed; saves $%.2f a month.",
			commitmentTermYears, product, p, covered, b.source, commitPerHour, savings),
		CurrentConfig:        &model.InstanceConfig{InstanceType: "on-demand", Cost: money(covered * pricing.HoursPerMonth)},
		RecommendedConfig:    &model.InstanceConfig{InstanceType: fmt.Sprintf("%s %dy", product, commitmentTermYears), Cost: money(commitPerHour * pricing.HoursPerMonth)},
		PotentialSavings:     savings,
		Priority:             priority(savings, riskHigh),
		Provider:             p,
		Confidence:           ev.confidence(),
		ImplementationEffort: model.EffortLow,
		Details: map[string]any{
			"product":                  product,
			"term_years":               commitmentTermYears,
			"payment":                  "no upfront",
			"on_demand_hourly_covered": round4(covered),
			"commitment_per_hour":      round4(commitPerHour),
			"discount":                 d1,
			"three_year_savings":       money(covered * d3 * pricing.HoursPerMonth),
			"baseline_source":          b.source,
			"days_analyzed":            b.days,
			"daily_spend_cv":           round4(b.cv),
			"discount_source":          "typical published rates, " + pricing.PriceDate,
		},
	}, true
}
