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

// The line counts are remembered under the history version: a write by
// another store on the same data dir (another process) is counted on the
// next call, and so is a deletion.
func TestStatsCountAnotherStoresWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func() *Store {
		s, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	lines := func() int64 {
		st, err := a.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, h := range st {
			n += h.Lines
		}
		return n
	}
	if n := lines(); n != 0 {
		t.Fatalf("empty store counts %d lines", n)
	}
	base, _ := model.ParseDayNum("2025-11-20")
	r := rand.New(rand.NewPCG(5, 7))
	for range 3 {
		batch := randomBatch(r, base)
		batch.Provider, batch.Source = model.AWS, model.SourceExport
		if err := b.ReplaceHistory(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if want := countFacts(t, b); lines() != want {
			t.Fatalf("after another store's write: %d lines, want %d", lines(), want)
		}
	}
	if err := b.DeleteHistory(ctx, model.AWS, model.SourceExport); err != nil {
		t.Fatal(err)
	}
	if n := lines(); n != 0 {
		t.Fatalf("after another store's deletion: %d lines, want 0", n)
	}
}

// countFacts counts the stored daily lines directly.
func countFacts(t *testing.T, s *Store) int64 {
	t.Helper()
	var n int64
	if err := s.r.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM facts`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
