package units

import (
	"errors"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// TestParseScopes: scope columns become dimensions or tag keys, empty
// cells leave a metric unscoped, and the values land on their days.
func TestParseScopes(t *testing.T) {
	in := "\ufeffDate,Metric,Value,team,provider,tag:service\n" +
		"2026-01-01,orders,10,,,\n" +
		"2026-01-02,orders,12.5,,,\n" +
		"\n" +
		"2026-01-01,web,3,web,aws,checkout\n"
	got, err := Parse(strings.NewReader(in), "u.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Metric != "orders" || len(got[0].Scope) != 0 || got[0].Line != 2 {
		t.Fatalf("%+v", got)
	}
	d1, _ := model.ParseDayNum("2026-01-02")
	if got[0].Values[d1] != 12.5 || len(got[0].Values) != 2 {
		t.Errorf("values %v", got[0].Values)
	}
	want := map[string]string{"tag:team": "web", "provider": "aws", "tag:service": "checkout"}
	if !SameScope(got[1].Scope, want) || got[1].Line != 5 {
		t.Errorf("scope %v line %d", got[1].Scope, got[1].Line)
	}
	f := Filters(got[1].Scope)
	if len(f) != 3 || f[0].Dim != model.DimProvider || f[1].Dim != model.TagDimension("service") || f[2].Values[0] != "web" {
		t.Errorf("filters %+v", f)
	}
	if s := model.FormatScope(got[1].Scope); s != "provider=aws,service=checkout,team=web" {
		t.Errorf("format %q", s)
	}
}

// TestParseBounds: an oversized file and a bad header column are
// refused naming the file.
func TestParseBounds(t *testing.T) {
	big := "date,metric,value\n" + strings.Repeat("2026-01-01,x,1\n", MaxBytes/15+1)
	for name, in := range map[string]string{"too big": big, "bad column": "date,metric,value,te\\am\n", "empty": ""} {
		_, err := Parse(strings.NewReader(in), "u.csv")
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Kind != apperr.Validation || ae.Details["file"] != "u.csv" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestDivide: every day of the span, none per unit without units.
func TestDivide(t *testing.T) {
	from, _ := model.ParseDayNum("2026-01-01")
	p := Divide("m", nil, from, from+2, map[model.DayNum]float64{from: 10, from + 1: 4, from + 2: 6}, map[model.DayNum]float64{from: 5, from + 2: 3})
	if p.Units != 8 || p.Cost != 20 || *p.CostPerUnit != 2.5 || len(p.DailyCosts) != 3 || p.Scope == nil {
		t.Fatalf("%+v", p)
	}
	if *p.DailyCosts[0].CostPerUnit != 2 || p.DailyCosts[1].CostPerUnit != nil || *p.DailyCosts[2].CostPerUnit != 2 {
		t.Errorf("%+v", p.DailyCosts)
	}
	if q := Divide("m", nil, from, from, nil, nil); q.CostPerUnit != nil {
		t.Errorf("no units: %+v", q)
	}
}
