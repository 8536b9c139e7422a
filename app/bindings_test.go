package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/headless/server"
)

var testNow = time.Date(2026, 3, 15, 10, 30, 0, 0, time.UTC)

// openService opens a demo Service with AWS only: filling a fresh data
// dir with 400 days of demo history is the slow part of these tests.
func openService(t *testing.T, dir string) *service.Service {
	t.Helper()
	cfg := config.Default()
	cfg.Azure.Enabled, cfg.GCP.Enabled, cfg.OCI.Enabled = false, false, false
	s, err := service.OpenWith(context.Background(), cfg, service.Options{DataDir: dir,
		Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	warmOnce sync.Once
	warm     *service.Service
	errWarm  error
	warmDir  string
)

// warmService is one shared Service whose history is filled, for the tests
// that read data without changing it.
func warmService(t *testing.T) *service.Service {
	t.Helper()
	warmOnce.Do(func() {
		warmDir, errWarm = os.MkdirTemp("", "costpilot-app-test-")
		if errWarm != nil {
			return
		}
		warm = openService(t, warmDir)
		errWarm = warm.Refresh(adminCtx())
	})
	if errWarm != nil {
		t.Fatal(errWarm)
	}
	return warm
}

func TestMain(m *testing.M) {
	code := m.Run()
	if warm != nil {
		warm.Close()
		os.RemoveAll(warmDir)
	}
	os.Exit(code)
}

// httpTwin maps each binding to the HTTP route that serves the same Service
// call; desktopOnly lists, with the reason, the bindings that have none.
var (
	httpTwin = map[string]server.Route{
		"AnalyzeCosts":               {Method: "GET", Path: "/api/costs"},
		"CostResources":              {Method: "GET", Path: "/api/costs/resources"},
		"AICosts":                    {Method: "GET", Path: "/api/ai/costs"},
		"Commitments":                {Method: "GET", Path: "/api/commitments"},
		"TagCoverage":                {Method: "GET", Path: "/api/allocation/coverage"},
		"Contracts":                  {Method: "GET", Path: "/api/contracts"},
		"GenerateRecommendations":    {Method: "GET", Path: "/api/recommendations"},
		"Recommendation":             {Method: "GET", Path: "/api/recommendations/{id}"},
		"RecommendationsNotAssessed": {Method: "GET", Path: "/api/recommendations/not-assessed"},
		"SetRecommendationState":     {Method: "POST", Path: "/api/recommendations/{id}/state"},
		"ListBudgets":                {Method: "GET", Path: "/api/budgets"},
		"ListAnomalies":              {Method: "GET", Path: "/api/anomalies"},
		"Anomaly":                    {Method: "GET", Path: "/api/anomalies/{id}"},
		"DecideAnomaly":              {Method: "POST", Path: "/api/anomalies/{id}/decision"},
		"SaveBudget":                 {Method: "POST", Path: "/api/budgets"},
		"DeleteBudget":               {Method: "DELETE", Path: "/api/budgets/{id}"},
		"UnitMetrics":                {Method: "GET", Path: "/api/units"},
		"ImportUnits":                {Method: "POST", Path: "/api/units"},
		"ListSchedules":              {Method: "GET", Path: "/api/schedules"},
		"SaveSchedule":               {Method: "POST", Path: "/api/schedules"},
		"DeleteSchedule":             {Method: "DELETE", Path: "/api/schedules/{id}"},
		"ForecastCosts":              {Method: "GET", Path: "/api/forecast"},
		"OptimizeAll":                {Method: "POST", Path: "/api/optimize"},
		"Sync":                       {Method: "POST", Path: "/api/sync"},
		"GenerateReport":             {Method: "POST", Path: "/api/reports"},
		"ListReports":                {Method: "GET", Path: "/api/reports"},
		"ProviderStatus":             {Method: "GET", Path: "/api/status"},
		"ProviderDetails":            {Method: "GET", Path: "/api/status/detailed"},
		"ValidateCredentials":        {Method: "POST", Path: "/api/credentials/validate"},
		"AllocateCosts":              {Method: "POST", Path: "/api/allocate"},
		"ListAllocationRules":        {Method: "GET", Path: "/api/allocation/rules"},
		"SaveAllocationRule":         {Method: "POST", Path: "/api/allocation/rules"},
		"Metrics":                    {Method: "GET", Path: "/api/performance"},
		"CheckHealth":                {Method: "GET", Path: "/api/health"},
		"Alerts":                     {Method: "GET", Path: "/api/alerts"},
		"ListRuns":                   {Method: "GET", Path: "/api/runs"},
		"Session":                    {Method: "GET", Path: "/api/session"},
		"TagValues":                  {Method: "GET", Path: "/api/tags"},
		"ListViews":                  {Method: "GET", Path: "/api/views"},
		"SaveView":                   {Method: "POST", Path: "/api/views"},
		"ReplaceView":                {Method: "PUT", Path: "/api/views/{name}"},
		"DeleteView":                 {Method: "DELETE", Path: "/api/views/{name}"},
	}
	desktopOnly = map[string]string{
		"SetCredential":         "the OS keyring exists only on the desktop",
		"DeleteCredential":      "the OS keyring exists only on the desktop",
		"CredentialFields":      "the OS keyring exists only on the desktop",
		"CredentialStoreStatus": "the OS keyring exists only on the desktop",
		"UnlockCredentials":     "the OS keyring exists only on the desktop",
		"ImportFilesDialog":     "native file dialog; the web uploads to POST /api/import",
		"SaveReportAs":          "native save dialog; the web downloads GET /api/reports/{name}",
		"ExportReport":          "native save dialog (File > Export report)",
		"DesktopInfo":           "describes the desktop app",
		"FirstRender":           "start-up measurement and the self-test",
	}
	// httpOnly lists, with the reason, the /api routes no binding serves.
	httpOnly = map[server.Route]string{
		{Method: "GET", Path: "/api/forecast/evaluate"}: "backtests are a diagnostics call for scripts; the UI does not show them",
		{Method: "GET", Path: "/api/reports/{name}"}:    "the desktop saves reports through SaveReportAs and its asset server",
		{Method: "POST", Path: "/api/import"}:           "the desktop imports through ImportFilesDialog and its asset server",
		{Method: "PUT", Path: "/api/budgets/{id}"}:      "the desktop's SaveBudget both creates (id 0) and changes a budget",
		{Method: "GET", Path: "/api/export/focus"}:      "a streamed file for other tools; on the desktop's machine `costpilot export` writes the same file",
		{Method: "PUT", Path: "/api/schedules/{id}"}:    "the desktop's SaveSchedule both creates (id 0) and changes a schedule",
		// Report deletion is web-only until the desktop's reports list gains
		// it; the desktop pages through every resource (CostResources).
		{Method: "GET", Path: "/api/costs/resources.csv"}: "a streamed download of every resource; web-only (the desktop has no download target)",
		{Method: "DELETE", Path: "/api/reports/{name}"}:   "web-only for now: the desktop's reports list has no delete yet",
		// Kubernetes, deleting business units, invoices and statements have no page
		// yet (the Overview groups by the Kubernetes dimensions through
		// AnalyzeCosts); their bindings come with their pages. Until then
		// the CLI does the same on the desktop's machine.
		{Method: "GET", Path: "/api/kubernetes"}:       "no page yet: `costpilot kubernetes status` on the desktop's machine",
		{Method: "POST", Path: "/api/kubernetes/sync"}: "no page yet: `costpilot kubernetes sync` on the desktop's machine",
		{Method: "DELETE", Path: "/api/units/{name}"}:  "no page yet: `costpilot units delete` on the desktop's machine",
		{Method: "GET", Path: "/api/invoices"}:         "no page yet: `costpilot invoices` on the desktop's machine",
		{Method: "POST", Path: "/api/contracts"}:       "no page yet: `costpilot import` reads a contract commitment dataset on the desktop's machine",
		{Method: "POST", Path: "/api/invoices/totals"}: "no page yet: `costpilot invoices set|import` on the desktop's machine",
		{Method: "GET", Path: "/api/statements"}:       "no page yet: `costpilot statements` on the desktop's machine",
		{Method: "GET", Path: "/api/statements.pdf"}:   "a download; no page yet: `costpilot statements --format pdf` on the desktop's machine",
		// Administration is for the shared dashboard: the desktop has one
		// local user, an admin by OS access to its data dir, and no logins
		// or tokens of its own; `costpilot user`, `token` and `audit`
		// manage a data dir from the command line.
		{Method: "GET", Path: "/api/users"}:           "administration is web-only",
		{Method: "POST", Path: "/api/users"}:          "administration is web-only",
		{Method: "PATCH", Path: "/api/users/{name}"}:  "administration is web-only",
		{Method: "DELETE", Path: "/api/users/{name}"}: "administration is web-only",
		{Method: "GET", Path: "/api/tokens"}:          "administration is web-only",
		{Method: "POST", Path: "/api/tokens"}:         "administration is web-only",
		{Method: "DELETE", Path: "/api/tokens/{id}"}:  "administration is web-only",
		{Method: "GET", Path: "/api/audit"}:           "administration is web-only",
		{Method: "GET", Path: "/api/"}:                "the 404 of unknown paths",
		{Method: "POST", Path: "/api/"}:               "the 404 of unknown paths",
		{Method: "PUT", Path: "/api/"}:                "the 404 of unknown paths",
		{Method: "PATCH", Path: "/api/"}:              "the 404 of unknown paths",
		{Method: "DELETE", Path: "/api/"}:             "the 404 of unknown paths",
	}
)

// TestAPIRoutesHaveBindings is the drift guard the other way: every /api
// route is served by a binding or listed in httpOnly with the reason.
func TestAPIRoutesHaveBindings(t *testing.T) {
	twins := map[server.Route]bool{}
	for _, r := range httpTwin {
		twins[r] = true
	}
	api := map[server.Route]bool{}
	for _, r := range server.Routes() {
		if !strings.HasPrefix(r.Path, "/api/") {
			continue
		}
		api[r] = true
		_, web := httpOnly[r]
		switch {
		case twins[r] && web:
			t.Errorf("%s %s has a binding and is listed in httpOnly", r.Method, r.Path)
		case !twins[r] && !web:
			t.Errorf("%s %s has no binding: add one to app/bindings.go, or list it in httpOnly with the reason", r.Method, r.Path)
		}
	}
	for r := range httpOnly {
		if !api[r] {
			t.Errorf("httpOnly lists %s %s, which server.Routes() does not have", r.Method, r.Path)
		}
	}
}

// TestBindingsHaveHTTPTwins is the drift guard of docs/architecture.md: every bound
// method serves the same call as an HTTP route, or is listed as desktop
// only.
func TestBindingsHaveHTTPTwins(t *testing.T) {
	routes := map[server.Route]bool{}
	for _, r := range server.Routes() {
		routes[r] = true
	}
	typ := reflect.TypeOf(&Bindings{})
	seen := map[string]bool{}
	for i := 0; i < typ.NumMethod(); i++ {
		name := typ.Method(i).Name
		seen[name] = true
		twin, hasTwin := httpTwin[name]
		_, desktop := desktopOnly[name]
		switch {
		case hasTwin && desktop:
			t.Errorf("%s is listed both with an HTTP twin and as desktop only", name)
		case hasTwin && !routes[twin]:
			t.Errorf("binding %s maps to %s %s, which server.Routes() does not have", name, twin.Method, twin.Path)
		case !hasTwin && !desktop:
			t.Errorf("binding %s has no HTTP route: add one to headless/server, or list it in desktopOnly with the reason", name)
		}
	}
	var stale []string
	for name := range httpTwin {
		if !seen[name] {
			stale = append(stale, name)
		}
	}
	for name := range desktopOnly {
		if !seen[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("listed but not bound: %v", stale)
	}
}

func TestErrorFormatterIsTheErrorShape(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want map[string]any
	}{
		{"kind", apperr.E(apperr.Validation, "days must be 1..365").WithDetail("field", "days").WithProvider("aws"),
			map[string]any{"error": "days must be 1..365", "error_type": "ValidationError", "provider": "aws"}},
		{"unhandled", io.ErrUnexpectedEOF, map[string]any{"error": "Internal server error", "message": io.ErrUnexpectedEOF.Error()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := ErrorFormatter(tt.err).(string)
			if !ok {
				t.Fatalf("ErrorFormatter returned %T, want a JSON string", ErrorFormatter(tt.err))
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(s), &body); err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if body[k] != v {
					t.Errorf("%s = %v, want %v", k, body[k], v)
				}
			}
		})
	}
}

func TestCostQuery(t *testing.T) {
	svc := warmService(t)
	tests := []struct {
		name      string
		req       CostRequest
		kind      apperr.Kind
		firstDay  string
		lastDay   string
		tagKey    string
		provider  model.ProviderKey
		metric    model.CostMetric
		checkDays bool
	}{
		{name: "default is the last 30 days", req: CostRequest{}, firstDay: "2026-02-13", lastDay: "2026-03-14", checkDays: true},
		{name: "days", req: CostRequest{Days: 7, Provider: "gcp", Metric: "list"}, firstDay: "2026-03-08", lastDay: "2026-03-14", provider: model.GCP, metric: model.MetricList, checkDays: true},
		{name: "last month", req: CostRequest{Period: "last_month", GroupBy: "region"}, firstDay: "2026-02-01", lastDay: "2026-02-28", checkDays: true},
		{name: "bad grouping", req: CostRequest{GroupBy: "colour"}, kind: apperr.Validation},
		{name: "dates", req: CostRequest{Start: "2026-01-01", End: "2026-01-31", Tag: "team:web"}, firstDay: "2026-01-01", lastDay: "2026-01-31", tagKey: "team", checkDays: true},
		{name: "days out of range", req: CostRequest{Days: 366}, kind: apperr.Validation},
		{name: "days and dates", req: CostRequest{Days: 7, Start: "2026-01-01", End: "2026-01-02"}, kind: apperr.Validation},
		{name: "start without end", req: CostRequest{Start: "2026-01-01"}, kind: apperr.Validation},
		{name: "end before start", req: CostRequest{Start: "2026-02-01", End: "2026-01-01"}, kind: apperr.Validation},
		{name: "bad tag", req: CostRequest{Tag: "nocolon"}, kind: apperr.Validation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := svc.CostQuery(tt.req.request())
			if apperr.KindOf(err) != tt.kind {
				t.Fatalf("kind %q, want %q (%v)", apperr.KindOf(err), tt.kind, err)
			}
			if tt.kind != "" {
				return
			}
			if q.Period.FirstDay() != tt.firstDay || q.Period.LastDay() != tt.lastDay {
				t.Errorf("period %s..%s, want %s..%s", q.Period.FirstDay(), q.Period.LastDay(), tt.firstDay, tt.lastDay)
			}
			if q.TagKey != tt.tagKey || q.Provider != tt.provider || q.Metric != tt.metric {
				t.Errorf("query %+v", q)
			}
		})
	}
}

// TestBindingsCallTheService runs bound methods as the window would.
func TestBindingsCallTheService(t *testing.T) {
	svc := warmService(t)
	b := NewBindings(svc, time.Now())
	a, err := b.AnalyzeCosts(CostRequest{Days: 14})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Providers) != 1 || a.Summary.TotalCost <= 0 {
		t.Fatalf("analysis: %d providers, total %v", len(a.Providers), a.Summary.TotalCost)
	}
	p, _ := svc.PeriodForDays(14)
	want, err := svc.AnalyzeCosts(adminCtx(), model.CostQuery{Period: p})
	if err != nil || want.Summary.TotalCost != a.Summary.TotalCost {
		t.Fatalf("binding total %v, service %v (%v)", a.Summary.TotalCost, want.Summary.TotalCost, err)
	}
	if _, err := b.ForecastCosts(0); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("ForecastCosts(0): %v", err)
	}
	st, err := b.ProviderStatus()
	if err != nil || len(st) != 1 || !st[model.AWS] {
		t.Fatalf("status %v, %v", st, err)
	}
	s, err := b.Session()
	if err != nil || s.Username != "" || s.AuthKind != "desktop" || s.Currency == "" {
		t.Fatalf("session %+v, %v", s, err)
	}
	// The HTTP shape of the result survives the bridge's JSON encoding.
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var wire map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wire); err != nil || wire["summary"] == nil || wire["aws"] == nil {
		t.Fatalf("wire keys: %v", sortedKeys(wire))
	}
	if m, err := b.Metrics(); err != nil || m.TotalRequests < 3 {
		t.Fatalf("metrics %+v, %v: bound calls are counted", m, err)
	}
	if _, err := b.CredentialFields("aws"); apperr.KindOf(err) != apperr.NotImplemented {
		t.Fatalf("no keyring in this Service: %v", err)
	}
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestCostFiltersReachTheServiceFromTheWindow: each field of the
// AnalyzeCosts binding changes the answer exactly as the same query to the
// Service does, so a field dropped or swapped on the way fails here.
func TestCostFiltersReachTheServiceFromTheWindow(t *testing.T) {
	svc := warmService(t)
	b := NewBindings(svc, time.Now())
	ctx := adminCtx()
	tests := []CostRequest{
		{},
		{Days: 7},
		{Start: "2026-01-10", End: "2026-02-20"},
		{Metric: "list"},
		{Provider: "aws"},
		{Account: "210987654321"},
		{Service: "Amazon Elastic Compute Cloud - Compute"},
		{Tag: "team:data"},
		{Days: 90, Account: "123456789012", Service: "EC2 - Other"},
	}
	var base float64
	for i, r := range tests {
		got, err := b.AnalyzeCosts(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		q := model.CostQuery{Metric: model.CostMetric(r.Metric), Provider: model.ProviderKey(r.Provider), Account: r.Account, Service: r.Service}
		switch {
		case r.Start != "":
			q.Period, err = service.PeriodForDates(r.Start, r.End)
		case r.Days != 0:
			q.Period, err = svc.PeriodForDays(r.Days)
		default:
			q.Period, err = svc.PeriodForDays(30)
		}
		if err != nil {
			t.Fatal(err)
		}
		if q.TagKey, q.TagValue, err = service.ParseTagFilter(r.Tag); err != nil {
			t.Fatal(err)
		}
		want, err := svc.AnalyzeCosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Summary.TotalCost != want.Summary.TotalCost || got.Summary.Metric != want.Summary.Metric {
			t.Errorf("%+v: total %v (%s), the Service says %v (%s)", r, got.Summary.TotalCost, got.Summary.Metric, want.Summary.TotalCost, want.Summary.Metric)
		}
		if i == 0 {
			base = got.Summary.TotalCost
		} else if r.Provider == "" && got.Summary.TotalCost == base {
			t.Errorf("%+v: the same total as no filter: the field does nothing here", r)
		}
	}
}
