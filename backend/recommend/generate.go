package recommend

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Generate is generate_recommendations: every kind for every provider in
// the input, deduplicated (one recommendation per resource, the one that
// saves most) and sorted by savings, largest first.
func Generate(in Input, opt Options) []model.Recommendation {
	var out []model.Recommendation
	for _, p := range providersOf(in) {
		out = append(out, AnalyzeProvider(p, in, opt)...)
	}
	return finish(out)
}

// AnalyzeProvider is analyze_provider for one provider: rightsizing and
// idle resources, autoscaling for fleets with a daily or weekly pattern,
// cost allocation, and a commitment for the steady compute baseline left
// after the others.
func AnalyzeProvider(p model.ProviderKey, in Input, opt Options) []model.Recommendation {
	opt = opt.normalized()
	var resources []model.Resource
	var util []model.UtilizationSample
	for _, inv := range in.Inventory {
		for _, r := range inv.Resources {
			if r.Provider == "" {
				r.Provider = inv.Provider
			}
			if r.Provider == p {
				resources = append(resources, r)
			}
		}
		if inv.Provider == p || inv.Provider == "" {
			util = append(util, inv.Utilization...)
		}
	}
	var costs []model.CostLine
	for _, l := range in.Costs {
		if l.Provider == p {
			costs = append(costs, l)
		}
	}
	byID := samplesByResource(util)
	recs := AnalyzeResources(resources, util, opt)
	fl := fleets(resources, byID, opt)
	for _, key := range slices.Sorted(maps.Keys(fl)) {
		if r, ok := autoscale(fl[key], opt); ok {
			recs = append(recs, r)
		}
	}
	var other float64
	for _, r := range recs {
		other += r.PotentialSavings
	}
	daily := in.ComputeDaily[p]
	if in.ComputeDaily == nil {
		daily = ComputeDaily(costs)[p]
	}
	end, why := opt.Now, ""
	if bs, has := in.Basis[p]; has {
		if t, err := time.Parse(model.DateLayout, bs.To); err == nil {
			end, why = t, bs.Reason
		}
	}
	var b baseline
	var ok bool
	if cov, has := in.Coverage[p]; has {
		// The Commitments view reads these facts: with them the purchase
		// is sized on the view's eligible usage or not at all, never on
		// another figure that could disagree with it.
		b, ok = coverageBaseline(p, cov, end)
	} else {
		if b, ok = costBaseline(daily, end); !ok {
			b, ok = inventoryBaseline(resources, byID, opt)
		}
	}
	if ok {
		if r, ok := commit(p, b, other, why); ok {
			recs = append(recs, r)
		}
	}
	recs = append(recs, AllocationRecommendations(costs)...)
	return finish(recs)
}

// AnalyzeResources is analyze_resources: rightsizing and idle findings for
// machines (from at least MinDays of hourly utilization), unattached
// volumes, unused public IPs and old snapshots. Members of a fleet with a
// strong daily or weekly pattern are left to the autoscaling analysis.
func AnalyzeResources(resources []model.Resource, util []model.UtilizationSample, opt Options) []model.Recommendation {
	opt = opt.normalized()
	byID := samplesByResource(util)
	inFleet := map[string]bool{}
	for _, f := range fleets(resources, byID, opt) {
		if f.pattern.strong() {
			for _, m := range f.members {
				inFleet[string(m.Provider)+"\x00"+m.ResourceID] = true
			}
		}
	}
	var out []model.Recommendation
	for _, r := range resources {
		if isKind(r, volumeTypes) || isKind(r, addressTypes) || isKind(r, snapshotTypes) {
			if rec, ok := idleStorage(r, opt); ok {
				out = append(out, rec)
			}
			continue
		}
		if r.InstanceType == "" || !running(r) || inFleet[string(r.Provider)+"\x00"+r.ResourceID] {
			continue
		}
		cp, ok := priceOf(r)
		if !ok {
			continue
		}
		u := summarize(window(byID[r.ResourceID], opt.Now))
		if !u.enough() {
			continue
		}
		if rec, ok := idleInstance(r, u, cp); ok {
			out = append(out, rec)
			continue
		}
		if rec, ok := rightsize(r, u, cp, opt); ok {
			out = append(out, rec)
		}
	}
	return finish(out)
}

// samplesByResource indexes samples by resource ID.
func samplesByResource(util []model.UtilizationSample) map[string][]model.UtilizationSample {
	out := map[string][]model.UtilizationSample{}
	for _, s := range util {
		out[s.ResourceID] = append(out[s.ResourceID], s)
	}
	return out
}

// providersOf lists the providers present in the input, known ones in
// canonical order first.
func providersOf(in Input) []model.ProviderKey {
	seen := map[model.ProviderKey]bool{}
	for _, inv := range in.Inventory {
		seen[inv.Provider] = true
		for _, r := range inv.Resources {
			seen[r.Provider] = true
		}
	}
	for _, l := range in.Costs {
		seen[l.Provider] = true
	}
	delete(seen, "")
	var out []model.ProviderKey
	for _, p := range model.AllProviders {
		if seen[p] {
			out = append(out, p)
			delete(seen, p)
		}
	}
	return append(out, slices.Sorted(maps.Keys(seen))...)
}

// perResource are the kinds that act on one resource: at most one of them
// is kept per resource.
var perResource = map[model.RecommendationType]bool{
	model.RecRightsizing: true, model.RecIdle: true, model.RecAutoscaling: true,
}

// finish assigns IDs (and costpilot as the source of those with none), keeps the best recommendation per resource (most
// savings, then most confidence) and sorts by savings, largest first.
func finish(recs []model.Recommendation) []model.Recommendation {
	type key struct {
		class    model.RecommendationType
		provider model.ProviderKey
		resource string
	}
	best := map[key]int{}
	var out []model.Recommendation
	for _, r := range recs {
		r.ID = recommendationID(r.Type, r.Provider, r.ResourceID)
		if r.Source == "" {
			r.Source = model.RecSourceCostpilot
		}
		k := key{r.Type, r.Provider, r.ResourceID}
		if perResource[r.Type] && r.ResourceID != "" {
			k.class = "resource"
		}
		i, dup := best[k]
		if !dup {
			best[k] = len(out)
			out = append(out, r)
			continue
		}
		if cur := out[i]; r.PotentialSavings > cur.PotentialSavings ||
			(r.PotentialSavings == cur.PotentialSavings && r.Confidence > cur.Confidence) {
			out[i] = r
		}
	}
	Sort(out)
	return out
}

// Sort orders recommendations by dollars: savings, largest first; among
// equal savings (tagging saves nothing) by the spend at stake, then by
// priority and id, so the order is the same on every run.
func Sort(recs []model.Recommendation) {
	slices.SortStableFunc(recs, func(a, b model.Recommendation) int {
		return cmp.Or(cmp.Compare(b.PotentialSavings, a.PotentialSavings), cmp.Compare(stake(b), stake(a)),
			cmp.Compare(priorityRank(a.Priority), priorityRank(b.Priority)), cmp.Compare(a.ID, b.ID))
	})
}

// stake is the spend a recommendation concerns beyond its savings: the
// untagged spend of a tag coverage item, else 0.
func stake(r model.Recommendation) float64 {
	v, _ := r.Details["untagged_cost"].(float64)
	return v
}

func priorityRank(p model.Priority) int {
	switch p {
	case model.PriorityHigh:
		return 0
	case model.PriorityMedium:
		return 1
	}
	return 2
}
