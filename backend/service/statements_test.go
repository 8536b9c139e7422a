package service

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// TestStatementsAddUpToTheAllocatedTotal: the statements of a saved rule
// set over a billing period add up to the period's allocated total, per
// department and per project; that total and the unallocated rest make
// the period's cost as the cost analysis reads it; the CSV has one row
// per statement with the same amounts.
func TestStatementsAddUpToTheAllocatedTotal(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	if _, err := s.SaveRuleSet(ctx, "finance", model.AllocationRules{Method: "tag_based", Tags: []string{"department", "project"}}); err != nil {
		t.Fatal(err)
	}
	costs, err := s.Costs(ctx, CostRequest{Start: "2026-05-01", End: "2026-05-31"})
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []string{"department", "project"} {
		set, err := s.Statements(ctx, StatementRequest{RuleSet: "finance", Period: "2026-05", By: by})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Statements) < 2 || set.Start != "2026-05-01" || set.End != "2026-05-31" || set.Period != "2026-05" {
			t.Fatalf("%s: %+v", by, set)
		}
		var sum float64
		for _, st := range set.Statements {
			sum += st.Amount
		}
		if math.Abs(sum-set.Allocated) > 1e-6 || set.Allocated <= 0 || !relClose(set.Allocated+set.Unallocated, costs.Summary.TotalCost) {
			t.Fatalf("%s: statements %v, allocated %v + unallocated %v, the period's cost %v", by, sum, set.Allocated, set.Unallocated, costs.Summary.TotalCost)
		}
		var buf bytes.Buffer
		if err := WriteStatementsCSV(&buf, set); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) != len(set.Statements)+1 || rows[0][0] != by {
			t.Fatalf("csv %v %v", rows, err)
		}
		var csvSum float64
		for _, r := range rows[1:] {
			v, err := strconv.ParseFloat(r[4], 64)
			if err != nil {
				t.Fatal(err)
			}
			csvSum += v
		}
		// Each row is rounded to the cent.
		if math.Abs(csvSum-set.Allocated) > 0.005*float64(len(set.Statements)) {
			t.Errorf("csv rows add to %v, allocated %v", csvSum, set.Allocated)
		}
	}
	for _, bad := range []StatementRequest{{RuleSet: "nope", Period: "2026-05"}, {RuleSet: "finance", Period: "May"},
		{RuleSet: "finance", Period: "2026-07"}, {RuleSet: "finance", Period: "2026-05", By: "team"}} {
		if _, err := s.Statements(ctx, bad); apperr.KindOf(err) != apperr.Validation {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}
