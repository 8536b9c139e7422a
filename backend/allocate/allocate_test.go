package allocate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func usd(day, service, category, resource string, billed float64, tags map[string]string) model.CostLine {
	return model.CostLine{
		Provider: model.AWS, Day: day, BillingAccount: "111", SubAccount: "222",
		Service: service, ChargeCategory: category, ResourceID: resource, Tags: tags,
		Currency: "USD", Billed: model.NanosFromFloat(billed),
		Effective: model.NanosFromFloat(billed * 0.5), List: model.NanosFromFloat(billed * 2),
	}
}

// fixture has hand-checked totals: direct platform 150 (apollo 100, zeus
// 50), data 30 (apollo), finance 20 (hermes, via cost-center), 10 untagged,
// and 20 shared (18 support, 2 tax): 230 in all.
func fixture() []model.CostLine {
	return []model.CostLine{
		usd("2026-01-01", "Amazon EC2", "Usage", "i-1", 100, map[string]string{"team": "platform", "project": "apollo"}),
		usd("2026-01-02", "Amazon EC2", "Usage", "i-2", 50, map[string]string{"team": "Platform", "project": "zeus"}),
		usd("2026-01-02", "Virtual Machines", "Usage", "vm-1", 30, map[string]string{"Team": "data", "project": "apollo"}),
		usd("2026-01-03", "Compute Engine", "Usage", "gce-1", 20, map[string]string{"cost-center": "finance", "project": "hermes"}),
		usd("2026-01-03", "Amazon S3", "Usage", "bucket", 10, nil),
		usd("2026-01-03", "AWS Support (Business)", "Usage", "", 18, nil),
		usd("2026-01-03", "Amazon EC2", "Tax", "", 2, map[string]string{"team": "platform"}),
	}
}

func tagRules() model.AllocationRules {
	return model.AllocationRules{
		Method:      MethodTagBased,
		Tags:        []string{"team", "cost-center", "project"},
		Departments: []string{"platform", "data", "finance"},
		Projects:    []string{"apollo", "zeus", "hermes"},
	}
}

func TestAllocateHandComputed(t *testing.T) {
	even := 20.0 / 3
	tests := []struct {
		name        string
		mutate      func(*model.AllocationRules)
		metric      model.CostMetric
		scale       float64
		byDept      map[string]float64
		byProject   map[string]float64
		unallocated float64
		matched     map[string]float64
	}{
		{
			name:        "proportional shared split (default)",
			byDept:      map[string]float64{"platform": 165, "data": 33, "finance": 22},
			byProject:   map[string]float64{"apollo": 143, "zeus": 55, "hermes": 22},
			unallocated: 10,
			matched:     map[string]float64{"tag:team": 180, "tag:cost-center": 20, "shared:proportional": 20},
		},
		{
			name:        "even shared split",
			mutate:      func(r *model.AllocationRules) { r.SharedSplit = SplitEven },
			byDept:      map[string]float64{"platform": 150 + even, "data": 30 + even, "finance": 20 + even},
			byProject:   map[string]float64{"apollo": 130 + even*100/150 + even, "zeus": 50 + even*50/150, "hermes": 20 + even},
			unallocated: 10,
		},
		{
			name: "fixed shared split",
			mutate: func(r *model.AllocationRules) {
				r.SharedSplit = SplitFixed
				r.SharedPercentages = map[string]float64{"platform": 50, "data": 25, "finance": 25}
			},
			byDept:      map[string]float64{"platform": 160, "data": 35, "finance": 25},
			byProject:   map[string]float64{"apollo": 100 + 20.0/3 + 35, "zeus": 50 + 10.0/3, "hermes": 25},
			unallocated: 10,
		},
		{
			name:        "effective metric halves every amount",
			metric:      model.MetricEffective,
			byDept:      map[string]float64{"platform": 82.5, "data": 16.5, "finance": 11},
			byProject:   map[string]float64{"apollo": 71.5, "zeus": 27.5, "hermes": 11},
			unallocated: 5,
		},
		{
			name: "values outside the departments list are unallocated",
			mutate: func(r *model.AllocationRules) {
				r.Departments = []string{"platform"}
				r.Tags = []string{"team", "project"}
			},
			// data and finance lines join the untagged 10; shared all to platform.
			byDept:      map[string]float64{"platform": 170},
			byProject:   map[string]float64{"apollo": 100 + 20.0*100/150, "zeus": 50 + 20.0*50/150},
			unallocated: 60,
		},
		{
			name: "empty lists take department and project from the tag value",
			mutate: func(r *model.AllocationRules) {
				r.Departments, r.Projects, r.Tags = nil, nil, []string{"team"}
			},
			// platform 100 (lower case) and Platform 50 are different values.
			byDept: map[string]float64{
				"platform": 100 + 20.0*100/180, "Platform": 50 + 20.0*50/180, "data": 30 + 20.0*30/180,
			},
			byProject: map[string]float64{
				"platform": 100 + 20.0*100/180, "Platform": 50 + 20.0*50/180, "data": 30 + 20.0*30/180,
			},
			unallocated: 30,
		},
		{
			name: "period limits the lines",
			mutate: func(r *model.AllocationRules) {
				r.Start, r.End = "2026-01-02", "2026-01-02"
			},
			byDept:    map[string]float64{"platform": 50, "data": 30},
			byProject: map[string]float64{"zeus": 50, "apollo": 30},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tagRules()
			if tt.mutate != nil {
				tt.mutate(&r)
			}
			res, err := Allocate(fixture(), r, tt.metric)
			if err != nil {
				t.Fatalf("Allocate: %v", err)
			}
			ac := res.AllocatedCosts
			assertMap(t, "by_department", ac.ByDepartment, tt.byDept)
			assertMap(t, "by_project", ac.ByProject, tt.byProject)
			if !near(ac.Unallocated, tt.unallocated) {
				t.Errorf("unallocated = %v, want %v", ac.Unallocated, tt.unallocated)
			}
			if tt.matched != nil {
				assertMap(t, "matched_rules", res.MatchedRules, tt.matched)
			}
			assertAddsUp(t, res)
			if res.Currency != "USD" {
				t.Errorf("currency = %q", res.Currency)
			}
		})
	}
}

func TestAllocateOtherMethods(t *testing.T) {
	lines := []model.CostLine{
		{Day: "2026-02-01", BillingAccount: "payer", SubAccount: "prod-1", Service: "EC2", ResourceID: "i-web-1", Currency: "EUR", Billed: 40 * model.NanosPerUnit},
		{Day: "2026-02-01", BillingAccount: "payer", SubAccount: "dev-1", Service: "EC2", ResourceID: "db-main", Currency: "EUR", Billed: 25 * model.NanosPerUnit},
		{Day: "2026-02-02", BillingAccount: "SUB-AZ", Service: "VMs", ResourceID: "/subscriptions/x/vm/batch-7", Tags: map[string]string{"Name": "web-batch"}, Currency: "EUR", Billed: 35 * model.NanosPerUnit},
		{Day: "2026-02-02", BillingAccount: "other", Service: "Support", Currency: "EUR", Billed: 10 * model.NanosPerUnit},
	}
	tests := []struct {
		name        string
		rules       model.AllocationRules
		byDept      map[string]float64
		unallocated float64
		matched     map[string]float64
	}{
		{
			name:   "account: sub-account first, billing account ignoring case",
			rules:  model.AllocationRules{Method: MethodAccount, Accounts: map[string]string{"prod-1": "web", "payer": "shared-it", "sub-az": "data"}, SharedSplit: SplitEven},
			byDept: map[string]float64{"web": 40 + 10.0/3, "shared-it": 25 + 10.0/3, "data": 35 + 10.0/3},
			matched: map[string]float64{
				"account:prod-1": 40, "account:payer": 25, "account:SUB-AZ": 35, "shared:even": 10,
			},
		},
		{
			name:        "regex on resource id, then the Name tag",
			rules:       model.AllocationRules{Method: MethodRegex, Patterns: map[string]string{"^i-web": "web", "^web-": "web", "^db-": "data"}},
			byDept:      map[string]float64{"web": 75 + 7.5, "data": 25 + 2.5},
			unallocated: 0,
			matched:     map[string]float64{"regex:^i-web": 40, "regex:^web-": 35, "regex:^db-": 25, "shared:proportional": 10},
		},
		{
			name:        "nothing matches: shared cost is unallocated too",
			rules:       model.AllocationRules{Method: MethodRegex, Patterns: map[string]string{"^nomatch$": "x"}},
			byDept:      map[string]float64{},
			unallocated: 110,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Allocate(lines, tt.rules, "")
			if err != nil {
				t.Fatalf("Allocate: %v", err)
			}
			assertMap(t, "by_department", res.AllocatedCosts.ByDepartment, tt.byDept)
			if !near(res.AllocatedCosts.Unallocated, tt.unallocated) {
				t.Errorf("unallocated = %v, want %v", res.AllocatedCosts.Unallocated, tt.unallocated)
			}
			if tt.matched != nil {
				assertMap(t, "matched_rules", res.MatchedRules, tt.matched)
			}
			assertAddsUp(t, res)
			if res.Period.StartDate != "2026-02-01T00:00:00" || res.Period.EndDate != "2026-02-02T23:59:59" {
				t.Errorf("period = %+v", res.Period)
			}
		})
	}
}

func TestAllocateErrors(t *testing.T) {
	mixed := append(fixture(), model.CostLine{Day: "2026-01-01", Currency: "EUR", Billed: 1})
	tests := []struct {
		name   string
		lines  []model.CostLine
		rules  model.AllocationRules
		metric model.CostMetric
		field  string
	}{
		{name: "mixed currencies", lines: mixed, rules: tagRules()},
		{name: "unknown method", rules: model.AllocationRules{Method: "magic"}, field: "method"},
		{name: "unknown metric", rules: tagRules(), metric: "amortized", field: "metric"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Allocate(tt.lines, tt.rules, tt.metric)
			if apperr.KindOf(err) != apperr.Validation {
				t.Fatalf("kind = %q (%v), want Validation", apperr.KindOf(err), err)
			}
			if tt.field != "" {
				if e, _ := apperr.As(err); e.Details["field"] != tt.field {
					t.Errorf("field = %v, want %s", e.Details["field"], tt.field)
				}
			}
		})
	}
}

// TestAllocateAddsUpRandom checks the invariants on random data with
// sub-micro amounts, credits and every split.
func TestAllocateAddsUpRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := []string{"a", "b", "c", "d", ""}
	services := []string{"EC2", "S3", "Support", "Tax", "Lambda"}
	for _, split := range []string{SplitEven, SplitProportional, SplitFixed} {
		for iter := 0; iter < 20; iter++ {
			var lines []model.CostLine
			for i := 0; i < 200; i++ {
				tags := map[string]string{}
				if v := values[rng.IntN(len(values))]; v != "" {
					tags["team"] = v
				}
				if v := values[rng.IntN(len(values))]; v != "" {
					tags["project"] = "p" + v
				}
				amt := model.Nanos(rng.Int64N(2_000_000_000_000) - 100_000_000_000)
				lines = append(lines, model.CostLine{Day: "2026-03-01", Service: services[rng.IntN(len(services))], Tags: tags, Currency: "USD", Billed: amt})
			}
			r := model.AllocationRules{Method: MethodTagBased, Tags: []string{"team", "project"}, Departments: []string{"a", "b", "c"}, SharedSplit: split}
			if split == SplitFixed {
				r.SharedPercentages = map[string]float64{"a": 33.33, "b": 33.33, "z": 33.34}
			}
			res, err := Allocate(lines, r, "")
			if err != nil {
				t.Fatal(err)
			}
			assertAddsUp(t, res)
		}
	}
}

func assertAddsUp(t *testing.T, res model.AllocationResult) {
	t.Helper()
	ac := res.AllocatedCosts
	var d, p float64
	for _, v := range ac.ByDepartment {
		d += v
	}
	for _, v := range ac.ByProject {
		p += v
	}
	if !near(d+ac.Unallocated, ac.Total) {
		t.Errorf("by_department %v + unallocated %v != total %v", d, ac.Unallocated, ac.Total)
	}
	if !near(p+ac.Unallocated, ac.Total) {
		t.Errorf("by_project %v + unallocated %v != total %v", p, ac.Unallocated, ac.Total)
	}
}

func assertMap(t *testing.T, name string, got, want map[string]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", name, got, want)
		return
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !near(g, w) {
			t.Errorf("%s[%q] = %v, want %v", name, k, g, w)
		}
	}
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
