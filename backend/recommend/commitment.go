package recommend

import (
	"fmt"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// commitmentTermYears is the term recommended: one year keeps the lock-in
// short; the three-year saving is given in the details.
const commitmentTermYears = 1

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

// IsComputeUsage reports whether a line is usage a commitment could cover,
// by the line half of the import's eligibility rule (billing.EligibleUsage):
// the rule for sources whose commitment facts are missing.
func IsComputeUsage(l model.CostLine) bool {
	if l.ChargeCategory == "" {
		l.ChargeCategory = "Usage"
	}
	return billing.EligibleUsage(&l)
}

// ComputeDaily sums daily lines' eligible usage paid on demand (at list
// prices, as the commitment facts' eligible usage is) per provider and
// day: the series the commitment baseline reads when a source reports no
// commitment facts.
func ComputeDaily(lines []model.CostLine) map[model.ProviderKey]map[string]float64 {
	out := map[model.ProviderKey]map[string]float64{}
	for _, l := range lines {
		if IsComputeUsage(l) && onDemand(l) {
			if out[l.Provider] == nil {
				out[l.Provider] = map[string]float64{}
			}
			out[l.Provider][l.Day] += l.List.Float64()
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
	// from and to are the days read (cost and coverage baselines);
	// eligible and covered are Coverage's (coverage baselines:
	// hasEligible).
	from, to          string
	eligible, covered float64
	hasEligible       bool
}

// lookback is the LookbackDays days ending on end's day, or, when end is
// zero, on the last day of daily.
func lookback[V any](daily map[string]V, end time.Time) (first, last string, ok bool) {
	if !end.IsZero() {
		last = end.UTC().Format(model.DateLayout)
	} else {
		for d := range daily {
			last = max(last, d)
		}
	}
	t, err := time.Parse(model.DateLayout, last)
	if err != nil {
		return "", "", false
	}
	return t.AddDate(0, 0, -LookbackDays+1).Format(model.DateLayout), last, true
}

// costBaseline takes the 10th-percentile day of on-demand compute spend
// over the LookbackDays days ending at end (at the last day with data
// when end is zero).
func costBaseline(daily map[string]float64, end time.Time) (baseline, bool) {
	first, last, ok := lookback(daily, end)
	if !ok {
		return baseline{}, false
	}
	days := slices.Sorted(maps.Keys(daily))
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
		from:         first,
		to:           last,
	}, true
}

// coverageBaseline sizes the purchase from commitment coverage: the
// 10th-percentile day of eligible usage that no commitment covered (at
// on-demand prices), less the usage the existing commitments could still
// absorb, their average daily unused amount at on-demand prices (unused /
// (1 - discount)). Only what stays uncovered after the commitments held is
// worth a new one; a baseline at or below zero recommends nothing.
func coverageBaseline(p model.ProviderKey, cov Coverage, end time.Time) (baseline, bool) {
	first, last, ok := lookback(cov.OnDemand, end)
	if !ok {
		return baseline{}, false
	}
	b, ok := costBaseline(cov.OnDemand, end)
	d1 := pricing.CommitmentDiscount(p, commitmentTermYears)
	if !ok || d1 >= 1 {
		return baseline{}, false
	}
	var unused float64
	for d, v := range cov.Unused {
		if d >= first && d <= last {
			unused += v
		}
	}
	b.eligible, b.covered, b.hasEligible = cov.Eligible, cov.Covered, true
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
// other recommendations (rightsize and clean up first, then commit); why
// is the reason the baseline's days end before yesterday, if they do.
func commit(p model.ProviderKey, b baseline, otherMonthlySavings float64, why string) (model.Recommendation, bool) {
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
	source := b.source
	if b.from != "" {
		source += fmt.Sprintf(", %s to %s", b.from, b.to)
	}
	rec := model.Recommendation{
		Type:         model.RecCommitment,
		ResourceID:   "compute-baseline",
		ResourceType: "commitment",
		Description: fmt.Sprintf("Buy a %d-year %s for the steady %s compute baseline: %s an hour of on-demand "+
			"spend (from %s, after the other recommendations) costs %s an hour committed; saves %s a month.",
			commitmentTermYears, product, p.Name(), moneyfmt.Rate(covered, "USD"), source, moneyfmt.Rate(commitPerHour, "USD"), dollars(savings)),
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
	}
	if b.from != "" {
		rec.Basis = &model.Basis{From: b.from, To: b.to, Reason: why}
	}
	if b.hasEligible {
		rec.Details["eligible_on_demand_cost"] = money(b.eligible)
		rec.Details["covered_on_demand_cost"] = money(b.covered)
	}
	return rec, true
}
