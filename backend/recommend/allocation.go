package recommend

import (
	"cmp"
	"fmt"
	"maps"
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

// accountDominance is the share of an account's tagged spend one owner
// value needs before untagged neighbours in the account inherit it.
const accountDominance = 0.8

// TagSuggestion is a proposed set of owner tags for one untagged resource.
type TagSuggestion struct {
	ResourceID string            `json:"resource_id"`
	Cost       float64           `json:"cost"`
	Tags       map[string]string `json:"tags"`
	Reason     string            `json:"reason"` // name, neighbour or account
}

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

// AllocationRecommendations is the allocator's generate_recommendations:
// per provider and account, the share of usage spend that carries no owner
// tag, with tag suggestions inferred from resource names (a name token that
// is a known owner value), neighbours (tagged resources whose names differ
// only by a number) and the account (when one owner holds most of its tagged
// spend). Tagging saves nothing by itself, so potential_savings is 0; the
// description states the spend it would make allocatable.
func AllocationRecommendations(costs []model.CostLine) []model.Recommendation {
	accounts := map[accountKey]*accountSpend{}
	knownValues := map[model.ProviderKey]map[string]map[string]bool{} // provider -> lower value -> key set
	for _, l := range costs {
		if !isUsage(l) {
			continue
		}
		k := accountKey{l.Provider, accountOf(l)}
		a := accounts[k]
		if a == nil {
			a = &accountSpend{untaggedByRes: map[string]float64{}, taggedByRes: map[string]map[string]string{},
				taggedValueCost: map[string]map[string]float64{}}
			accounts[k] = a
		}
		cost := l.Billed.Float64()
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
		if knownValues[l.Provider] == nil {
			knownValues[l.Provider] = map[string]map[string]bool{}
		}
		for key, v := range owners {
			if a.taggedValueCost[key] == nil {
				a.taggedValueCost[key] = map[string]float64{}
			}
			a.taggedValueCost[key][v] += cost
			lv := strings.ToLower(v)
			if knownValues[l.Provider][lv] == nil {
				knownValues[l.Provider][lv] = map[string]bool{}
			}
			knownValues[l.Provider][lv][key] = true
		}
	}
	keys := slices.Collect(maps.Keys(accounts))
	slices.SortFunc(keys, func(a, b accountKey) int {
		return cmp.Or(cmp.Compare(a.provider, b.provider), cmp.Compare(a.account, b.account))
	})
	var out []model.Recommendation
	for _, k := range keys {
		if r, ok := allocationFor(k, accounts[k], knownValues[k.provider]); ok {
			out = append(out, r)
		}
	}
	return out
}

// allocationFor builds one account's recommendation.
func allocationFor(k accountKey, a *accountSpend, known map[string]map[string]bool) (model.Recommendation, bool) {
	if a.total <= 0 || a.untagged < MinMonthlySavings || a.untagged/a.total < 0.01 {
		return model.Recommendation{}, false
	}
	share := a.untagged / a.total
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
	var suggestions []TagSuggestion
	var covered float64
	resources := 0
	for id, cost := range a.untaggedByRes {
		if id == "" {
			continue
		}
		resources++
		s := TagSuggestion{ResourceID: id, Cost: money(cost)}
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
	slices.SortFunc(suggestions, func(x, y TagSuggestion) int {
		return cmp.Or(cmp.Compare(y.Cost, x.Cost), cmp.Compare(x.ResourceID, y.ResourceID))
	})
	listed := suggestions[:min(len(suggestions), maxSuggestions)]
	pr := model.PriorityLow
	switch {
	case share >= 0.3:
		pr = model.PriorityHigh
	case share >= 0.1:
		pr = model.PriorityMedium
	}
	effort := model.EffortLow
	switch {
	case resources > 100:
		effort = model.EffortHigh
	case resources > 10:
		effort = model.EffortMedium
	}
	coveredShare := covered / a.untagged
	days := float64(dayCount(a.firstDay, a.lastDay))
	ev := evidence{completeness: 1, days: days, stability: 1, kind: 0.5 + 0.5*coveredShare}
	return model.Recommendation{
		Type:         model.RecCostAllocation,
		ResourceID:   k.account,
		ResourceType: "account",
		Description: fmt.Sprintf("Tag %d resources in %s account %s: $%.2f of $%.2f (%.0f%%) of spend from %s to %s has no "+
			"%s tag; tagging it would make $%.2f allocatable. Suggested tags cover $%.2f of it.",
			resources, k.provider, k.account, a.untagged, a.total, share*100, a.firstDay, a.lastDay,
			strings.Join(OwnerTagKeys, "/"), a.untagged, covered),
		PotentialSavings:     0,
		Priority:             pr,
		Provider:             k.provider,
		Confidence:           ev.confidence(),
		ImplementationEffort: effort,
		Details: map[string]any{
			"account":            k.account,
			"untagged_cost":      money(a.untagged),
			"total_cost":         money(a.total),
			"untagged_share":     round4(share),
			"allocatable_cost":   money(a.untagged),
			"suggested_cost":     money(covered),
			"untagged_resources": resources,
			"suggestions":        listed,
			"period_start":       a.firstDay,
			"period_end":         a.lastDay,
		},
	}, true
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
