package recommend

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// DetailAlsoReportedBy is the details key that names the other
// recommenders (model.RecSource values) that found the same thing.
const DetailAlsoReportedBy = "also_reported_by"

// externalConfidence is the confidence of a cloud recommender's finding
// that says none: the cloud sees metrics costpilot may not (memory,
// requests), but its price is a list price scaled to the account's rates.
const externalConfidence = 0.7

// Rates are the accounts' effective rates: the effective cost they paid
// over the window divided by the same usage at list (on-demand) prices.
// The clouds' recommenders quote list-price savings; multiplying by the
// rate gives what the account would save at its own prices (negotiated
// discounts, commitments, credits folded into effective cost).
type Rates struct {
	// Account holds each provider's rates by account, lower-case: both
	// sub accounts (AWS linked accounts, Azure subscriptions, Google
	// Cloud projects, OCI compartments) and billing accounts.
	Account map[model.ProviderKey]map[string]float64
	// Provider is each provider's rate over all its accounts, for an
	// account the window has no usage of.
	Provider map[model.ProviderKey]float64
}

// EffectiveRates computes the rates from cost lines of one window (daily
// or summed). Only lines with a list cost count: a line with none (a tax,
// a credit, a purchase) has no list price to compare with. A rate is at
// most 1: an effective cost above list means the list price is missing
// or wrong, not that the account pays a premium. A sub account's rate
// wins over its billing account's when both have one.
func EffectiveRates(costs []model.CostLine) Rates {
	type sum struct{ eff, list float64 }
	sub := map[model.ProviderKey]map[string]*sum{}
	bill := map[model.ProviderKey]map[string]*sum{}
	all := map[model.ProviderKey]*sum{}
	add := func(m map[model.ProviderKey]map[string]*sum, p model.ProviderKey, account string, eff, list float64) {
		if account == "" {
			return
		}
		if m[p] == nil {
			m[p] = map[string]*sum{}
		}
		k := strings.ToLower(account)
		if m[p][k] == nil {
			m[p][k] = &sum{}
		}
		m[p][k].eff += eff
		m[p][k].list += list
	}
	for _, l := range costs {
		if l.List <= 0 {
			continue
		}
		eff, list := l.Effective.Float64(), l.List.Float64()
		add(sub, l.Provider, l.SubAccount, eff, list)
		add(bill, l.Provider, l.BillingAccount, eff, list)
		if all[l.Provider] == nil {
			all[l.Provider] = &sum{}
		}
		all[l.Provider].eff += eff
		all[l.Provider].list += list
	}
	ratio := func(s *sum) float64 { return min(1, max(0, s.eff/s.list)) }
	out := Rates{Account: map[model.ProviderKey]map[string]float64{}, Provider: map[model.ProviderKey]float64{}}
	for p, s := range all {
		out.Provider[p] = ratio(s)
		out.Account[p] = map[string]float64{}
		for a, s := range bill[p] {
			out.Account[p][a] = ratio(s)
		}
		for a, s := range sub[p] {
			out.Account[p][a] = ratio(s)
		}
	}
	return out
}

// rate is the rate of an account, else of its provider; ok is false when
// the history has neither (the list price then stands).
func (r Rates) rate(p model.ProviderKey, account string) (rate float64, basis string, ok bool) {
	if v, has := r.Account[p][strings.ToLower(account)]; has && account != "" {
		return v, "account", true
	}
	if v, has := r.Provider[p]; has {
		return v, "provider", true
	}
	return 1, "", false
}

// Convert turns an amount of a currency into the report currency; ok is
// false when there is no rate for it.
type Convert func(amount float64, currency string) (converted float64, ok bool)

// MergeExternal adds the clouds' own recommendations to costpilot's:
//
//   - each is priced at its account's effective rate (Rates) over the
//     window, unless its recommender already used the account's rates,
//     and converted to the report currency;
//   - one that costpilot also reports (same provider, same resource after
//     NormalizeResourceID, same kind, where rightsizing, idle and
//     autoscaling of one resource count as one kind, and a commitment
//     purchase is one per provider) is dropped, and costpilot's notes its
//     source in details.also_reported_by: costpilot's is priced from the
//     account's own bill and utilization and keeps its lifecycle;
//   - of two cloud findings for the same thing, the one that saves more
//     is kept, the other's source noted.
//
// It returns the merged list, sorted like Generate's, and a warning for
// each finding dropped for want of a currency rate.
func MergeExternal(own []model.Recommendation, ext []model.ExternalRecommendation, rates Rates, convert Convert) ([]model.Recommendation, []string) {
	type key struct {
		provider model.ProviderKey
		class    string
		resource string
	}
	keyOf := func(r model.Recommendation) key {
		switch {
		case r.Type == model.RecCommitment:
			return key{r.Provider, string(r.Type), ""}
		case perResource[r.Type] && r.ResourceID != "":
			return key{r.Provider, "resource", NormalizeResourceID(r.Provider, r.ResourceID)}
		}
		return key{r.Provider, string(r.Type), NormalizeResourceID(r.Provider, r.ResourceID)}
	}
	out := make([]model.Recommendation, 0, len(own)+len(ext))
	at := map[key]int{}
	for _, r := range own {
		if r.Source == "" {
			r.Source = model.RecSourceCostpilot
		}
		k := keyOf(r)
		if _, dup := at[k]; !dup {
			at[k] = len(out)
		}
		out = append(out, r)
	}
	ext = slices.Clone(ext)
	slices.SortStableFunc(ext, func(a, b model.ExternalRecommendation) int {
		return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(b.PotentialSavings, a.PotentialSavings),
			cmp.Compare(a.ResourceID, b.ResourceID), cmp.Compare(a.ExternalID, b.ExternalID))
	})
	var warnings []string
	for _, e := range ext {
		r, ok := priceExternal(e, rates, convert)
		if !ok {
			warnings = append(warnings, fmt.Sprintf("%s: a %s recommendation for %s is in %s, which has no rate to the report currency (currency.rates)",
				e.Source, e.Type, e.ResourceID, e.Currency))
			continue
		}
		k := keyOf(r)
		i, dup := at[k]
		if !dup {
			at[k] = len(out)
			out = append(out, r)
			continue
		}
		cur := out[i]
		if cur.Source != model.RecSourceCostpilot && r.PotentialSavings > cur.PotentialSavings {
			r.Details = alsoReportedBy(r.Details, slices.Concat(reportedBy(cur.Details), []model.RecSource{cur.Source})...)
			out[i] = r
			continue
		}
		out[i].Details = alsoReportedBy(cur.Details, r.Source)
	}
	for i := range out {
		if srcs := reportedBy(out[i].Details); len(srcs) > 0 {
			out[i].Details[DetailAlsoReportedBy] = slices.DeleteFunc(srcs, func(s model.RecSource) bool { return s == out[i].Source })
		}
	}
	return finish(out), warnings
}

// priceExternal turns a cloud finding into a recommendation at the
// account's rates in the report currency.
func priceExternal(e model.ExternalRecommendation, rates Rates, convert Convert) (model.Recommendation, bool) {
	r := e.Recommendation
	quoted := r.PotentialSavings
	amount, ok := convert(quoted, e.Currency)
	if !ok {
		return r, false
	}
	details := map[string]any{}
	maps.Copy(details, r.Details)
	details["quoted_savings"] = money(quoted)
	details["quoted_currency"] = e.Currency
	if e.Account != "" {
		details["account"] = e.Account
	}
	if e.ExternalID != "" {
		details["external_id"] = e.ExternalID
	}
	scale := 1.0
	switch rate, basis, has := rates.rate(r.Provider, e.Account); {
	case e.AtEffectiveRates:
		details["rate_basis"] = "quoted at the account's rates"
	case has:
		scale = rate
		details["effective_rate"] = rate
		details["rate_basis"] = basis + " effective/list cost over the window"
	default:
		details["rate_basis"] = "list prices (no history to compare)"
	}
	r.PotentialSavings = money(amount * scale)
	if c := r.CurrentConfig; c != nil {
		cc, _ := convert(c.Cost, e.Currency)
		r.CurrentConfig = &model.InstanceConfig{InstanceType: c.InstanceType, Cost: money(cc * scale)}
	}
	if c := r.RecommendedConfig; c != nil {
		rc, _ := convert(c.Cost, e.Currency)
		r.RecommendedConfig = &model.InstanceConfig{InstanceType: c.InstanceType, Cost: money(rc * scale)}
	}
	r.Details = details
	r.Priority = priority(r.PotentialSavings, riskOf[r.Type])
	if r.Confidence <= 0 || r.Confidence > 1 {
		r.Confidence = externalConfidence
	}
	if r.ImplementationEffort == "" {
		r.ImplementationEffort = model.EffortMedium
	}
	return r, true
}

// riskOf weighs a kind's priority as costpilot's own findings of that kind.
var riskOf = map[model.RecommendationType]risk{
	model.RecRightsizing: riskMedium, model.RecIdle: riskMedium, model.RecAutoscaling: riskMedium,
	model.RecCostAllocation: riskLow, model.RecCommitment: riskHigh, model.RecAIModel: riskHigh,
}

// reportedBy reads details.also_reported_by.
func reportedBy(d map[string]any) []model.RecSource {
	v, _ := d[DetailAlsoReportedBy].([]model.RecSource)
	return v
}

// alsoReportedBy returns a copy of d whose also_reported_by has srcs.
func alsoReportedBy(d map[string]any, srcs ...model.RecSource) map[string]any {
	out := make(map[string]any, len(d)+1)
	maps.Copy(out, d)
	have := slices.Clone(reportedBy(d))
	for _, s := range srcs {
		if !slices.Contains(have, s) {
			have = append(have, s)
		}
	}
	slices.Sort(have)
	out[DetailAlsoReportedBy] = have
	return out
}

// googleResourcePrefixes are the prefixes of Google Cloud's full resource
// names and self links, which costpilot's inventory leaves out.
var googleResourcePrefixes = []string{"//compute.googleapis.com/", "https://www.googleapis.com/compute/v1/", "https://compute.googleapis.com/compute/v1/"}

// NormalizeResourceID is the form of a resource id in which the clouds'
// recommenders and costpilot's inventory agree: a bare AWS id for an ARN
// (arn:aws:ec2:…:instance/i-1 is i-1), a lower-case Azure resource id,
// a Google Cloud resource name without its service prefix, an OCI OCID as
// it is.
func NormalizeResourceID(p model.ProviderKey, id string) string {
	id = strings.TrimSpace(id)
	switch p {
	case model.AWS:
		if strings.HasPrefix(id, "arn:") {
			id = id[strings.LastIndexAny(id, "/:")+1:]
		}
	case model.Azure:
		id = strings.TrimRight(strings.ToLower(id), "/")
	case model.GCP:
		for _, pre := range googleResourcePrefixes {
			id = strings.TrimPrefix(id, pre)
		}
	}
	return id
}

// MergeBill adds the billing-only findings (package billcheck) to the
// others: an idle finding for a resource that already has a rightsizing,
// idle or autoscaling recommendation (from utilization or a cloud's
// recommender) is dropped, the one already there noting the bill among
// its sources; every other finding is kept with its own id, and the list
// is ordered by dollars (Sort).
func MergeBill(recs, bill []model.Recommendation) []model.Recommendation {
	type key struct {
		provider model.ProviderKey
		resource string
	}
	at := map[key]int{}
	for i, r := range recs {
		if perResource[r.Type] && r.ResourceID != "" {
			at[key{r.Provider, NormalizeResourceID(r.Provider, r.ResourceID)}] = i
		}
	}
	out := slices.Clone(recs)
	for _, b := range bill {
		if b.Source == "" {
			b.Source = model.RecSourceCostpilot
		}
		if perResource[b.Type] {
			if i, dup := at[key{b.Provider, NormalizeResourceID(b.Provider, b.ResourceID)}]; dup {
				if out[i].Details == nil {
					out[i].Details = map[string]any{}
				}
				out[i].Details["also_found_in_bill"] = b.Details["check"]
				continue
			}
		}
		out = append(out, b)
	}
	Sort(out)
	return out
}
