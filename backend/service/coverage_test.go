package service

import (
	"math"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestTagCoverageOnDemo: the coverage of a period equals an independent
// sum over the stored lines (usage lines with a team/owner/project/
// department tag are allocatable), its providers, accounts and months add
// up to it, and the recommendations hold at most one tagging item per
// provider, after every saving.
func TestTagCoverageOnDemo(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, nil)
	p, err := s.CommitmentPeriod(CommitmentRequest{Period: string(model.PeriodLastMonth)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.TagCoverage(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := s.providers("")
	sc := s.scope(ctx, keys)
	sc.From, sc.To = p.FirstDay(), p.LastDay()
	lines, err := s.store.Lines(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	var total, allocatable float64
	for _, l := range lines {
		if l.ChargeCategory != "" && !strings.EqualFold(l.ChargeCategory, "Usage") {
			continue
		}
		v := l.Billed.Float64()
		total += v
		for k, val := range l.Tags {
			switch strings.ToLower(k) {
			case "team", "owner", "project", "department":
				if strings.TrimSpace(val) != "" {
					allocatable += v
					goto next
				}
			}
		}
	next:
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.011 }
	if !near(c.Total, total) || !near(c.Allocatable, allocatable) || !near(c.Unallocated, total-allocatable) || total == 0 {
		t.Fatalf("coverage %+v, independent total %.2f allocatable %.2f", c.CoverageCell, total, allocatable)
	}
	if c.From != "2026-05-01" || c.To != "2026-05-31" || len(c.Months) != 1 || c.Months[0].Month != "2026-05" || !near(c.Months[0].Total, c.Total) {
		t.Fatalf("period %s..%s, months %+v", c.From, c.To, c.Months)
	}
	var pt, at float64
	for _, r := range c.Providers {
		pt += r.Unallocated
	}
	for _, r := range c.Accounts {
		at += r.Unallocated
	}
	if len(c.Accounts) != c.AccountsTotal || !near(pt, c.Unallocated) || !near(at, c.Unallocated) {
		t.Fatalf("providers %.2f, accounts %.2f, total unallocated %.2f", pt, at, c.Unallocated)
	}

	// A 90-day period spans four months, the first and last partial.
	p90, _ := s.PeriodForDays(90)
	c90, err := s.TagCoverage(ctx, p90)
	if err != nil {
		t.Fatal(err)
	}
	var mt float64
	for _, m := range c90.Months {
		mt += m.Total
	}
	if len(c90.Months) != 4 || c90.Months[0].From != c90.From || c90.Months[3].To != c90.To || math.Abs(mt-c90.Total) > 0.05 {
		t.Fatalf("months %+v, total %.2f", c90.Months, c90.Total)
	}

	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tagging, lastSaving, firstTagging := 0, -1, len(recs)
	for i, r := range recs {
		if r.Type == model.RecCostAllocation {
			tagging++
			firstTagging = min(firstTagging, i)
			if r.PotentialSavings != 0 || r.Priority != model.PriorityLow {
				t.Errorf("tagging item %+v", r)
			}
		} else if r.PotentialSavings > 0 {
			lastSaving = i
		}
	}
	if tagging == 0 || tagging > len(model.AllProviders) || lastSaving > firstTagging {
		t.Fatalf("%d tagging items (at most one per provider), last saving at %d, first tagging at %d", tagging, lastSaving, firstTagging)
	}
}
