package service

import (
	"encoding/csv"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/period"
)

// spanSum sums DailySeries, an independent reading of the history, over
// an inclusive span, per provider.
func spanSum(t *testing.T, s *Service, from, to string) (float64, map[model.ProviderKey]float64) {
	t.Helper()
	series, _, err := s.DailySeries(adminCtx(), from, to, "")
	if err != nil {
		t.Fatal(err)
	}
	per := map[model.ProviderKey]float64{}
	var total float64
	for k, vals := range series {
		for _, v := range vals {
			per[k] += v
			total += v
		}
	}
	return total, per
}

func days(n int) *int { return &n }

// TestPeriodComparisons: for every period kind the previous span has the
// same number of days (or is the calendar unit before) and both spans'
// totals equal independent sums over the demo history.
func TestPeriodComparisons(t *testing.T) {
	s := openDemo(t, nil)
	tests := []struct {
		name     string
		req      CostRequest
		sameDays bool
	}{
		{"7 days", CostRequest{Days: days(7)}, true},
		{"30 days", CostRequest{Days: days(30)}, true},
		{"default", CostRequest{}, true},
		{"month to date", CostRequest{Period: "mtd"}, true},
		{"last month", CostRequest{Period: "last_month"}, false},
		{"quarter to date", CostRequest{Period: "qtd"}, true},
		{"last quarter", CostRequest{Period: "last_quarter"}, false},
		{"year to date", CostRequest{Period: "ytd"}, true},
		{"last 12 months", CostRequest{Period: "last_12_months", Granularity: "month"}, false},
		{"custom", CostRequest{Start: "2026-03-03", End: "2026-04-11", Granularity: "week"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := s.Costs(adminCtx(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			info, prev := a.Summary.Period, a.Summary.Previous
			if info == nil || prev == nil {
				t.Fatalf("no period or previous: %+v", a.Summary)
			}
			cur := spanOf(t, info.Start, info.End)
			before := spanOf(t, prev.Start, prev.End)
			if tt.sameDays && cur.Days() != before.Days() {
				t.Errorf("current %d days, previous %d", cur.Days(), before.Days())
			}
			if !tt.sameDays {
				// A calendar unit: the previous span is the same unit just before.
				if before.To+1 != cur.From || before.From.Time().Day() != 1 || cur.From.Time().Day() != 1 {
					t.Errorf("previous %s..%s is not the unit before %s..%s", prev.Start, prev.End, info.Start, info.End)
				}
			}
			if prev.Days != before.Days() || before.To >= cur.From {
				t.Errorf("previous %+v", prev)
			}
			total, per := spanSum(t, s, info.Start, info.End)
			if !relClose(total, a.Summary.TotalCost) {
				t.Errorf("total %f, independent sum %f", a.Summary.TotalCost, total)
			}
			ptotal, pper := spanSum(t, s, prev.Start, prev.End)
			if !relClose(ptotal, prev.TotalCost) {
				t.Errorf("previous total %f, independent sum %f", prev.TotalCost, ptotal)
			}
			for k, v := range pper {
				if !relClose(v, prev.Providers[k]) || !relClose(per[k], a.Providers[k].TotalCost) {
					t.Errorf("%s: previous %f vs %f, current %f vs %f", k, prev.Providers[k], v, a.Providers[k].TotalCost, per[k])
				}
			}
			var series float64
			for _, p := range a.Summary.Series {
				series += p.Cost
				if d := spanOf(t, p.Date, p.Date).From; period.Bucket(info.Granularity, d) != d {
					t.Errorf("series date %s does not start a %s", p.Date, info.Granularity)
				}
			}
			if !relClose(series, total) {
				t.Errorf("series sums to %f, total %f", series, total)
			}
		})
	}
}

func spanOf(t *testing.T, from, to string) period.Span {
	t.Helper()
	a, ok1 := model.ParseDayNum(from)
	b, ok2 := model.ParseDayNum(to)
	if !ok1 || !ok2 {
		t.Fatalf("bad span %q..%q", from, to)
	}
	return period.Span{From: a, To: b}
}

// TestSevenDayChangeIsPerDayChange is the headline: the 7-day
// comparison covers 7 days with data on both sides.
func TestSevenDayChangeIsPerDayChange(t *testing.T) {
	s := openDemo(t, nil)
	a, err := s.Costs(adminCtx(), CostRequest{Days: days(7)})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range model.AllProviders {
		if n := len(a.Providers[k].DailyCosts); n != 7 {
			t.Errorf("%s: %d days with data, want 7", k, n)
		}
	}
	if a.Summary.Period.End != "2026-06-09" || a.Summary.Previous.Start != "2026-05-27" || a.Summary.Previous.End != "2026-06-02" {
		t.Errorf("spans %+v / %+v", a.Summary.Period, a.Summary.Previous)
	}
}

// TestGroupsSumToTotal: grouping by every dimension gives groups that add
// up to the total, now and in the previous span, and match an independent
// grouping of the history's lines.
func TestGroupsSumToTotal(t *testing.T) {
	s := openDemo(t, nil)
	dims := append(model.Names(model.Dimensions), "tag:team", "tag:Environment")
	reqs := map[string]CostRequest{"40 days by day": {Days: days(40)}, "100 days by month": {Days: days(100), Granularity: "month"}}
	for name, base := range reqs {
		for _, d := range dims {
			base.GroupBy = d
			testGroups(t, s, name+"/"+d, base)
		}
	}
}

func testGroups(t *testing.T, s *Service, name string, req CostRequest) {
	ctx := adminCtx()
	d := req.GroupBy
	t.Run(name, func(t *testing.T) {
		{
			a, err := s.Costs(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Summary.Groups) < 2 && d != string(model.DimChargeCategory) { // the demo's charges are all usage
				t.Fatalf("%d groups", len(a.Summary.Groups))
			}
			var cur, prev float64
			for _, g := range a.Summary.Groups {
				cur += g.Cost
				prev += g.PreviousCost
			}
			if !relClose(cur, a.Summary.TotalCost) || !relClose(prev, a.Summary.Previous.TotalCost) {
				t.Errorf("groups sum to %f / %f, totals %f / %f", cur, prev, a.Summary.TotalCost, a.Summary.Previous.TotalCost)
			}
			want := independentGroups(t, s, model.Dimension(d), a.Summary.Period.Start, a.Summary.Period.End)
			for _, g := range a.Summary.Groups {
				if g.Other > 0 {
					continue
				}
				if w := want[strings.ToLower(g.Key)]; !relClose(w, g.Cost) {
					t.Errorf("group %q: %f, independent %f", g.Key, g.Cost, w)
				}
			}
			for i, g := range a.Summary.Groups {
				if i < analysis.SeriesGroups && g.Cost > 0 && len(g.Series) == 0 {
					t.Errorf("group %q has no series", g.Key)
				}
				var sum float64
				for _, p := range g.Series {
					sum += p.Cost
				}
				if len(g.Series) > 0 && !relClose(sum, g.Cost) {
					t.Errorf("group %q series sums to %f, cost %f", g.Key, sum, g.Cost)
				}
			}
		}
	})
}

// independentGroups groups the history's lines in Go.
func independentGroups(t *testing.T, s *Service, d model.Dimension, from, to string) map[string]float64 {
	t.Helper()
	ctx := adminCtx()
	sc := s.scope(ctx, model.AllProviders)
	sc.From, sc.To = from, to
	lines, err := s.store.Lines(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, l := range lines {
		out[strings.ToLower(lineValue(l, d))] += l.Billed.Float64()
	}
	return out
}

func lineValue(l model.CostLine, d model.Dimension) string {
	v := ""
	switch d {
	case model.DimProvider:
		v = string(l.Provider)
	case model.DimBillingAccount:
		v = l.BillingAccount
	case model.DimSubAccount:
		v = l.SubAccount
	case model.DimService:
		v = l.Service
	case model.DimServiceCategory:
		v = l.ServiceCategory
	case model.DimRegion:
		v = l.Region
	case model.DimResource:
		v = l.ResourceID
	case model.DimChargeCategory:
		v = l.ChargeCategory
	default:
		k, _ := d.TagKey()
		v = strings.TrimSpace(model.TagValue(l.Tags, k))
	}
	if v == "" {
		return model.NoValue
	}
	return v
}

// TestFilters: multi-valued filters, untagged, and tag matching that
// ignores case, against an independent filter of the lines.
func TestFilters(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	tests := []struct {
		name    string
		filters map[string][]string
		keep    func(model.CostLine) bool
	}{
		{"two providers", map[string][]string{"provider": {"aws", "gcp"}}, func(l model.CostLine) bool { return l.Provider == "aws" || l.Provider == "gcp" }},
		{"untagged team", map[string][]string{"tag": {"team:" + model.NoValue}}, func(l model.CostLine) bool { return model.TagValue(l.Tags, "team") == "" }},
		{"tag ignoring case", map[string][]string{"tag": {"TEAM:PLATFORM"}}, func(l model.CostLine) bool { return strings.EqualFold(model.TagValue(l.Tags, "team"), "platform") }},
		{"tag values or untagged", map[string][]string{"tag": {"team:platform", "team:" + model.NoValue}}, func(l model.CostLine) bool {
			v := model.TagValue(l.Tags, "team")
			return v == "" || strings.EqualFold(v, "platform")
		}},
		{"regions and provider", map[string][]string{"region": {"us-east-1", "eastus"}, "provider": {"aws"}}, func(l model.CostLine) bool {
			return l.Provider == "aws" && (l.Region == "us-east-1" || l.Region == "eastus")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := s.Costs(ctx, CostRequest{Days: days(30), Filters: tt.filters})
			if err != nil {
				t.Fatal(err)
			}
			sc := s.scope(ctx, model.AllProviders)
			sc.From, sc.To = a.Summary.Period.Start, a.Summary.Period.End
			lines, err := s.store.Lines(ctx, sc)
			if err != nil {
				t.Fatal(err)
			}
			var want float64
			for _, l := range lines {
				if tt.keep(l) {
					want += l.Billed.Float64()
				}
			}
			if want == 0 || !relClose(want, a.Summary.TotalCost) {
				t.Errorf("total %f, independent %f", a.Summary.TotalCost, want)
			}
		})
	}
	if _, err := s.Costs(ctx, CostRequest{Filters: map[string][]string{"colour": {"red"}}}); apperr.KindOf(err) != apperr.Validation {
		t.Errorf("unknown filter: %v", err)
	}
	if _, err := s.Costs(ctx, CostRequest{GroupBy: "colour"}); apperr.KindOf(err) != apperr.Validation {
		t.Errorf("unknown grouping: %v", err)
	}
}

// TestAccountNames: the names a FOCUS export gives its billing accounts
// label the account groups, and the config's accounts: map wins.
func TestAccountNames(t *testing.T) {
	path := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idCol, nameCol := slices.Index(recs[0], "BillingAccountId"), slices.Index(recs[0], "BillingAccountName")
	id, name := recs[1][idCol], recs[1][nameCol]
	if id == "" || name == "" || name == id {
		t.Fatalf("the sample's first row has account %q named %q", id, name)
	}
	cfg := exportConfig(t)
	s := openFresh(t, cfg)
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	label := func() string {
		t.Helper()
		a, err := s.Costs(ctx, CostRequest{Start: "2023-07-01", End: "2026-06-09", GroupBy: "billing_account"})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range a.Summary.Groups {
			if g.Key == id {
				return g.Label
			}
		}
		t.Fatalf("no group for account %s in %+v", id, a.Summary.Groups)
		return ""
	}
	if got := label(); got != name+" ("+id+")" {
		t.Errorf("label %q, want the export's name %q", got, name)
	}
	cfg.Accounts = map[string]string{id: "Renamed here"}
	if got := label(); got != "Renamed here ("+id+")" {
		t.Errorf("label %q, want the config's name", got)
	}
}

// TestAccountNamesFromEveryExport: the name columns of Azure's EA export
// (BillingAccountName, SubscriptionName) and OCI's cost report
// (product/compartmentName) name their ids, as FOCUS's do.
func TestAccountNamesFromEveryExport(t *testing.T) {
	ctx := adminCtx()
	s := openFresh(t, exportConfig(t))
	want := map[string]map[string]string{}
	for _, c := range []struct{ file, idCol, nameCol string }{
		{"azure-ea-export-sample.csv", "SubscriptionId", "SubscriptionName"},
		{"azure-ea-export-sample.csv", "BillingAccountId", "BillingAccountName"},
		{"oci-cost-report-sample.csv", "product/compartmentId", "product/compartmentName"},
	} {
		header, rows := readCSV(t, sharedFile(t, c.file))
		id, name := column(t, header, c.idCol), column(t, header, c.nameCol)
		if want[c.file] == nil {
			want[c.file] = map[string]string{}
		}
		want[c.file][rows[0][id]] = rows[0][name]
	}
	for file := range want {
		if _, err := s.ImportFiles(ctx, []string{sharedFile(t, file)}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.AccountNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for file, ids := range want {
		for id, name := range ids {
			if id == "" || name == "" {
				t.Fatalf("%s: the sample's first row has %q named %q", file, id, name)
			}
			if got[id] != name {
				t.Errorf("%s: %s is named %q, want %q", file, id, got[id], name)
			}
		}
	}
}

// TestDemoAccountsHaveNames: the demo names its accounts as a cloud's
// console would, through the same path as live syncs.
func TestDemoAccountsHaveNames(t *testing.T) {
	s := openDemo(t, nil)
	names, err := s.AccountNames(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	if names["123456789012"] != "acme-prod" || names["8f2d7c1e-4b3a-4e8f-9a21-7c5d3e1f0a42"] != "Production" {
		t.Fatalf("demo account names %v", names)
	}
}
