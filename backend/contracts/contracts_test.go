package contracts

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/model"
)

func TestParseDataset(t *testing.T) {
	f, err := os.Open("testdata/commitments.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, err := Parse(f, "commitments.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 {
		t.Fatalf("%d commitments", len(cs))
	}
	spend, hours, ai := cs[0], cs[1], cs[2]
	// FOCUS period ends are exclusive: a period ending 2027-01-01T00:00Z
	// ends on 2026-12-31.
	if spend.Provider != model.AWS || spend.Category != CategorySpend || spend.Cost != 1000*model.NanosPerUnit || !spend.HasCost ||
		spend.Start != "2026-01-01" || spend.End != "2026-12-31" || spend.ContractEnd != "2027-12-31" {
		t.Errorf("spend: %+v", spend)
	}
	if hours.Category != CategoryUsage || hours.HasCost || !hours.HasQuantity || hours.Quantity != 500 || hours.Unit != "Hours" {
		t.Errorf("hours: %+v", hours)
	}
	if ai.Provider != "anthropic" {
		t.Errorf("a vendor beside the clouds keeps its own key: %q", ai.Provider)
	}
}

func TestParseRefusals(t *testing.T) {
	head := "ContractCommitmentId,ContractCommitmentCategory,ContractCommitmentCost,ContractCommitmentQuantity,ContractCommitmentPeriodStart,ContractCommitmentPeriodEnd,ServiceProviderName\n"
	for _, tt := range []struct{ row, column string }{
		{"c1,Savings,10,,2026-01-01,2026-02-01,AWS", "ContractCommitmentCategory"},
		{"c1,Spend,ten,,2026-01-01,2026-02-01,AWS", "ContractCommitmentCost"},
		{"c1,Spend,,,2026-01-01,2026-02-01,AWS", "ContractCommitmentCost"},
		{"c1,Usage,,,2026-01-01,2026-02-01,AWS", "ContractCommitmentQuantity"},
		{",Spend,10,,2026-01-01,2026-02-01,AWS", "ContractCommitmentId"},
		{"c1,Spend,10,,January,2026-02-01,AWS", "ContractCommitmentPeriodStart"},
		{"c1,Spend,10,,2026-03-01,2026-02-01,AWS", "ContractCommitmentPeriodEnd"},
		{"c1,Spend,10,,2026-01-01,2026-02-01,", "ServiceProviderName"},
	} {
		_, err := Parse(strings.NewReader(head+"c0,Spend,1,,2026-01-01,2026-02-01,AWS\n"+tt.row+"\n"), "c.csv")
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Details["line"] != int64(3) || ae.Details["column"] != tt.column {
			t.Errorf("%s: %v", tt.row, err)
		}
	}
	if _, err := Parse(strings.NewReader("BilledCost,ChargePeriodStart\n1,2026-01-01\n"), "costs.csv"); err == nil {
		t.Error("cost rows taken for a commitment dataset")
	}
}

// TestAppliedSums: the ContractApplied amounts of cost rows, summed per
// commitment and month across workers, equal the rows' own.
func TestAppliedSums(t *testing.T) {
	data, err := os.ReadFile("testdata/costs.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := recs[0]
	f := NewFile("costs.csv", cols)
	if f == nil {
		t.Fatal("no ContractApplied column found")
	}
	// Two workers, rows dealt alternately, as the import's do.
	ws := []billing.RecordObserver{f.Worker(), f.Worker()}
	for i, rec := range recs[1:] {
		ws[i%2].Record(toBytes(rec), int64(i+2))
	}
	sums, err := f.Result()
	if err != nil {
		t.Fatal(err)
	}
	want := map[AppliedKey]AppliedSum{
		{model.AWS, "cc-spend-2026", "2026-04-01"}: {Cost: model.Nanos(100.25 * model.NanosPerUnit), Rows: 1},
		{model.AWS, "cc-spend-2026", "2026-05-01"}: {Cost: model.Nanos(50.5 * model.NanosPerUnit), Rows: 1},
		{model.AWS, "cc-hours-q2", "2026-04-01"}:   {Quantity: 24, Unit: "Hours", Rows: 1},
		{model.AWS, "cc-hours-q2", "2026-05-01"}:   {Quantity: 12, Unit: "Hours", Rows: 1},
	}
	if len(sums) != len(want) {
		t.Fatalf("%d sums: %+v", len(sums), sums)
	}
	for k, w := range want {
		if g := sums[k]; g == nil || *g != w {
			t.Errorf("%+v: %+v, want %+v", k, g, w)
		}
	}
	// A cell that is not the FOCUS object names its line.
	bad := NewFile("bad.csv", cols)
	row := append([]string(nil), recs[1]...)
	row[len(row)-1] = `{"Elements":"no"}`
	bad.Worker().Record(toBytes(row), 7)
	var ae *apperr.Error
	if _, err := bad.Result(); !errors.As(err, &ae) || ae.Details["line"] != int64(7) {
		t.Errorf("bad cell: %v", err)
	}
}

func TestMeasure(t *testing.T) {
	c := Commitment{Provider: model.AWS, ID: "c", Category: CategorySpend, Cost: 1000 * model.NanosPerUnit, HasCost: true,
		Start: "2026-01-01", End: "2026-12-31"}
	applied := []Applied{
		{AppliedKey{model.AWS, "c", "2026-01-01"}, AppliedSum{Cost: 100 * model.NanosPerUnit, Rows: 3}},
		{AppliedKey{model.AWS, "c", "2025-12-01"}, AppliedSum{Cost: 999 * model.NanosPerUnit, Rows: 1}}, // before the period
		{AppliedKey{model.GCP, "c", "2026-01-01"}, AppliedSum{Cost: 999 * model.NanosPerUnit, Rows: 1}}, // another provider's
	}
	v := Measure(c, applied, "2026-07-02") // half the year gone, a tenth applied
	if v.Applied != 100 || v.Share != 0.1 || v.Rows != 3 || v.Status != StatusAtRisk || v.Projected < 0.19 || v.Projected > 0.21 {
		t.Errorf("at risk: %+v", v)
	}
	applied[0].Cost = 600 * model.NanosPerUnit
	if v := Measure(c, applied, "2026-07-02"); v.Status != StatusOnTrack {
		t.Errorf("on track: %+v", v)
	}
	if v := Measure(c, applied, "2027-01-05"); v.Status != StatusShort {
		t.Errorf("short: %+v", v)
	}
	applied[0].Cost = 1000 * model.NanosPerUnit
	if v := Measure(c, applied, "2026-07-02"); v.Status != StatusMet || v.Share != 1 {
		t.Errorf("met: %+v", v)
	}
	if v := Measure(c, nil, "2025-06-01"); v.Status != StatusUpcoming || v.Elapsed != 0 {
		t.Errorf("upcoming: %+v", v)
	}
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}
