package store

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// A scope wholly outside every source's stored days is known empty from
// sync_state; one that overlaps any, or names a source with no stored
// days, is not.
func TestPlanKnowsAScopeOutsideTheHistory(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	base, _ := model.ParseDayNum("2025-11-20")
	r := rand.New(rand.NewPCG(3, 7))
	b := randomBatch(r, base)
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	first, _ := model.ParseDayNum(b.From)
	last, _ := model.ParseDayNum(b.To)
	src := map[model.ProviderKey]model.SourceKind{b.Provider: b.Source}
	for _, c := range []struct {
		from, to model.DayNum
		sources  map[model.ProviderKey]model.SourceKind
		none     bool
	}{
		{first - 400, first - 1, src, true},
		{last + 1, last + 30, src, true},
		{first - 400, first, src, false},
		{last, last + 30, src, false},
		{first - 400, first - 1, map[model.ProviderKey]model.SourceKind{b.Provider: b.Source, model.OCI: model.SourceExport}, false},
	} {
		p, err := s.plan(ctx, Scope{Sources: c.sources, From: c.from.String(), To: c.to.String()})
		if err != nil {
			t.Fatal(err)
		}
		if p.none != c.none {
			t.Errorf("%s..%s of %v (history %s..%s): none %v, want %v", c.from, c.to, c.sources, b.From, b.To, p.none, c.none)
		}
	}
}
