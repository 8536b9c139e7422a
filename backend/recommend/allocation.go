package recommend

import (
	"cmp"
	"fmt"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/costpilot/costpilot/backend/model"
)

// OwnerTagKeys are the tags that make spend allocatable (compared without
// case).
var OwnerTagKeys = []string{"team", "owner", "project", "department"}

// maxSuggestions bounds the suggestions listed per account.
const maxSuggestions = 20

// maxCoverageRows bounds the accounts and worklist rows of a coverage
// answer (the largest first; the answer counts them all).
const maxCoverageRows = 200

// accountDominance is the share of an account's tagged spend one owner
// value needs before untagged neighbours in the account inherit it.
const accountDominance = 0.8

// TagSuggestion is a proposed set of owner tags for one untagged resource.
type TagSuggestion = model.TagSuggestion

// ownerTags returns the owner tags of a tag set, keys lower-cased.
func ownerTags(tags map[string]string) map[string]string {
	var out map[string]string
	for k, v := range tags {
		lk := strings.ToLower(strings.TrimSpace(k))
		if strings.TrimSpace(v) == "" || !slices.Contains(OwnerTagKeys, lk) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[lk] = v
	}
	return out
}

// accountOf is the account a line is allocated in: the sub-account
// (AWS linked account, Azure subscription, GCP project, OCI compartment)
// when there is one.
func accountOf(l model.CostLine) string {
	if l.SubAccount != "" {
		return l.SubAccount
	}
	return l.BillingAccount
}

type accountKey struct {
	provider model.ProviderKey
	account  string
}

// accountSpend accumulates one account's allocation picture.
type accountSpend struct {
	total, untagged float64
	untaggedByRes   map[string]float64           // resource -> untagged cost ("" for lines without resource)
	taggedByRes     map[string]map[string]string // resource -> owner tags
	taggedValueCost map[string]map[string]float64
	taggedCost      float64
	firstDay        string
	lastDay         string
}

// spendMap is the usage spend of a set of lines by account, with the owner
// values known per provider (lower-cased value -> the keys it is used
// under), which name and neighbour suggestions draw on.
type spendMap struct {
	accounts map[accountKey]*accountSpend
	known    map[model.ProviderKey]map[string]map[string]bool
	currency string
}

// spendOf accumulates the usage lines of costs in metric m.
func spendOf(costs []model.CostLine, m model.CostMetric) spendMap {
	sm := spendMap{accounts: map[accountKey]*accountSpend{}, known: map[model.ProviderKey]map[string]map[string]bool{}}
	for i := range costs {
		l := &costs[i]
		if !isUsage(*l) {
			continue
		}
		if sm.currency == "" {
			sm.currency = l.Currency
		}
		k := accountKey{l.Provider, accountOf(*l)}
		a := sm.accounts[k]
		if a == nil {
			a = &accountSpend{untaggedByRes: map[string]float64{}, taggedByRes: map[string]map[string]string{},
				taggedValueCost: map[string]map[string]float64{}}
			sm.accounts[k] = a
		}
		cost := l.Amount(m).Float64()
		a.total += cost
		first := l.Day
		if l.FirstDay != "" { // a line summed over days
			first = l.FirstDay
		}
		if a.firstDay == "" || first < a.firstDay {
			a.firstDay = first
		}
		a.lastDay = max(a.lastDay, l.Day)
		owners := ownerTags(l.Tags)
		if owners == nil {
			a.untagged += cost
			a.untaggedByRes[l.ResourceID] += cost
			continue
		}
		a.taggedCost += cost
		if l.ResourceID != "" {
			a.taggedByRes[l.ResourceID] = owners
		}
		if sm.known[l.Provider] == nil {
			sm.known[l.Provider] = map[string]map[string]bool{}
		}
		for key, v := range owners {
			if a.taggedValueCost[key] == nil {
				a.taggedValueCost[key] = map[string]float64{}
			}
			a.taggedValueCost[key][v] += cost
			lv := strings.ToLower(v)
			if sm.known[l.Provider][lv] == nil {
				sm.known[l.Provider][lv] = map[string]bool{}
			}
			sm.known[l.Provider][lv][key] = true
		}
	}
	return sm
}

// sortedKeys lists the accounts in provider, then account order.
func (sm spendMap) sortedKeys() []accountKey {
	keys := slices.Collect(maps.Keys(sm.accounts))
	slices.SortFunc(keys, func(a, b accountKey) int {
		return cmp.Or(cmp.Compare(a.provider, b.provider), cmp.Compare(a.account, b.account))
	})
	return keys
}

// cell splits a total into allocatable and unallocated.
func cell(total, unallocated float64) model.CoverageCell {
	c := model.CoverageCell{Total: money(total), Unallocated: money(unallocated), Allocatable: money(total - unallocated)}
	if total > 0 {
		c.AllocatableShare = round4((total - unallocated) / total)
	}
	return c
}

// TagCoverage measures how much of the usage spend of costs (in metric m)
// carries an owner tag, per provider, account and owner, with the tagging
// worklist: per account, the tags suggested for its untagged resources.
// Months are the caller's (a coverage per month); From, To and Currency
// too.
func TagCoverage(costs []model.CostLine, m model.CostMetric) model.TagCoverage {
	sm := spendOf(costs, m)
	out := model.TagCoverage{OwnerKeys: OwnerTagKeys, Currency: sm.currency, Providers: []model.CoverageRow{},
		Accounts: []model.CoverageRow{}, Owners: []model.OwnerCost{}, Months: []model.CoverageMonth{}, Worklist: []model.TagWork{}}
	var total, untagged float64
	byProvider := map[model.ProviderKey]*model.CoverageRow{}
	provTotals := map[model.ProviderKey][2]float64{}
	owners := map[[2]string]float64{}
	for _, k := range sm.sortedKeys() {
		a := sm.accounts[k]
		total += a.total
		untagged += a.untagged
		res := untaggedResources(a)
		row := model.CoverageRow{Provider: k.provider, Account: k.account, CoverageCell: cell(a.total, a.untagged), UntaggedResources: res}
		out.Accounts = append(out.Accounts, row)
		pt := provTotals[k.provider]
		provTotals[k.provider] = [2]float64{pt[0] + a.total, pt[1] + a.untagged}
		if byProvider[k.provider] == nil {
			byProvider[k.provider] = &model.CoverageRow{Provider: k.provider}
		}
		byProvider[k.provider].UntaggedResources += res
		for key, values := range a.taggedValueCost {
			for v, c := range values {
				owners[[2]string{key, v}] += c
			}
		}
		if w, ok := worklistFor(k, a, sm.known[k.provider]); ok {
			out.Worklist = append(out.Worklist, w)
		}
	}
	out.CoverageCell = cell(total, untagged)
	for _, p := range providersIn(provTotals) {
		row := byProvider[p]
		row.CoverageCell = cell(provTotals[p][0], provTotals[p][1])
		out.Providers = append(out.Providers, *row)
	}
	for kv, c := range owners {
		out.Owners = append(out.Owners, model.OwnerCost{Key: kv[0], Value: kv[1], Cost: money(c)})
	}
	slices.SortFunc(out.Owners, func(a, b model.OwnerCost) int {
		return cmp.Or(cmp.Compare(b.Cost, a.Cost), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value))
	})
	slices.SortStableFunc(out.Accounts, func(a, b model.CoverageRow) int { return cmp.Compare(b.Unallocated, a.Unallocated) })
	slices.SortStableFunc(out.Worklist, func(a, b model.TagWork) int { return cmp.Compare(b.UnallocatedCost, a.UnallocatedCost) })
	out.AccountsTotal, out.WorklistTotal = len(out.Accounts), len(out.Worklist)
	out.Accounts = out.Accounts[:min(len(out.Accounts), maxCoverageRows)]
	out.Worklist = out.Worklist[:min(len(out.Worklist), maxCoverageRows)]
	return out
}

// CoverageOf is the allocatable and unallocated usage spend of costs, for
// one month of a coverage series.
func CoverageOf(costs []model.CostLine, m model.CostMetric) model.CoverageCell {
	var total, untagged float64
	for i := range costs {
		l := &costs[i]
		if !isUsage(*l) {
			continue
		}
		c := l.Amount(m).Float64()
		total += c
		if ownerTags(l.Tags) == nil {
			untagged += c
		}
	}
	return cell(total, untagged)
}

func providersIn(m map[model.ProviderKey][2]float64) []model.ProviderKey {
	var out []model.ProviderKey
	for _, p := range model.AllProviders {
		if _, ok := m[p]; ok {
			out = append(out, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// untaggedResources counts an account's untagged resources (lines without
// a resource are not one).
func untaggedResources(a *accountSpend) int {
	n := len(a.untaggedByRes)
	if _, ok := a.untaggedByRes[""]; ok {
		n--
	}
	return n
}

// AllocationRecommendations is the allocator's generate_recommendations:
// per provider, one cost_allocation item saying how much usage spend has
// no owner tag and in how many accounts, pointing to the tagging worklist
// (TagCoverage). Tagging saves nothing by itself: potential_savings is 0,
// the priority low, and the list orders it after every saving by the
// spend it would make allocatable. Providers under 1 % untagged, or under
// MinMonthlySavings, get none.
func AllocationRecommendations(costs []model.CostLine) []model.Recommendation {
	sm := spendOf(costs, model.MetricBilled)
	type agg struct {
		total, untagged    float64
		accounts, res      int
		first, last        string
		suggested          float64
		largest            string
		largestUnallocated float64
	}
	by := map[model.ProviderKey]*agg{}
	for _, k := range sm.sortedKeys() {
		a := sm.accounts[k]
		g := by[k.provider]
		if g == nil {
			g = &agg{first: a.firstDay}
			by[k.provider] = g
		}
		g.total += a.total
		g.untagged += a.untagged
		if a.untagged > 0 {
			g.accounts++
		}
		g.res += untaggedResources(a)
		if a.firstDay < g.first {
			g.first = a.firstDay
		}
		g.last = max(g.last, a.lastDay)
		if w, ok := worklistFor(k, a, sm.known[k.provider]); ok {
			g.suggested += w.SuggestedCost
		}
		if a.untagged > g.largestUnallocated {
			g.largest, g.largestUnallocated = k.account, a.untagged
		}
	}
	var out []model.Recommendation
	for _, p := range slices.Sorted(maps.Keys(by)) {
		g := by[p]
		if g.total <= 0 || g.untagged < MinMonthlySavings || g.untagged/g.total < 0.01 {
			continue
		}
		share := g.untagged / g.total
		effort := model.EffortLow
		switch {
		case g.res > 100:
			effort = model.EffortHigh
		case g.res > 10:
			effort = model.EffortMedium
		}
		ev := evidence{completeness: 1, days: float64(dayCount(g.first, g.last)), stability: 1,
			kind: 0.5 + 0.5*math.Min(1, g.suggested/g.untagged)}
		out = append(out, model.Recommendation{
			Type:         model.RecCostAllocation,
			ResourceID:   string(p),
			ResourceType: "provider",
			Description: fmt.Sprintf("Tag coverage: %s of %s (%.0f%%) of %s usage spend from %s to %s has no %s tag, in %d accounts "+
				"(%d untagged resources; most in %s). Tagging saves nothing by itself but makes that spend allocatable: "+
				"the Allocation page lists the worklist with suggested tags for %s of it.",
				dollars(g.untagged), dollars(g.total), share*100, p, g.first, g.last, strings.Join(OwnerTagKeys, "/"), g.accounts, g.res,
				g.largest, dollars(g.suggested)),
			PotentialSavings:     0,
			Priority:             model.PriorityLow,
			Provider:             p,
			Confidence:           ev.confidence(),
			ImplementationEffort: effort,
			Details: map[string]any{
				"untagged_cost":      money(g.untagged),
				"total_cost":         money(g.total),
				"untagged_share":     round4(share),
				"allocatable_cost":   money(g.untagged),
				"suggested_cost":     money(g.suggested),
				"accounts":           g.accounts,
				"untagged_resources": g.res,
				"period_start":       g.first,
				"period_end":         g.last,
			},
		})
	}
	return out
}

// dollars formats an amount with thousands separators: "$31,060.25".
func dollars(x float64) string { return moneyfmt.USD(x) }

// worklistFor is one account's tagging work: the tags suggested for its
// untagged resources, from resource names (a name token that is a known
// owner value), neighbours (tagged resources whose names differ only by a
// number) and the account (when one owner holds most of its tagged
// spend).
func worklistFor(k accountKey, a *accountSpend, known map[string]map[string]bool) (model.TagWork, bool) {
	if a.untagged <= 0 {
		return model.TagWork{}, false
	}
	stems := map[string]map[string]string{} // stem -> owner tags of a tagged neighbour
	// In id order, so the neighbour whose tags are suggested is the same on
	// every run (the first tagged resource of the stem).
	for _, id := range slices.Sorted(maps.Keys(a.taggedByRes)) {
		if s := stem(id); s != "" && stems[s] == nil {
			stems[s] = a.taggedByRes[id]
		}
	}
	accountTags := map[string]string{}
	for key, values := range a.taggedValueCost {
		for v, c := range values {
			if a.taggedCost > 0 && c/a.taggedCost >= accountDominance {
				accountTags[key] = v
			}
		}
	}
	suggestions := []model.TagSuggestion{}
	var covered float64
	for id, cost := range a.untaggedByRes {
		if id == "" {
			continue
		}
		s := model.TagSuggestion{ResourceID: id, Cost: money(cost)}
		switch {
		case len(nameTags(id, known)) > 0:
			s.Tags, s.Reason = nameTags(id, known), "name"
		case stems[stem(id)] != nil && stem(id) != "":
			s.Tags, s.Reason = stems[stem(id)], "neighbour"
		case len(accountTags) > 0:
			s.Tags, s.Reason = accountTags, "account"
		default:
			continue
		}
		covered += cost
		suggestions = append(suggestions, s)
	}
	slices.SortFunc(suggestions, func(x, y model.TagSuggestion) int {
		return cmp.Or(cmp.Compare(y.Cost, x.Cost), cmp.Compare(x.ResourceID, y.ResourceID))
	})
	return model.TagWork{Provider: k.provider, Account: k.account, UnallocatedCost: money(a.untagged), SuggestedCost: money(covered),
		UntaggedResources: untaggedResources(a), Suggestions: suggestions[:min(len(suggestions), maxSuggestions)]}, true
}

// nameTags suggests owner tags from name tokens that are known owner values
// ("checkout-api-3" -> team=checkout when another resource is tagged
// team=checkout). A value used under several keys is suggested for each.
func nameTags(id string, known map[string]map[string]bool) map[string]string {
	name := strings.ToLower(lastSegment(id))
	tokens := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var out map[string]string
	for _, t := range tokens {
		if len(t) < 3 {
			continue
		}
		for key := range known[t] {
			if out == nil {
				out = map[string]string{}
			}
			if _, taken := out[key]; !taken {
				out[key] = t
			}
		}
	}
	// Multi-word values ("data-platform") match as substrings.
	for v, keys := range known {
		if !strings.ContainsAny(v, "-_ ") || !strings.Contains(name, v) {
			continue
		}
		for key := range keys {
			if out == nil {
				out = map[string]string{}
			}
			out[key] = v
		}
	}
	return out
}

// generatedID matches cloud-generated identifiers (i-0abc..., vol-...,
// ocid1...) whose stems say nothing about ownership.
var generatedID = regexp.MustCompile(`^([a-z]{1,5}-[0-9a-f]{6,}|ocid1\..*|[0-9a-f-]{16,})$`)

// trailingNumber is a numeric suffix such as -03 or _12 or 7.
var trailingNumber = regexp.MustCompile(`[-_]?[0-9]+$`)

// stem is a resource name without its trailing number ("web-checkout-03"
// -> "web-checkout"), or "" when the name has no number or is generated.
func stem(id string) string {
	name := strings.ToLower(lastSegment(id))
	if generatedID.MatchString(name) {
		return ""
	}
	s := trailingNumber.ReplaceAllString(name, "")
	if s == name || len(s) < 3 {
		return ""
	}
	return s
}

// lastSegment is the part of an ARN or resource path after the last / or :.
func lastSegment(id string) string {
	if i := strings.LastIndexAny(id, "/:"); i >= 0 {
		return id[i+1:]
	}
	return id
}

// dayCount is the number of days from first to last inclusive (0 if unparsable).
func dayCount(first, last string) int {
	a, err1 := time.Parse(model.DateLayout, first)
	b, err2 := time.Parse(model.DateLayout, last)
	if err1 != nil || err2 != nil {
		return 0
	}
	return int(b.Sub(a).Hours()/hoursPerDay) + 1
}
