// Package commitments computes coverage, utilization, unused cost,
// effective savings rate and expiring terms of commitment discounts from
// their daily facts. The formulas are those of docs/commitments.md; each
// is written once, here.
package commitments

import (
	"slices"
	"sort"

	"github.com/costpilot/costpilot/backend/model"
)

// Total is one commitment's facts summed over a period (or, with an empty
// ID, a provider's eligible usage that no commitment covered).
type Total struct {
	Provider model.ProviderKey
	Source   model.SourceKind
	model.CommitmentFact
	Days int // days with facts
}

// Convert turns an amount of a currency into the report currency.
type Convert func(n model.Nanos, currency string) float64

// Horizons of the expiring list, in days from today.
const (
	ExpiringSoon = 30
	ExpiringMax  = 90
)

// Providers say how each provider in the report gets its commitments;
// Unreported lists the ones whose source cannot give them (a live API
// connector that does not read them): their rows say "not reported".
// CoverageUnknown lists the ones whose source gives no on-demand price:
// their coverage and savings are unknown.
type Providers struct {
	Sources         map[model.ProviderKey]model.SourceKind
	Unreported      map[model.ProviderKey]string // provider -> why
	CoverageUnknown map[model.ProviderKey]string // provider -> why
}

// group sums one provider's commitments of one type (type "" for all).
type group struct {
	coveredList, coveredCost, used, unused float64
	units, unusedUnits                     float64
	hoursBasis                             bool // every commitment gives reserved units
	ids, unknownEnd                        map[string]bool
}

func newGroup() *group {
	return &group{hoursBasis: true, ids: map[string]bool{}, unknownEnd: map[string]bool{}}
}

func (g *group) add(t Total, conv Convert) {
	g.coveredList += conv(t.CoveredList, t.Currency)
	g.coveredCost += conv(t.CoveredCost, t.Currency)
	g.used += conv(t.Used, t.Currency)
	g.unused += conv(t.Unused, t.Currency)
	if t.Used != 0 || t.Unused != 0 {
		// Units are quantities, never converted.
		if t.Units > 0 && t.Category == "Usage" {
			g.units += t.Units.Float64()
			g.unusedUnits += t.UnusedUnits.Float64()
		} else {
			g.hoursBasis = false
		}
	}
	g.ids[t.ID] = true
	if t.End == 0 {
		g.unknownEnd[t.ID] = true
	}
}

// Report builds the commitment report of a period: per provider, a row per
// commitment type and a total row (type ""); and the commitments whose term
// ends within ExpiringMax days of today.
func Report(totals []Total, ps Providers, conv Convert, currency string, period model.Period, today model.DayNum) model.CommitmentReport {
	rep := model.CommitmentReport{Currency: currency, Providers: []model.CommitmentSummary{}, Expiring: []model.ExpiringCommitment{},
		Period: model.AnalysisPeriod{StartDate: period.FirstDay(), EndDate: period.LastDay()}}
	byProvider := map[model.ProviderKey][]Total{}
	for _, t := range totals {
		byProvider[t.Provider] = append(byProvider[t.Provider], t)
	}
	for _, p := range model.AllProviders {
		src, ok := ps.Sources[p]
		if !ok {
			continue
		}
		if why, ok := ps.Unreported[p]; ok && len(byProvider[p]) == 0 {
			rep.Providers = append(rep.Providers, model.CommitmentSummary{Provider: p, Source: src, Reported: false, Note: why})
			continue
		}
		rep.Providers = append(rep.Providers, summarize(p, src, byProvider[p], conv, ps.CoverageUnknown[p])...)
		for _, t := range byProvider[p] {
			if e, ok := expiring(t, conv, today); ok {
				rep.Expiring = append(rep.Expiring, e)
			}
		}
	}
	sort.SliceStable(rep.Expiring, func(i, j int) bool { return rep.Expiring[i].DaysLeft < rep.Expiring[j].DaysLeft })
	return rep
}

// Usage is a provider's eligible usage over a period at list prices:
// all of it, covered or not, and the part commitments covered.
type Usage struct {
	Eligible, Covered float64
}

// EligibleUsage sums one provider's eligible usage from its totals: what
// commitments covered plus the eligible usage paid on demand. The
// Commitments view and the commitment recommendation both read it, so
// they give one figure for the same days.
func EligibleUsage(ts []Total, conv Convert) Usage {
	var onDemand, covered float64
	for _, t := range ts {
		if t.ID == "" {
			onDemand += conv(t.OnDemand, t.Currency)
		} else {
			covered += conv(t.CoveredList, t.Currency)
		}
	}
	return Usage{Eligible: covered + onDemand, Covered: covered}
}

// summarize is one provider's rows: a total and one per type. With a
// reason the source gives no on-demand price (noPrice), every measure
// built on one is unknown.
func summarize(p model.ProviderKey, src model.SourceKind, ts []Total, conv Convert, noPrice string) []model.CommitmentSummary {
	all := newGroup()
	byType := map[string]*group{}
	for _, t := range ts {
		if t.ID == "" {
			continue
		}
		g := byType[t.Type]
		if g == nil {
			g = newGroup()
			byType[t.Type] = g
		}
		g.add(t, conv)
		all.add(t, conv)
	}
	// Eligible usage: what commitments covered plus the eligible usage
	// paid on demand, both at on-demand (list) prices.
	eligible := EligibleUsage(ts, conv).Eligible
	row := func(typ string, g *group) model.CommitmentSummary {
		s := model.CommitmentSummary{Provider: p, Source: src, Type: typ, Reported: true,
			EligibleOnDemand: round(eligible), CoveredOnDemand: round(g.coveredList),
			PurchasedCost: round(g.used + g.unused), UsedCost: round(g.used), UnusedCost: round(g.unused),
			Commitments: len(g.ids), ExpiryUnknown: len(g.unknownEnd)}
		s.Coverage = ratio(g.coveredList, eligible)
		if g.hoursBasis && g.units > 0 {
			s.Utilization, s.UtilizationBasis = ratio(g.units-g.unusedUnits, g.units), "hours"
		} else if s.Utilization = ratio(g.used, g.used+g.unused); s.Utilization != nil {
			s.UtilizationBasis = "cost"
		}
		savings := g.coveredList - g.coveredCost - g.unused
		s.NetSavings = round(savings)
		s.EffectiveSavingsRate = ratio(savings, eligible)
		if noPrice != "" {
			s.CoverageUnknown = true
			s.EligibleOnDemand, s.CoveredOnDemand, s.NetSavings = 0, 0, 0
			s.Coverage, s.EffectiveSavingsRate = nil, nil
		}
		return s
	}
	out := []model.CommitmentSummary{row("", all)}
	switch {
	case noPrice != "":
		out[0].Note = "coverage and savings unknown: " + noPrice
	case len(ts) == 0:
		out[0].Note = "no commitments and no eligible usage in the stored history of this period"
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	slices.Sort(types)
	for _, t := range types {
		out = append(out, row(t, byType[t]))
	}
	return out
}

// expiring reports a commitment whose known end of term is within
// ExpiringMax days from today (not past).
func expiring(t Total, conv Convert, today model.DayNum) (model.ExpiringCommitment, bool) {
	if t.ID == "" || t.End == 0 || t.End < today || t.End > today+ExpiringMax {
		return model.ExpiringCommitment{}, false
	}
	left := int(t.End - today)
	daily := 0.0
	if t.Days > 0 {
		daily = (conv(t.Used, t.Currency) + conv(t.Unused, t.Currency)) / float64(t.Days)
	}
	return model.ExpiringCommitment{Provider: t.Provider, ID: t.ID, Type: t.Type, End: t.End.String(),
		DaysLeft: left, ExpiringWithin30: left <= ExpiringSoon, DailyCommitment: round(daily)}, true
}

// ratio is num/den, nil when den is zero.
func ratio(num, den float64) *float64 {
	if den == 0 {
		return nil
	}
	r := num / den
	return &r
}

// round keeps amounts to the nano-unit the history stores.
func round(v float64) float64 {
	return model.NanosFromFloat(v).Float64()
}
