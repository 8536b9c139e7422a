package store

import (
	"context"
	"reflect"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func ociLine(day, tenancy, res, cost string) model.CostLine {
	l := line(day, tenancy, "Compute", res, cost, nil)
	l.Provider = model.OCI
	return l
}

func partBatch(kind, label, from, to string, lines ...model.CostLine) model.Batch {
	accts := map[string]bool{}
	var list []string
	for _, l := range lines {
		if !accts[l.BillingAccount] {
			accts[l.BillingAccount] = true
			list = append(list, l.BillingAccount)
		}
	}
	return model.Batch{Provider: lines[0].Provider, Source: model.SourceExport, From: from, To: to, Accounts: list,
		Lines: lines, Part: &model.Part{Kind: kind, Label: label}}
}

func metricSum(t *testing.T, s *Store, p model.ProviderKey, m model.CostMetric, from, to string) model.Nanos {
	t.Helper()
	sc := Scope{Sources: map[model.ProviderKey]model.SourceKind{p: model.SourceExport}, From: from, To: to}
	rows, err := s.ServiceSums(context.Background(), sc, m)
	if err != nil {
		t.Fatal(err)
	}
	var n model.Nanos
	for _, r := range rows {
		n += r.Amount
	}
	return n
}

func nanos(s string) model.Nanos {
	n, err := model.ParseNanos(s)
	if err != nil {
		panic(err)
	}
	return n
}

// OCI writes a report every few hours; the reports of a day add up, and a
// report imported again replaces only itself.
func TestSlicesOfOneDayAddUp(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	r1 := partBatch(model.PartSlice, "0001.csv", "2023-11-01", "2023-11-01",
		ociLine("2023-11-01", "t1", "vm1", "1.00"), ociLine("2023-11-01", "t1", "vm2", "0.12"))
	r2 := partBatch(model.PartSlice, "0002.csv", "2023-11-01", "2023-11-02",
		ociLine("2023-11-01", "t1", "vm1", "1.40"), ociLine("2023-11-02", "t1", "vm1", "0.30"))
	changes, err := s.ApplyHistory(ctx, false, r1)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || len(changes[0].Before) != 0 || changes[0].After[0].Billed != nanos("1.12") {
		t.Fatalf("first report: %+v", changes)
	}
	changes, err = s.ApplyHistory(ctx, false, r2)
	if err != nil {
		t.Fatal(err)
	}
	if c := changes[0]; c.From != "2023-11-01" || c.To != "2023-11-02" || c.Before[0].Billed != nanos("1.12") || c.After[0].Billed != nanos("2.82") {
		t.Fatalf("second report: %+v", changes)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "2023-11-01", "2023-11-01"); got != nanos("2.52") {
		t.Fatalf("day total %v, want 2.52 (1.12 + 1.40)", got)
	}
	// The same report again, and a corrected first report: each replaces
	// only itself.
	for range 2 {
		if err := s.ReplaceHistory(ctx, r2); err != nil {
			t.Fatal(err)
		}
	}
	r1b := partBatch(model.PartSlice, "0001.csv", "2023-11-01", "2023-11-01", ociLine("2023-11-01", "t1", "vm1", "1.10"))
	if err := s.ReplaceHistory(ctx, r1b); err != nil {
		t.Fatal(err)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "2023-11-01", "2023-11-30"); got != nanos("2.80") {
		t.Fatalf("total %v, want 2.80 (1.10 + 1.40 + 0.30)", got)
	}
	// A report of the same name from another tenancy is another report.
	r3 := partBatch(model.PartSlice, "0001.csv", "2023-11-01", "2023-11-01", ociLine("2023-11-01", "t2", "vm9", "5"))
	if err := s.ReplaceHistory(ctx, r3); err != nil {
		t.Fatal(err)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "2023-11-01", "2023-11-30"); got != nanos("7.80") {
		t.Fatalf("total %v, want 7.80", got)
	}
	// A dry run reports and keeps nothing.
	dry := partBatch(model.PartSlice, "0003.csv", "2023-11-02", "2023-11-02", ociLine("2023-11-02", "t1", "vm1", "100"))
	changes, err = s.ApplyHistory(ctx, true, dry)
	if err != nil {
		t.Fatal(err)
	}
	if changes[0].After[0].Billed != nanos("100.30") {
		t.Fatalf("dry run after %+v", changes[0].After)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "2023-11-01", "2023-11-30"); got != nanos("7.80") {
		t.Fatalf("dry run changed the total to %v", got)
	}
}

// A replacing import over a report's days takes those days: the report's
// facts there do not come back when a later report of the day is added.
func TestReplacingImportCutsSlices(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	r1 := partBatch(model.PartSlice, "a", "2023-11-01", "2023-11-02",
		ociLine("2023-11-01", "t1", "vm1", "1"), ociLine("2023-11-02", "t1", "vm1", "2"))
	whole := model.Batch{Provider: model.OCI, Source: model.SourceExport, From: "2023-11-01", To: "2023-11-01",
		Accounts: []string{"t1"}, Lines: []model.CostLine{ociLine("2023-11-01", "t1", "vm1", "10")}}
	r2 := partBatch(model.PartSlice, "b", "2023-11-01", "2023-11-01", ociLine("2023-11-01", "t1", "vm2", "4"))
	if err := s.ReplaceHistory(ctx, r1, whole); err != nil {
		t.Fatal(err)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "", ""); got != nanos("12") {
		t.Fatalf("total %v, want 12", got)
	}
	if err := s.ReplaceHistory(ctx, r2); err != nil {
		t.Fatal(err)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "2023-11-01", "2023-11-01"); got != nanos("4") {
		t.Fatalf("day 1 %v, want 4: the slices stored for it now (a's day 1 was cut)", got)
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "2023-11-02", "2023-11-02"); got != nanos("2") {
		t.Fatalf("day 2 %v, want 2", got)
	}
}

// The two Azure exports of a month: billed and list cost from the actual
// one, effective cost from the amortized one, in either order; a newer
// export of one half replaces the older.
func TestAzurePairHalves(t *testing.T) {
	ctx := context.Background()
	az := func(day, res, billed, eff string) model.CostLine {
		l := line(day, "ea1", "Virtual Machines", res, billed, nil)
		l.Provider = model.Azure
		l.Effective = nanos(eff)
		return l
	}
	actual := partBatch(model.PartActual, "", "2023-09-01", "2023-09-30",
		az("2023-09-01", "ri-purchase", "300", "300"), az("2023-09-01", "vm1", "0", "0"), az("2023-09-02", "vm2", "5", "5"))
	amortized := partBatch(model.PartAmortized, "", "2023-09-01", "2023-09-30",
		az("2023-09-01", "vm1", "10", "10"), az("2023-09-01", "unused", "2", "2"), az("2023-09-02", "vm2", "5", "5"))
	for _, order := range [][]model.Batch{{actual, amortized}, {amortized, actual}} {
		s := openTest(t)
		if err := s.ReplaceHistory(ctx, order[0]); err != nil {
			t.Fatal(err)
		}
		first := order[0].Part.Kind
		want := map[string]string{model.PartActual: "305", model.PartAmortized: "17"}[first]
		if got := metricSum(t, s, model.Azure, model.MetricBilled, "", ""); got != nanos(want) {
			t.Fatalf("%s alone: billed %v, want %s", first, got, want)
		}
		if got := metricSum(t, s, model.Azure, model.MetricEffective, "", ""); got != nanos(want) {
			t.Fatalf("%s alone: effective %v, want %s", first, got, want)
		}
		if err := s.ReplaceHistory(ctx, order[1]); err != nil {
			t.Fatal(err)
		}
		for range 2 { // and each again
			if err := s.ReplaceHistory(ctx, order[0], order[1]); err != nil {
				t.Fatal(err)
			}
		}
		if got := metricSum(t, s, model.Azure, model.MetricBilled, "", ""); got != nanos("305") {
			t.Fatalf("%s first: billed %v, want the actual total 305", first, got)
		}
		if got := metricSum(t, s, model.Azure, model.MetricEffective, "", ""); got != nanos("17") {
			t.Fatalf("%s first: effective %v, want the amortized total 17", first, got)
		}
		if got := metricSum(t, s, model.Azure, model.MetricList, "", ""); got != nanos("305") {
			t.Fatalf("%s first: list %v, want the actual export's 305", first, got)
		}
		// A later actual-cost delivery of the month restates it.
		newer := partBatch(model.PartActual, "", "2023-09-01", "2023-09-30", az("2023-09-02", "vm2", "7", "7"))
		if err := s.ReplaceHistory(ctx, newer); err != nil {
			t.Fatal(err)
		}
		if got := metricSum(t, s, model.Azure, model.MetricBilled, "", ""); got != nanos("7") {
			t.Fatalf("restated actual: billed %v, want 7", got)
		}
		if got := metricSum(t, s, model.Azure, model.MetricEffective, "", ""); got != nanos("17") {
			t.Fatalf("restated actual: effective %v, want 17", got)
		}
	}
}

func TestPartBatchNeedsAccountsAndKind(t *testing.T) {
	s := openTest(t)
	b := partBatch(model.PartSlice, "", "2023-11-01", "2023-11-01", ociLine("2023-11-01", "t1", "vm1", "1"))
	if err := s.ReplaceHistory(context.Background(), b); err == nil {
		t.Fatal("a slice without a report name was stored")
	}
	b.Part = &model.Part{Kind: "half"}
	if err := s.ReplaceHistory(context.Background(), b); err == nil {
		t.Fatal("a part of unknown kind was stored")
	}
	if got := metricSum(t, s, model.OCI, model.MetricBilled, "", ""); got != 0 {
		t.Fatalf("refused batches left %v", got)
	}
}

// TestApplyHistoryAfterSums: a replacing batch's sums after (counted while
// it is written) equal the stored sums read back, in every currency.
func TestApplyHistoryAfterSums(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	eur := line("2023-11-02", "a1", "S3", "b", "2.5", nil)
	eur.Currency = "EUR"
	noCur := line("2023-11-03", "a2", "EC2", "c", "4", nil)
	noCur.Currency = ""
	old := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2023-11-01", To: "2023-11-30",
		Lines: []model.CostLine{line("2023-11-01", "a1", "EC2", "x", "100", nil)}}
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2023-11-01", To: "2023-11-30",
		Lines: []model.CostLine{line("2023-11-01", "a1", "EC2", "a", "1.25", nil), eur, noCur}}
	if err := s.ReplaceHistory(ctx, old); err != nil {
		t.Fatal(err)
	}
	changes, err := s.ApplyHistory(ctx, false, b)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.SpanSums(ctx, model.AWS, model.SourceExport, nil, "2023-11-01", "2023-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Before[0].Billed != nanos("100") || !reflect.DeepEqual(changes[0].After, stored) || len(stored) != 2 {
		t.Fatalf("after %+v, stored %+v", changes[0].After, stored)
	}
}
