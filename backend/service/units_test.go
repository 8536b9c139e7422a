package service

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// unitsCSV writes a metric's daily values over the inclusive days
// from..to: value(i) on the i-th day, skipping days where it is < 0.
func unitsCSV(header, metric, scope string, from, to model.DayNum, value func(i int) float64) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	for d := from; d <= to; d++ {
		v := value(int(d - from))
		if v < 0 {
			continue
		}
		fmt.Fprintf(&b, "%s,%s,%g%s\n", d, metric, v, scope)
	}
	return b.String()
}

// TestCostPerUnit: analyze per a metric divides the period's cost by its
// units in total and on each day, against independent readings (the
// total of the same analysis and DailySeries); a day without units has
// no cost per unit; a scoped metric divides only the costs of its scope
// (the total of the analysis filtered on that scope).
func TestCostPerUnit(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	req := CostRequest{Start: "2026-05-01", End: "2026-05-31"}
	from, _ := model.ParseDayNum(req.Start)
	to, _ := model.ParseDayNum(req.End)
	// Values before and after the period must not count; the 10th has none.
	orders := unitsCSV("date,metric,value", "orders", "", from-3, to+3, func(i int) float64 {
		if i == 3+9 {
			return -1
		}
		return float64(100 + 7*i)
	})
	res, err := s.ImportUnits(ctx, "orders.csv", strings.NewReader(orders))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Metrics) != 1 || res.Metrics[0].Name != "orders" || res.Metrics[0].Days != 36 {
		t.Fatalf("import: %+v", res)
	}
	a, err := s.Costs(ctx, CostRequest{Start: req.Start, End: req.End, Per: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	pu := a.Summary.PerUnit
	if pu == nil {
		t.Fatal("no per_unit")
	}
	var wantUnits float64
	for i := 3; i <= 3+30; i++ {
		if i != 3+9 {
			wantUnits += float64(100 + 7*i)
		}
	}
	if pu.Units != wantUnits || !relClose(pu.Cost, a.Summary.TotalCost) || pu.CostPerUnit == nil ||
		!relClose(*pu.CostPerUnit, a.Summary.TotalCost/wantUnits) {
		t.Fatalf("per unit %+v, total %v, units %v", pu, a.Summary.TotalCost, wantUnits)
	}
	// The previous span (31 days to April 30th) divides its own cost by its units: only
	// the three days before May have values.
	if pp := pu.Previous; pp == nil || a.Summary.Previous == nil || pp.Start != a.Summary.Previous.Start || pp.End != "2026-04-30" ||
		pp.Units != 100+107+114 || !relClose(pp.Cost, a.Summary.Previous.TotalCost) || !relClose(*pp.CostPerUnit, pp.Cost/pp.Units) {
		t.Fatalf("previous per unit %+v, previous %+v", pu.Previous, a.Summary.Previous)
	}
	series, _, err := s.DailySeries(ctx, req.Start, req.End, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(pu.DailyCosts) != 31 {
		t.Fatalf("%d days", len(pu.DailyCosts))
	}
	for i, d := range pu.DailyCosts {
		var cost float64
		for _, vals := range series {
			cost += vals[i]
		}
		if d.Date != (from+model.DayNum(i)).String() || !relClose(d.Cost, cost) {
			t.Fatalf("day %d: %+v, want cost %v", i, d, cost)
		}
		if i == 9 {
			if d.Units != 0 || d.CostPerUnit != nil {
				t.Errorf("a day without units: %+v", d)
			}
			continue
		}
		if want := float64(100 + 7*(i+3)); d.Units != want || d.CostPerUnit == nil || !relClose(*d.CostPerUnit, cost/want) {
			t.Errorf("day %d: %+v, want %v units", i, d, want)
		}
	}

	// A metric scoped to team=web divides the web team's costs only.
	web := unitsCSV("date,metric,value,team", "web_requests", ",web", from, to, func(int) float64 { return 1000 })
	if _, err := s.ImportUnits(ctx, "web.csv", strings.NewReader(web)); err != nil {
		t.Fatal(err)
	}
	scoped, err := s.Costs(ctx, CostRequest{Start: req.Start, End: req.End, Per: "web_requests"})
	if err != nil {
		t.Fatal(err)
	}
	onlyWeb, err := s.Costs(ctx, CostRequest{Start: req.Start, End: req.End, Filters: map[string][]string{"tag": {"team:web"}}})
	if err != nil {
		t.Fatal(err)
	}
	pw := scoped.Summary.PerUnit
	if onlyWeb.Summary.TotalCost <= 0 || onlyWeb.Summary.TotalCost >= scoped.Summary.TotalCost {
		t.Fatalf("the web team's cost %v is not a part of the total %v", onlyWeb.Summary.TotalCost, scoped.Summary.TotalCost)
	}
	if pw.Scope["tag:team"] != "web" || pw.Units != 31000 || !relClose(pw.Cost, onlyWeb.Summary.TotalCost) ||
		!relClose(*pw.CostPerUnit, onlyWeb.Summary.TotalCost/31000) {
		t.Fatalf("scoped per unit %+v, web cost %v", pw, onlyWeb.Summary.TotalCost)
	}
	// Reads only read: asking per a metric changes no total.
	if !relClose(scoped.Summary.TotalCost, a.Summary.TotalCost) {
		t.Errorf("total %v then %v", a.Summary.TotalCost, scoped.Summary.TotalCost)
	}
	// An unknown metric is a validation error naming the stored ones.
	_, err = s.Costs(ctx, CostRequest{Start: req.Start, End: req.End, Per: "nope"})
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.Validation || ae.Details["field"] != "per" {
		t.Fatalf("unknown metric: %v", err)
	}
}

// TestImportUnitsRefusesBadRows: a bad row fails the whole file naming
// its line, and nothing of the file is stored.
func TestImportUnitsRefusesBadRows(t *testing.T) {
	s := openFresh(t, nil)
	ctx := adminCtx()
	tests := []struct {
		name, csv string
		line      int
	}{
		{"bad date", "date,metric,value\n2026-01-01,orders,5\n2026-13-01,orders,5\n", 3},
		{"bad value", "date,metric,value\n2026-01-01,orders,5\n2026-01-02,orders,many\n", 3},
		{"negative", "date,metric,value\n2026-01-01,orders,-5\n", 2},
		{"no metric", "date,metric,value\n2026-01-01,orders,5\n2026-01-02,,5\n", 3},
		{"duplicate day", "date,metric,value\n2026-01-01,orders,5\n2026-01-02,orders,5\n2026-01-01,orders,6\n", 4},
		{"two scopes", "date,metric,value,team\n2026-01-01,orders,5,web\n2026-01-02,orders,5,api\n", 3},
		{"bad provider", "date,metric,value,provider\n2026-01-01,orders,5,aws\n2026-01-02,orders,5,ibm\n", 3},
		{"short row", "date,metric,value\n2026-01-01,orders,5\n2026-01-02,orders\n", 3},
		{"no value column", "date,metric,count\n2026-01-01,orders,5\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.ImportUnits(ctx, "f.csv", strings.NewReader(tt.csv))
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Kind != apperr.Validation || ae.Details["line"] != tt.line || ae.Details["file"] != "f.csv" {
				t.Fatalf("got %v (%+v), want a validation error on line %d", err, ae, tt.line)
			}
			if !strings.HasPrefix(ae.Message, fmt.Sprintf("f.csv:%d:", tt.line)) {
				t.Errorf("message %q does not start with the file and line", ae.Message)
			}
			ms, err := s.UnitMetrics(ctx)
			if err != nil || len(ms) != 0 {
				t.Fatalf("stored after a failed import: %v %v", ms, err)
			}
		})
	}
	// A metric stored with one scope is refused another, and keeps its values.
	if _, err := s.ImportUnits(ctx, "a.csv", strings.NewReader("date,metric,value,team\n2026-01-01,orders,5,web\n")); err != nil {
		t.Fatal(err)
	}
	_, err := s.ImportUnits(ctx, "b.csv", strings.NewReader("date,metric,value\n2026-01-02,orders,7\n2026-01-03,signups,1\n"))
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.Validation || ae.Details["line"] != 2 {
		t.Fatalf("scope change: %v", err)
	}
	ms, err := s.UnitMetrics(ctx)
	if err != nil || len(ms) != 1 || ms[0].Days != 1 || ms[0].Total != 5 {
		t.Fatalf("after a refused import: %+v %v", ms, err)
	}
	// Values replace those of the same day; delete removes the metric.
	if _, err := s.ImportUnits(ctx, "c.csv", strings.NewReader("date,metric,value,team\n2026-01-01,orders,8,web\n2026-01-02,orders,2,web\n")); err != nil {
		t.Fatal(err)
	}
	if ms, _ = s.UnitMetrics(ctx); len(ms) != 1 || ms[0].Days != 2 || ms[0].Total != 10 || ms[0].FirstDay != "2026-01-01" {
		t.Fatalf("after replacing: %+v", ms)
	}
	if err := s.DeleteUnitMetric(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteUnitMetric(ctx, "orders"); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("deleting twice: %v", err)
	}
}
