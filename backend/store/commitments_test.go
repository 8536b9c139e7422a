package store

import (
	"context"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func dayNum(t *testing.T, s string) model.DayNum {
	t.Helper()
	d, ok := model.ParseDayNum(s)
	if !ok {
		t.Fatalf("bad day %q", s)
	}
	return d
}

// TestCommitmentsRoundTrip writes commitment facts with the history, reads
// them summed, and checks that a later batch replaces its span and
// accounts only, and that a part batch without commitments leaves them.
func TestCommitmentsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	sc := Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}}
	ri := func(acct, day string, used, unused model.Nanos) model.CommitmentFact {
		return model.CommitmentFact{Account: acct, Day: dayNum(t, day), ID: "ri-1", Type: "Reserved Instance",
			Category: "Usage", Currency: "USD", End: dayNum(t, "2026-03-01"), Used: used, Unused: unused,
			CoveredList: 3 * used, CoveredCost: used, Units: 24e9, UnusedUnits: 2e9}
	}
	od := func(acct, day string, n model.Nanos) model.CommitmentFact {
		return model.CommitmentFact{Account: acct, Day: dayNum(t, day), Currency: "USD", OnDemand: n}
	}
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-01-01", To: "2026-01-02",
		Lines: []model.CostLine{line("2026-01-01", "111", "EC2", "i-1", "1", nil), line("2026-01-01", "222", "EC2", "i-2", "1", nil)},
		Commitments: []model.CommitmentFact{ri("111", "2026-01-01", 10, 2), ri("111", "2026-01-02", 11, 1),
			od("111", "2026-01-01", 7), od("222", "2026-01-02", 5)}}
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	tot, err := s.CommitmentTotals(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(tot) != 2 {
		t.Fatalf("totals = %+v, want the uncovered usage and ri-1", tot)
	}
	r := tot[1]
	if tot[0].ID != "" || tot[0].OnDemand != 12 || r.ID != "ri-1" || r.Used != 21 || r.Unused != 3 ||
		r.CoveredList != 63 || r.Units != 48e9 || r.UnusedUnits != 4e9 || r.Days != 2 ||
		r.End != dayNum(t, "2026-03-01") || r.Day != dayNum(t, "2026-01-02") {
		t.Fatalf("totals = %+v", tot)
	}

	// Account 111 of 2026-01-02 again, without the reservation: only it goes.
	b2 := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-01-02", To: "2026-01-02",
		Accounts: []string{"111"}, Lines: []model.CostLine{line("2026-01-02", "111", "EC2", "i-1", "1", nil)},
		Commitments: []model.CommitmentFact{od("111", "2026-01-02", 4)}}
	if err := s.ReplaceHistory(ctx, b2); err != nil {
		t.Fatal(err)
	}
	days, err := s.CommitmentDays(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	want := []CommitmentDay{{model.AWS, "2026-01-01", "USD", 7, 2}, {model.AWS, "2026-01-02", "USD", 9, 0}}
	if len(days) != len(want) || days[0] != want[0] || days[1] != want[1] {
		t.Fatalf("days = %+v, want %+v", days, want)
	}

	// A part without commitments (the actual half of a pair) keeps them.
	part := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-01-01", To: "2026-01-02",
		Accounts: []string{"111"}, Part: &model.Part{Kind: model.PartActual},
		Lines: []model.CostLine{line("2026-01-01", "111", "EC2", "i-1", "1", nil)}}
	if err := s.ReplaceHistory(ctx, part); err != nil {
		t.Fatal(err)
	}
	if again, err := s.CommitmentDays(ctx, sc); err != nil || len(again) != 2 || again[1] != want[1] {
		t.Fatalf("after a part: %+v, %v", again, err)
	}

	// A fact outside the batch's span is refused, and nothing changes.
	bad := b2
	bad.Commitments = []model.CommitmentFact{od("111", "2026-01-05", 1)}
	if err := s.ReplaceHistory(ctx, bad); err == nil {
		t.Fatal("a commitment outside the span was accepted")
	}
	if err := s.DeleteHistory(ctx, model.AWS, model.SourceExport); err != nil {
		t.Fatal(err)
	}
	if tot, err := s.CommitmentTotals(ctx, sc); err != nil || len(tot) != 0 {
		t.Fatalf("after delete: %+v, %v", tot, err)
	}
}
