package server

import (
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

type wireAnalysis struct {
	Summary model.CostSummary `json:"summary"`
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// independent sums the Service's DailySeries over an inclusive span.
func (e *env) independent(from, to string) float64 {
	e.t.Helper()
	series, _, err := e.svc.DailySeries(adminCtx(), from, to, "")
	if err != nil {
		e.t.Fatal(err)
	}
	var total float64
	for _, vals := range series {
		for _, v := range vals {
			total += v
		}
	}
	return total
}

func (e *env) analysis(path, bearer string) wireAnalysis {
	e.t.Helper()
	res := e.do(req{path: path, bearer: bearer})
	if res.status != http.StatusOK {
		e.t.Fatalf("%s: %s", path, fmtRes(res))
	}
	var a wireAnalysis
	if err := json.Unmarshal([]byte(res.body), &a); err != nil {
		e.t.Fatal(err)
	}
	return a
}

// TestCostsComparePeriods: /api/costs answers each period kind with the
// previous span of the same length or calendar unit, and both totals
// equal independent sums over the demo history.
func TestCostsComparePeriods(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	token := e.token()
	for _, q := range []string{"days=7", "days=30", "period=mtd", "period=last_month", "period=qtd", "period=last_quarter",
		"period=ytd", "period=last_12_months&granularity=month", "start=2026-01-05&end=2026-02-03&granularity=week"} {
		a := e.analysis("/api/costs?"+q, token)
		p, prev := a.Summary.Period, a.Summary.Previous
		if p == nil || prev == nil {
			t.Fatalf("%s: no period or previous", q)
		}
		cur, before := spanDays(t, p.Start, p.End), spanDays(t, prev.Start, prev.End)
		calendar := strings.Contains(q, "last_")
		if !calendar && cur != before || prev.End >= p.Start {
			t.Errorf("%s: %s..%s (%d days) against %s..%s (%d days)", q, p.Start, p.End, cur, prev.Start, prev.End, before)
		}
		if calendar && !strings.HasSuffix(prev.Start, "-01") {
			t.Errorf("%s: previous %s..%s is not a calendar unit", q, prev.Start, prev.End)
		}
		if w := e.independent(p.Start, p.End); !near(w, a.Summary.TotalCost) {
			t.Errorf("%s: total %f, independent %f", q, a.Summary.TotalCost, w)
		}
		if w := e.independent(prev.Start, prev.End); !near(w, prev.TotalCost) {
			t.Errorf("%s: previous total %f, independent %f", q, prev.TotalCost, w)
		}
	}
}

func spanDays(t *testing.T, from, to string) int {
	a, ok1 := model.ParseDayNum(from)
	b, ok2 := model.ParseDayNum(to)
	if !ok1 || !ok2 {
		t.Fatalf("span %q..%q", from, to)
	}
	return int(b-a) + 1
}

// TestCostsGroupBy: grouping by every dimension sums to the total, and a
// future end is cut at today with a notice.
func TestCostsGroupBy(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	token := e.token()
	for _, d := range append(model.Names(model.Dimensions), "tag:team") {
		a := e.analysis("/api/costs?days=30&group_by="+url.QueryEscape(d), token)
		var sum, prev float64
		for _, g := range a.Summary.Groups {
			sum += g.Cost
			prev += g.PreviousCost
		}
		if len(a.Summary.Groups) == 0 || string(a.Summary.GroupBy) != d || !near(sum, a.Summary.TotalCost) || !near(prev, a.Summary.Previous.TotalCost) {
			t.Errorf("%s: %d groups summing to %f / %f, totals %f / %f", d, len(a.Summary.Groups), sum, prev, a.Summary.TotalCost, a.Summary.Previous.TotalCost)
		}
	}
	today := testNow.Format(model.DateLayout)
	a := e.analysis("/api/costs?start=2026-03-01&end=2099-12-31", token)
	if !a.Summary.Period.Cut || a.Summary.Period.End != today || len(a.Summary.Notices) == 0 || a.Summary.Notices[len(a.Summary.Notices)-1].Kind != model.NoticePeriodCut {
		t.Errorf("future end: %+v, notices %+v", a.Summary.Period, a.Summary.Notices)
	}
	for _, bad := range []string{"group_by=colour", "period=fortnight", "granularity=hour", "region=", "provider=moon", "period=last_month&days=7"} {
		res := e.do(req{path: "/api/costs?" + bad, bearer: token})
		if m, ok := res.errorShape(); bad != "region=" && (res.status != 400 || !ok || m["error_type"] != "ValidationError") {
			t.Errorf("%s: %s", bad, fmtRes(res))
		}
	}
	res := e.do(req{path: "/api/tags?days=30", bearer: token})
	var tags map[string][]string
	if res.status != 200 || json.Unmarshal([]byte(res.body), &tags) != nil || len(tags["team"]) == 0 {
		t.Errorf("tags: %s", fmtRes(res))
	}
}

// TestSavedViews: create, list, use, replace and delete a view; a view
// created by one user is there for another.
func TestSavedViews(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	token := e.token()
	ck := e.mustLogin()
	body := `{"name":"Platform by service","spec":{"period":"last_month","group_by":"service","filters":{"tag":["team:platform"]}}}`
	res := e.do(req{method: "POST", path: "/api/views", body: body, bearer: token})
	if res.status != 200 || !strings.Contains(res.body, `"created_by":"token:`) {
		t.Fatalf("create: %s", fmtRes(res))
	}
	if res := e.do(req{method: "POST", path: "/api/views", body: body, bearer: token}); res.status != 400 {
		t.Errorf("create twice: %s", fmtRes(res))
	}
	if res := e.do(req{method: "POST", path: "/api/views", body: `{"name":"bad","spec":{"group_by":"colour"}}`, bearer: token}); res.status != 400 {
		t.Errorf("an invalid view: %s", fmtRes(res))
	}
	res = e.do(req{path: "/api/views", cookie: ck})
	if res.status != 200 || !strings.Contains(res.body, `"Platform by service"`) {
		t.Fatalf("list as a session: %s", fmtRes(res))
	}
	viaView := e.analysis("/api/costs?view="+url.QueryEscape("platform by service"), token)
	direct := e.analysis("/api/costs?period=last_month&group_by=service&tag=team:platform", token)
	if viaView.Summary.TotalCost != direct.Summary.TotalCost || viaView.Summary.GroupBy != "service" || viaView.Summary.Period.Kind != model.PeriodLastMonth {
		t.Errorf("the view gives %v %s, its query %v", viaView.Summary.TotalCost, viaView.Summary.GroupBy, direct.Summary.TotalCost)
	}
	res = e.do(req{method: "PUT", path: "/api/views/" + url.PathEscape("Platform by service"), body: `{"spec":{"period":"mtd"}}`, cookie: ck})
	if res.status != 200 || !strings.Contains(res.body, `"period":"mtd"`) {
		t.Fatalf("replace: %s", fmtRes(res))
	}
	if a := e.analysis("/api/costs?view="+url.QueryEscape("Platform by service"), token); a.Summary.Period.Kind != model.PeriodMonthToDate {
		t.Errorf("after the change the view still answers %s", a.Summary.Period.Kind)
	}
	if res := e.do(req{method: "DELETE", path: "/api/views/" + url.PathEscape("Platform by service"), bearer: token}); res.status != 200 {
		t.Fatalf("delete: %s", fmtRes(res))
	}
	for _, r := range []req{{path: "/api/costs?view=nothing", bearer: token}, {method: "DELETE", path: "/api/views/nothing", bearer: token}} {
		if res := e.do(r); res.status != 404 {
			t.Errorf("%s %s: %s", r.method, r.path, fmtRes(res))
		}
	}
}

// TestLoginReturnsToTheDeepLink: a page asked for before logging in is
// where the login goes; other hosts and odd paths go to /.
func TestLoginReturnsToTheDeepLink(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	res := e.do(req{path: "/?period=last_month&group_by=service"})
	loc := res.header.Get("Location")
	if res.status != http.StatusSeeOther || loc != "/login?next="+url.QueryEscape("/?period=last_month&group_by=service") {
		t.Fatalf("redirect to %q (%d)", loc, res.status)
	}
	page := e.do(req{path: loc})
	if !strings.Contains(page.body, `name="next" value="/?period=last_month&amp;group_by=service"`) {
		t.Fatalf("the form does not carry next: %.600s", page.body)
	}
	form := url.Values{"username": {testUser}, "password": {testPassword}, "next": {"/?period=last_month&group_by=service"}}
	if res := e.do(req{method: "POST", path: "/login", form: form}); res.header.Get("Location") != "/?period=last_month&group_by=service" {
		t.Errorf("after login: %q", res.header.Get("Location"))
	}
	for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "/login?next=/x", "javascript:alert(1)", "/api/costs"} {
		if got := safeNext(next); got != "/" {
			t.Errorf("safeNext(%q) = %q", next, got)
		}
	}
}
