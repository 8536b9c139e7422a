package recommend

import (
	"fmt"
	"math"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// currentPrice is what a machine costs now: its reported hourly cost when
// the provider gave one, else the catalog price. ratio scales catalog prices
// to the same discount level (1 when the resource reports list price).
type currentPrice struct {
	quote  pricing.PricedSize
	hourly float64
	ratio  float64
}

// priceOf prices a compute resource; false when its type is not in the
// catalog (then its architecture and shape are unknown and nothing is
// recommended).
func priceOf(r model.Resource) (currentPrice, bool) {
	q, ok := pricing.Quote(r.Provider, r.Region, r.InstanceType)
	if !ok || q.Hourly <= 0 {
		return currentPrice{}, false
	}
	cp := currentPrice{quote: q, hourly: q.Hourly, ratio: 1}
	if r.HourlyCost > 0 {
		cp.hourly = r.HourlyCost
		cp.ratio = r.HourlyCost / q.Hourly
	}
	return cp, true
}

// estimated reports whether the current price comes from a regional
// estimate rather than the provider or the table.
func (cp currentPrice) estimated() bool { return cp.quote.Estimated && cp.ratio == 1 }

// rightsize finds the cheapest size of the same architecture whose capacity
// keeps p95 demand under the thresholds and the observed peak under 100 %.
// Only moves that save money are returned: raising a threshold can only add
// candidates, so it never removes a recommendation.
func rightsize(r model.Resource, u usage, cp currentPrice, opt Options) (model.Recommendation, bool) {
	cur := cp.quote.Size
	p95CPU := u.p95CPU * cur.VCPU
	peakCPU := u.maxCPU * cur.VCPU
	p95Mem := u.p95Mem * cur.MemoryGB
	peakMem := u.maxMem * cur.MemoryGB
	fits := func(c pricing.PricedSize) bool {
		if c.Name == cur.Name || c.Arch != cur.Arch || (c.Burstable && !cur.Burstable) {
			return false
		}
		if p95CPU > opt.CPUThreshold*c.VCPU || peakCPU > c.VCPU {
			return false
		}
		if !u.memKnown {
			// Without memory metrics, never shrink memory.
			return c.MemoryGB >= cur.MemoryGB
		}
		return p95Mem <= opt.MemoryThreshold*c.MemoryGB && peakMem <= c.MemoryGB
	}
	minSavings := max(MinMonthlySavings, MinSavingsFraction*cp.hourly*pricing.HoursPerMonth)
	var best pricing.PricedSize
	found := false
	for _, c := range pricing.Sizes(r.Provider, r.Region) {
		if found && c.Hourly > best.Hourly {
			break
		}
		if !fits(c) || (cp.hourly-c.Hourly*cp.ratio)*pricing.HoursPerMonth < minSavings {
			continue
		}
		if !found || better(c, best, cur) {
			best, found = c, true
		}
	}
	if !found {
		return model.Recommendation{}, false
	}
	curMonthly := cp.hourly * pricing.HoursPerMonth
	newMonthly := best.Hourly * cp.ratio * pricing.HoursPerMonth
	savings := money(curMonthly - newMonthly)
	effort := model.EffortLow
	if best.Family != cur.Family {
		effort = model.EffortMedium
	}
	memText := "memory not reported, so memory is kept"
	var memDetail any
	if u.memKnown {
		memText = fmt.Sprintf("p95 memory %.0f%% of %g GB", u.p95Mem*100, cur.MemoryGB)
		memDetail = round4(u.p95Mem)
	}
	completeness := u.coverage
	if !u.memKnown {
		completeness *= 0.85
	}
	ev := evidence{
		completeness: completeness, days: u.days, stability: stabilityOf(u.cpuCV),
		estimated: cp.estimated() || best.Estimated, kind: 1,
	}
	return model.Recommendation{
		Type:         model.RecRightsizing,
		ResourceID:   r.ResourceID,
		ResourceType: resourceTypeOr(r, "instance"),
		Description: fmt.Sprintf("Resize %s from %s to %s: p95 CPU %.0f%% of %g vCPU and %s over %.0f days; "+
			"%s keeps p95 demand under the %.0f%% CPU and %.0f%% memory targets and saves %s a month.",
			nameOf(r), cur.Name, best.Name, u.p95CPU*100, cur.VCPU, memText, u.days,
			best.Name, opt.CPUThreshold*100, opt.MemoryThreshold*100, dollars(savings)),
		CurrentConfig:        &model.InstanceConfig{InstanceType: cur.Name, Cost: money(curMonthly)},
		RecommendedConfig:    &model.InstanceConfig{InstanceType: best.Name, Cost: money(newMonthly)},
		PotentialSavings:     savings,
		Priority:             priority(savings, riskMedium),
		Provider:             r.Provider,
		Confidence:           ev.confidence(),
		ImplementationEffort: effort,
		Details: map[string]any{
			"region":           r.Region,
			"p95_cpu":          round4(u.p95CPU),
			"max_cpu":          round4(u.maxCPU),
			"p95_memory":       memDetail,
			"days_analyzed":    round4(u.days),
			"current_vcpu":     cur.VCPU,
			"current_memory":   cur.MemoryGB,
			"recommended_vcpu": best.VCPU,
			"recommended_mem":  best.MemoryGB,
			"price_source":     priceSource(ev.estimated),
		},
	}, true
}

// better breaks price ties: the current family first, then the newest
// generation.
func better(c, best pricing.PricedSize, cur pricing.Size) bool {
	if c.Hourly != best.Hourly {
		return c.Hourly < best.Hourly
	}
	if (c.Family == cur.Family) != (best.Family == cur.Family) {
		return c.Family == cur.Family
	}
	return c.Generation > best.Generation
}

func priceSource(estimated bool) string {
	if estimated {
		return "catalog " + pricing.PriceDate + ", regional estimate"
	}
	return "catalog " + pricing.PriceDate
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func nameOf(r model.Resource) string {
	if r.Name != "" {
		return r.Name
	}
	return r.ResourceID
}

func resourceTypeOr(r model.Resource, def string) string {
	if r.ResourceType != "" {
		return r.ResourceType
	}
	return def
}
