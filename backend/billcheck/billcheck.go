// Package billcheck finds savings in the bill alone: checks that read the
// usage type, meter, SKU or product description of each line, its pricing
// unit and quantity, and price the change from the bill's own cost and
// the list-price ratios shipped here. No inventory, utilization or cloud
// API is needed, so export users get them too.
//
// Every check has a stable id, a kind, the clouds it reads, its rule, its
// public source and a confidence; Catalogue lists them (docs/recommendations.md
// is generated from the same list by a test). Run applies them to the
// usage lines of a window of days and returns recommendations whose
// savings are monthly.
package billcheck

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"math"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// Line is one usage line of the bill summed over the window: a resource
// (or, without one, an account and region) and one usage type.
type Line struct {
	Provider     model.ProviderKey
	Account      string // the sub-account when there is one
	Region       string
	Service      string
	ResourceID   string
	ResourceType string
	// Usage is the usage type (AWS), meter (Azure), SKU (Google Cloud) or
	// product description (OCI); FOCUS rows give their provider's, or
	// SkuId and ChargeDescription.
	Usage    string
	Unit     string
	Quantity float64
	Cost     float64 // effective cost over the window
}

// Kind is what sort of change a check proposes.
type Kind string

// The kinds of check.
const (
	KindStorageClass    Kind = "storage-class"        // a cheaper class of the same storage
	KindPreviousGen     Kind = "previous-generation"  // a newer, cheaper generation
	KindArchitecture    Kind = "architecture"         // the same service on Arm
	KindIdleAddress     Kind = "idle-address"         // a public address paid for and not used
	KindIdleResource    Kind = "idle-resource"        // a resource billed with no use
	KindExtendedSupport Kind = "extended-support"     // paying to stay on an old version
	KindLicence         Kind = "licence"              // a licence billed that may be brought or dropped
	KindNetworkPath     Kind = "network-path"         // traffic that a free path carries
	KindStorageTiering  Kind = "storage-tiering"      // data in a hotter tier than its use needs
	KindCapacity        Kind = "provisioned-capacity" // capacity bought in a costlier model
	KindPricingModel    Kind = "pricing-model"        // the same use priced another way
)

// Check is one billing-only check.
type Check struct {
	ID         string
	Title      string
	Kind       Kind
	Provider   model.ProviderKey
	Rule       string // what it looks for and how it prices it
	Source     string // the public page the rule and prices rest on
	Confidence float64
	Effort     model.Effort
	// line prices one matching line: the share of its cost the change
	// saves, and a note on what was found.
	line func(l *Line) (share float64, note string, ok bool)
	// group prices the lines of one resource together (a ratio between
	// them decides), when the check needs more than one line.
	group func(g []*Line, months float64) (savings float64, note string, ok bool)
}

// Type is the recommendation type a check's findings have: an unused
// address or resource is idle; every other change is configuration.
func (c Check) Type() model.RecommendationType {
	if c.Kind == KindIdleAddress || c.Kind == KindIdleResource {
		return model.RecIdle
	}
	return model.RecConfiguration
}

// MinMonthlySavings leaves out findings that round to nothing. It is a
// cent, not the dollar of the utilization checks: a bill's line is
// evidence of its own, and the list is ordered by dollars, so small
// findings sit at its end rather than hide what a sampled or partial bill
// shows.
const MinMonthlySavings = 0.01

// daysPerMonth turns a window's cost into a month's (365/12).
const daysPerMonth = 365.0 / 12

// Window is the span of days the lines sum.
type Window struct {
	From, To string // YYYY-MM-DD, inclusive
	Days     int
}

// Run applies every check to the lines of window and returns one
// recommendation per check and resource (or account and region, for lines
// without a resource), largest savings first.
func Run(lines []Line, w Window) []model.Recommendation {
	if w.Days <= 0 {
		return nil
	}
	monthly := daysPerMonth / float64(w.Days)
	type key struct{ check, provider, account, region, resource string }
	type finding struct {
		c       *Check
		lines   []*Line
		savings float64
		cost    float64
		notes   []string
	}
	found := map[key]*finding{}
	groups := map[key][]*Line{}
	cat := Catalogue()
	for i := range lines {
		l := &lines[i]
		if l.Cost <= 0 {
			continue
		}
		for ci := range cat {
			c := &cat[ci]
			if c.Provider != l.Provider {
				continue
			}
			k := key{c.ID, string(l.Provider), l.Account, l.Region, l.ResourceID}
			if l.ResourceID != "" {
				k.region = "" // a resource is one whatever its lines say
			}
			if c.group != nil {
				groups[k] = append(groups[k], l)
				continue
			}
			share, note, ok := c.line(l)
			if !ok || share <= 0 {
				continue
			}
			f := found[k]
			if f == nil {
				f = &finding{c: c}
				found[k] = f
			}
			f.lines = append(f.lines, l)
			f.savings += l.Cost * min(share, 1)
			f.cost += l.Cost
			if note != "" && !slices.Contains(f.notes, note) {
				f.notes = append(f.notes, note)
			}
		}
	}
	for k, g := range groups {
		c := checkByID(cat, k.check)
		s, note, ok := c.group(g, float64(w.Days)/daysPerMonth)
		if !ok || s <= 0 {
			continue
		}
		f := &finding{c: c, lines: g, savings: s}
		for _, l := range g {
			f.cost += l.Cost
		}
		if note != "" {
			f.notes = []string{note}
		}
		found[k] = f
	}
	var out []model.Recommendation
	for k, f := range found {
		save := f.savings * monthly
		if save < MinMonthlySavings {
			continue
		}
		out = append(out, recommendation(f.c, k.resource, k.account, k.region, f.lines, save, f.cost*monthly, f.notes, w))
	}
	slices.SortFunc(out, func(a, b model.Recommendation) int {
		return cmp.Or(cmp.Compare(b.PotentialSavings, a.PotentialSavings), cmp.Compare(a.ID, b.ID))
	})
	return out
}

func checkByID(cat []Check, id string) *Check {
	for i := range cat {
		if cat[i].ID == id {
			return &cat[i]
		}
	}
	return nil
}

// recommendation words a finding.
func recommendation(c *Check, resource, account, region string, lines []*Line, save, cost float64, notes []string, w Window) model.Recommendation {
	target := resource
	where := ""
	if target == "" {
		target = account
		if region != "" {
			target += "/" + region
		}
		where = " in account " + account
		if region != "" {
			where += ", " + region
		}
	}
	usages := []string{}
	var qty float64
	unit := ""
	for _, l := range lines {
		if !slices.Contains(usages, l.Usage) {
			usages = append(usages, l.Usage)
		}
		qty += l.Quantity
		if unit == "" {
			unit = l.Unit
		}
	}
	slices.Sort(usages)
	desc := fmt.Sprintf("%s%s: saves about %s a month of %s billed (%s to %s).", c.Title, where, dollars(save), dollars(cost), w.From, w.To)
	if len(notes) > 0 {
		desc += " " + strings.Join(notes, " ")
	}
	sum := sha256.Sum256([]byte(c.ID + "\x00" + string(c.Provider) + "\x00" + target))
	rtype := ""
	if resource != "" && len(lines) > 0 {
		rtype = lines[0].ResourceType
	}
	return model.Recommendation{
		ID:                   hex.EncodeToString(sum[:8]),
		Type:                 c.Type(),
		ResourceID:           target,
		ResourceType:         rtype,
		Description:          desc,
		PotentialSavings:     math.Round(save*100) / 100,
		Priority:             priority(save, c.Confidence),
		Provider:             c.Provider,
		Confidence:           c.Confidence,
		ImplementationEffort: c.Effort,
		Details: map[string]any{
			"source":       "bill",
			"check":        c.ID,
			"kind":         string(c.Kind),
			"rule":         c.Rule,
			"rule_source":  c.Source,
			"usage":        usages,
			"quantity":     math.Round(qty*1000) / 1000,
			"unit":         unit,
			"monthly_cost": math.Round(cost*100) / 100,
			"lines":        len(lines),
			"account":      account,
			"period_start": w.From,
			"period_end":   w.To,
		},
	}
}

// priority is dollars weighted by confidence: what a finding is worth once
// its uncertainty is counted.
func priority(save, confidence float64) model.Priority {
	switch v := save * confidence; {
	case v >= 500:
		return model.PriorityHigh
	case v >= 100:
		return model.PriorityMedium
	}
	return model.PriorityLow
}

// dollars formats an amount with thousands separators: "$31,060.25".
func dollars(x float64) string { return moneyfmt.USD(x) }
