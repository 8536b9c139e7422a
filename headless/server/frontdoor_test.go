package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestCostFiltersReachTheService: every documented /api/costs parameter
// changes the answer exactly as the same query to the Service does, so a
// parameter dropped or swapped on the way fails here.
func TestCostFiltersReachTheService(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	token := e.token()
	ctx := adminCtx()
	days := func(n int) *int { return &n }
	tests := []struct {
		params string
		req    service.CostRequest
	}{
		{"", service.CostRequest{}},
		{"days=7", service.CostRequest{Days: days(7)}},
		{"start=2026-01-10&end=2026-02-20", service.CostRequest{Start: "2026-01-10", End: "2026-02-20"}},
		{"metric=list", service.CostRequest{Metric: "list"}},
		{"metric=effective", service.CostRequest{Metric: "effective"}},
		{"provider=aws", service.CostRequest{Provider: "aws"}},
		{"account=210987654321", service.CostRequest{Account: "210987654321"}},
		{"service=Amazon+Elastic+Compute+Cloud+-+Compute", service.CostRequest{Service: "Amazon Elastic Compute Cloud - Compute"}},
		{"tag=team:data", service.CostRequest{Tag: "team:data"}},
		{"days=90&account=123456789012&tag=environment:prod", service.CostRequest{Days: days(90), Account: "123456789012", Tag: "environment:prod"}},
	}
	var base float64
	for i, tt := range tests {
		res := e.do(req{path: "/api/costs?" + tt.params, bearer: token})
		if res.status != http.StatusOK {
			t.Fatalf("%s: %s", tt.params, fmtRes(res))
		}
		var got model.CostAnalysis
		if err := json.Unmarshal([]byte(res.body), &got); err != nil {
			t.Fatal(err)
		}
		q, err := e.svc.CostQuery(tt.req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.svc.AnalyzeCosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Summary.TotalCost != want.Summary.TotalCost || got.Summary.Metric != want.Summary.Metric ||
			got.Summary.AnalysisPeriod != want.Summary.AnalysisPeriod {
			t.Errorf("%s: total %v %s %v, the Service says %v %s %v", tt.params, got.Summary.TotalCost, got.Summary.Metric,
				got.Summary.AnalysisPeriod, want.Summary.TotalCost, want.Summary.Metric, want.Summary.AnalysisPeriod)
		}
		if i == 0 {
			base = got.Summary.TotalCost
		} else if tt.params != "provider=aws" && got.Summary.TotalCost == base {
			t.Errorf("%s: the same total as no filter at all (%v): the parameter does nothing here", tt.params, base)
		}
	}
}

// TestForecastParametersReachTheService: include_recommendations=false
// leaves the recommendations' impact out, days sets the horizon.
func TestForecastParametersReachTheService(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	token := e.token()
	for _, tt := range []struct {
		params     string
		period     int
		withImpact bool
	}{{"days=45", 45, true}, {"days=45&include_recommendations=false", 45, false}, {"", service.DefaultDays, true}} {
		res := e.do(req{path: "/api/forecast?" + tt.params, bearer: token})
		if res.status != http.StatusOK {
			t.Fatalf("%s: %s", tt.params, fmtRes(res))
		}
		var f model.Forecast
		if err := json.Unmarshal([]byte(res.body), &f); err != nil {
			t.Fatal(err)
		}
		if f.ForecastPeriod != tt.period || (f.RecommendationsImpact != nil) != tt.withImpact || len(f.DailyForecast) != tt.period {
			t.Errorf("%s: period %d, %d daily points, impact %v", tt.params, f.ForecastPeriod, len(f.DailyForecast), f.RecommendationsImpact != nil)
		}
	}
	for _, bad := range []string{"days=0", "days=366", "days=x", "include_recommendations=maybe"} {
		if res := e.do(req{path: "/api/forecast?" + bad, bearer: token}); res.status != http.StatusBadRequest {
			t.Errorf("%s: %s, want 400", bad, fmtRes(res))
		}
	}
}

// token creates an API token for the test user.
func (e *env) token() string {
	e.t.Helper()
	tok, err := e.svc.CreateToken(adminCtx(), service.TokenRequest{Name: "frontdoor"})
	if err != nil {
		e.t.Fatal(err)
	}
	return tok.Token
}

// TestListEndpointsAnswerTheirItems: alerts, runs and rule sets answer
// the items the Service holds, field by field, not just a list.
func TestListEndpointsAnswerTheirItems(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		c.Budgets = []config.Budget{{Name: "tiny", Amount: 1, Period: "monthly"}}
	})
	token := e.token()
	ctx := adminCtx()

	res := e.do(req{path: "/api/alerts", bearer: token})
	var alerts []model.Alert
	if err := json.Unmarshal([]byte(res.body), &alerts); err != nil || res.status != http.StatusOK {
		t.Fatalf("alerts: %s %v", fmtRes(res), err)
	}
	want, err := e.svc.Alerts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range alerts {
		found = found || (a.Kind == "budget" && a.Details["budget"] == "tiny")
	}
	if len(alerts) != len(want) || !found {
		t.Fatalf("alerts %+v, want %d with the tiny budget's", alerts, len(want))
	}

	if res := e.do(req{method: "POST", path: "/api/optimize", bearer: token}); res.status != http.StatusOK {
		t.Fatalf("optimize: %s", fmtRes(res))
	}
	res = e.do(req{path: "/api/runs", bearer: token})
	var runs []struct {
		ID     int64  `json:"id"`
		Kind   string `json:"kind"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(res.body), &runs); err != nil || len(runs) != 1 || runs[0].Kind != "optimize" || runs[0].Status == "" || runs[0].ID == 0 {
		t.Fatalf("runs: %s %v", fmtRes(res), err)
	}
	for _, bad := range []string{"limit=0x", "limit=501", "limit=-1"} {
		if res := e.do(req{path: "/api/runs?" + bad, bearer: token}); res.status != http.StatusBadRequest {
			t.Errorf("%s: %s, want 400", bad, fmtRes(res))
		}
	}

	body := `{"name":"by team","rules":{"method":"tag_based","tags":["team"]}}`
	if res := e.do(req{method: "POST", path: "/api/allocation/rules", body: body, bearer: token}); res.status != http.StatusOK {
		t.Fatalf("save rules: %s", fmtRes(res))
	}
	res = e.do(req{path: "/api/allocation/rules", bearer: token})
	var sets []struct {
		Name  string                `json:"name"`
		Rules model.AllocationRules `json:"rules"`
	}
	if err := json.Unmarshal([]byte(res.body), &sets); err != nil || len(sets) != 1 || sets[0].Name != "by team" ||
		sets[0].Rules.Method != "tag_based" || len(sets[0].Rules.Tags) != 1 || sets[0].Rules.Tags[0] != "team" {
		t.Fatalf("rule sets: %s %v", fmtRes(res), err)
	}
}

// TestResponseCacheOff: with performance.cache.enabled false every answer
// is computed again (the documented switch, used by benchmarks).
func TestResponseCacheOff(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		e := newEnv(t, func(c *config.Config) {
			c.Dashboard.RateLimit.Enabled = false
			c.Performance.Cache.Enabled = enabled
		})
		token := e.token()
		e.do(req{path: "/api/costs?days=30", bearer: token})
		res := e.do(req{path: "/api/costs?days=30", bearer: token})
		if hit := res.header.Get("X-Cache") == "HIT"; hit != enabled || res.status != http.StatusOK {
			t.Errorf("cache enabled %v: second answer %d, X-Cache %q", enabled, res.status, res.header.Get("X-Cache"))
		}
	}
}
