// Package analysis turns exact per-currency sums from the history into
// the cost analysis of GET /api/costs, converting mixed currencies to
// the base currency and never adding different currencies silently.
package analysis

import (
	"sort"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// MaxResources caps the resources listed per provider; the rest are
// counted in the service breakdown and totals all the same.
const MaxResources = 500

// Converter turns an amount in a currency into the report currency.
type Converter struct {
	Target string             // currency of the result
	Rates  map[string]float64 // units of Target per unit of the key currency
	used   map[string]float64
}

// NewConverter picks the report currency: the only currency present, or
// base when there are several; each other currency needs a rate.
func NewConverter(present []string, base string, rates map[string]float64) (*Converter, error) {
	c := &Converter{Target: base, Rates: rates, used: map[string]float64{}}
	if len(present) == 1 {
		c.Target = present[0]
		return c, nil
	}
	var missing []string
	for _, cur := range present {
		if cur == base {
			continue
		}
		if r, ok := rates[cur]; !ok || r <= 0 {
			missing = append(missing, cur)
		}
	}
	if len(missing) > 0 {
		return nil, apperr.E(apperr.Configuration,
			"the costs are in %s; to add them up in %s (currency.base), currency.rates needs a rate for %s, e.g. currency.rates.%s: 1.0 (%s per %s)",
			strings.Join(present, ", "), base, strings.Join(missing, ", "), missing[0], base, missing[0]).
			WithDetail("missing_rates", missing).WithDetail("field", "currency.rates")
	}
	return c, nil
}

// Convert returns n (in currency cur) in the target currency.
func (c *Converter) Convert(n model.Nanos, cur string) float64 {
	if cur == c.Target || cur == "" {
		return n.Float64()
	}
	r := c.Rates[cur]
	c.used[cur] = r
	return n.Float64() * r
}

// Used returns the rates applied so far (nil when none were needed).
func (c *Converter) Used() map[string]float64 {
	if len(c.used) == 0 {
		return nil
	}
	return c.used
}

// Sums are the store's aggregates for one analysis.
type Sums struct {
	Services  []store.ServiceSum
	Days      []store.DaySum
	Resources []store.ResourceSum
	// ResourceCounts is how many resources each provider has when
	// Resources holds only the top ones; nil: Resources holds all.
	ResourceCounts map[model.ProviderKey]int
}

// Build assembles the analysis for the providers in keys.
func Build(keys []model.ProviderKey, sources map[model.ProviderKey]model.SourceKind, p model.Period,
	metric model.CostMetric, sums Sums, conv *Converter) model.CostAnalysis {
	a := model.CostAnalysis{
		Summary: model.CostSummary{
			ProvidersAnalyzed: append([]model.ProviderKey{}, keys...),
			AnalysisPeriod: model.AnalysisPeriod{
				StartDate: p.Start.UTC().Format(model.TimestampLayout),
				EndDate:   p.End.UTC().Format(model.TimestampLayout),
			},
			Currency: conv.Target,
			Metric:   metric,
		},
		Providers: map[model.ProviderKey]model.ProviderCosts{},
	}
	for _, k := range keys {
		a.Providers[k] = model.ProviderCosts{ServiceBreakdown: map[string]float64{}, Resources: []model.ResourceCost{},
			DailyCosts: []model.DailyPoint{}, Source: sources[k]}
	}
	// Totals come from the service sums: every line has a service (an
	// empty one is named), so they cover the whole history in scope.
	exact := map[model.ProviderKey]map[string]model.Nanos{}
	for _, v := range sums.Services {
		pc, ok := a.Providers[v.Provider]
		if !ok {
			continue
		}
		name := v.Service
		if name == "" {
			name = "(unspecified)"
		}
		pc.ServiceBreakdown[name] += conv.Convert(v.Amount, v.Currency)
		if exact[v.Provider] == nil {
			exact[v.Provider] = map[string]model.Nanos{}
		}
		exact[v.Provider][v.Currency] += v.Amount
	}
	days := map[model.ProviderKey]map[string]float64{}
	for _, v := range sums.Days {
		if days[v.Provider] == nil {
			days[v.Provider] = map[string]float64{}
		}
		days[v.Provider][v.Day] += conv.Convert(v.Amount, v.Currency)
	}
	var total float64
	for _, k := range keys {
		pc := a.Providers[k]
		for cur, n := range exact[k] {
			pc.TotalCost += conv.Convert(n, cur)
		}
		for _, d := range sortedKeys(days[k]) {
			pc.DailyCosts = append(pc.DailyCosts, model.DailyPoint{Date: d, Cost: days[k][d]})
		}
		total += pc.TotalCost
		a.Providers[k] = pc
	}
	a.Summary.TotalCost = total
	res := map[model.ProviderKey][]model.ResourceCost{}
	for _, r := range Resources(keys, sums.Resources, conv) {
		res[r.Provider] = append(res[r.Provider], r.ResourceCost)
	}
	for k, list := range res {
		pc := a.Providers[k]
		pc.ResourceCount = len(list)
		if n, ok := sums.ResourceCounts[k]; ok {
			pc.ResourceCount = n
		}
		if len(list) > MaxResources {
			list = list[:MaxResources]
		}
		pc.Resources = list
		a.Providers[k] = pc
	}
	a.Summary.RatesUsed = conv.Used()
	return a
}

// Resources converts the resource sums of the providers in keys and
// sorts them most expensive first (then by provider and id, so pages of
// the list never overlap).
func Resources(keys []model.ProviderKey, sums []store.ResourceSum, conv *Converter) []model.ResourceRow {
	in := map[model.ProviderKey]bool{}
	for _, k := range keys {
		in[k] = true
	}
	out := make([]model.ResourceRow, 0, len(sums))
	for _, v := range sums {
		if !in[v.Provider] {
			continue
		}
		out = append(out, model.ResourceRow{Provider: v.Provider, ResourceCost: model.ResourceCost{
			ResourceID: v.ResourceID, ResourceType: v.ResourceType, Service: v.Service, Region: v.Region,
			Cost: conv.Convert(v.Amount, v.Currency), Tags: v.Tags,
		}})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cost != out[j].Cost {
			return out[i].Cost > out[j].Cost
		}
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		return out[i].ResourceID < out[j].ResourceID
	})
	return out
}

func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
