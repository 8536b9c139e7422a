package store

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// A plan knows the first and last day its sources have facts on (the
// per-key reads skip the months outside them), and a scope wholly
// outside those days is known empty; one that overlaps them is not. A
// source with nothing stored adds no days, and another store's write
// (another process) moves the bounds at once.
func TestPlanKnowsAScopeOutsideTheHistory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	base, _ := model.ParseDayNum("2025-11-20")
	r := rand.New(rand.NewPCG(3, 7))
	b := randomBatch(r, base)
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	days := func(b model.Batch) (first, last model.DayNum) {
		for _, l := range b.Lines {
			d, _ := model.ParseDayNum(l.Day)
			if first == 0 || d < first {
				first = d
			}
			last = max(last, d)
		}
		return first, last
	}
	first, last := days(b)
	src := map[model.ProviderKey]model.SourceKind{b.Provider: b.Source}
	withEmpty := map[model.ProviderKey]model.SourceKind{b.Provider: b.Source, model.OCI: model.SourceExport}
	check := func(from, to model.DayNum, sources map[model.ProviderKey]model.SourceKind, none bool, stored [2]model.DayNum) {
		t.Helper()
		p, err := s.plan(ctx, Scope{Sources: sources, From: from.String(), To: to.String()})
		if err != nil {
			t.Fatal(err)
		}
		if p.none != none || p.stored != stored {
			t.Errorf("%s..%s of %v (facts %s..%s): none %v, stored %v; want %v, %v", from, to, sources, first, last,
				p.none, p.stored, none, stored)
		}
	}
	both := [2]model.DayNum{first, last}
	check(first-400, first-1, src, true, both)
	check(last+1, last+30, src, true, both)
	check(first-400, first, src, false, both)
	check(last, last+30, src, false, both)
	check(first-400, first-1, withEmpty, true, both)
	check(first, last, withEmpty, false, both)
	check(first, last, map[model.ProviderKey]model.SourceKind{model.OCI: model.SourceExport}, true, [2]model.DayNum{})

	other, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	shift := func(day string) string {
		d, _ := model.ParseDayNum(day)
		return (d + 500).String()
	}
	later := b
	later.Lines = nil
	for _, l := range b.Lines {
		l.Day = shift(l.Day)
		later.Lines = append(later.Lines, l)
	}
	later.From, later.To = shift(b.From), shift(b.To)
	if err := other.ReplaceHistory(ctx, later); err != nil {
		t.Fatal(err)
	}
	check(last+501, last+530, src, true, [2]model.DayNum{first, last + 500})
	check(last+1, last+30, src, false, [2]model.DayNum{first, last + 500}) // between the two: one span, not judged by holes
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
