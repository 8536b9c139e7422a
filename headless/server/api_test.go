package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
)

// TestEndpointsLoggedIn: logged in through the form, every endpoint
// answers with the documented field names (docs/api.md); capabilities the Service does not
// have yet answer 501 with the error shape.
func TestEndpointsLoggedIn(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	tests := []struct {
		name        string
		method      string
		path        string
		body        string
		implemented bool
		status      int
		want        []string
	}{
		{"costs", "GET", "/api/costs?days=7", "", true, 200,
			[]string{`"summary"`, `"total_cost"`, `"providers_analyzed"`, `"analysis_period"`, `"start_date"`, `"end_date"`, `"aws"`, `"service_breakdown"`, `"resources"`, `"daily_costs"`}},
		{"costs default days", "GET", "/api/costs", "", true, 200, []string{`"summary"`, `"aws"`}},
		{"costs by dates and filter", "GET", "/api/costs?start=2026-05-01&end=2026-05-31&provider=aws&metric=effective", "", true, 200, []string{`"aws"`, `"2026-05-01T00:00:00"`}},
		{"costs days 0", "GET", "/api/costs?days=0", "", true, 400, []string{`"error_type":"ValidationError"`}},
		{"costs days 366", "GET", "/api/costs?days=366", "", true, 400, []string{`"ValidationError"`, `"field":"days"`}},
		{"costs days not a number", "GET", "/api/costs?days=abc", "", true, 400, []string{`"ValidationError"`}},
		{"costs bad tag", "GET", "/api/costs?tag=nocolon", "", true, 400, []string{`"ValidationError"`}},
		{"costs unknown provider", "GET", "/api/costs?provider=ibm", "", true, 400, []string{`"ValidationError"`}},
		{"status", "GET", "/api/status", "", true, 200, []string{`{"aws":true}`}},
		{"performance", "GET", "/api/performance", "", true, 200,
			[]string{`"cache_hit_rate"`, `"total_requests"`, `"average_response_time"`, `"error_rate"`, `"memory_usage"`, `"cpu_usage"`}},
		{"recommendations", "GET", "/api/recommendations", "", true, 200, []string{`"potential_savings"`, `"priority"`, `"confidence"`}},
		{"recommendations not assessed", "GET", "/api/recommendations/not-assessed", "", true, 200, []string{`[]`}},
		{"forecast", "GET", "/api/forecast?days=30", "", true, 200,
			[]string{`"total_forecast"`, `"confidence_interval"`, `"forecast_period"`, `"provider_forecasts"`, `"trend_analysis"`}},
		{"forecast days 400", "GET", "/api/forecast?days=400", "", true, 400, []string{`"ValidationError"`}},
		{"forecast evaluation", "GET", "/api/forecast/evaluate?days=14", "", true, 200, []string{`"mase"`, `"coverage_95"`, `"origins"`}},
		{"optimize", "POST", "/api/optimize", "", true, 200, []string{`"total_recommendations"`, `"total_potential_savings"`, `"report_path"`, `"not_assessed":[]`}},
		{"sync", "POST", "/api/sync", `{"provider":"aws"}`, true, 200, []string{`[{"provider":"aws","source":"demo","from":"2025-05-06","to":"2026-06-09","lines":`}},
		{"sync days and start", "POST", "/api/sync", `{"days":3,"start":"2026-03-01"}`, true, 400, []string{`"ValidationError"`, `"field":"days"`}},
		{"sync unknown field", "POST", "/api/sync", `{"provider":"aws","since":"x"}`, true, 400, []string{`"ValidationError"`}},
		{"reports", "POST", "/api/reports", `{"type":"summary","format":"json"}`, true, 200, []string{`"report_path"`}},
		{"report of last month and a provider", "POST", "/api/reports", `{"type":"summary","format":"pdf","period":"last_month","providers":["aws"]}`, true, 200,
			[]string{`"report_path":"costpilot-summary-`, `.pdf"`}},
		{"report of a range", "POST", "/api/reports", `{"format":"json","start":"2026-01-01","end":"2026-01-31"}`, true, 200, []string{`"report_path"`}},
		{"report of a provider not enabled", "POST", "/api/reports", `{"format":"json","providers":["gcp"]}`, true, 400,
			[]string{`"ValidationError"`, `"field":"providers"`}},
		{"report start without end", "POST", "/api/reports", `{"format":"json","start":"2026-01-01"}`, true, 400,
			[]string{`"ValidationError"`, `"field":"start"`}},
		{"allocate", "POST", "/api/allocate", `{"method":"tag_based","tags":["team"],"departments":["eng"],"projects":[]}`, true, 200, []string{`"allocated_costs"`, `"by_department"`}},
		{"allocate unknown field", "POST", "/api/allocate", `{"methd":"tag_based"}`, true, 400, []string{`"ValidationError"`}},
		{"status detailed", "GET", "/api/status/detailed", "", true, 200, []string{`"provider":"aws"`, `"connected":true`, `"source":"demo"`}},
		{"credentials", "POST", "/api/credentials/validate", "", true, 200, []string{`"aws":{"valid":true}`}},
		{"health", "GET", "/api/health", "", true, 200, []string{`"status"`, `"checks"`, `"database"`}},
		{"session", "GET", "/api/session", "", true, 200, []string{`"username":"alice"`, `"features"`, `"real_time_updates"`, `"currency":"USD"`, `"version"`}},
		{"alerts", "GET", "/api/alerts", "", true, 200, []string{`[`}},
		{"runs", "GET", "/api/runs", "", true, 200, []string{`[`}},
		{"rules", "GET", "/api/allocation/rules", "", true, 200, []string{`[`}},
		{"report download traversal", "GET", "/api/reports/..%2Fcostpilot.db", "", true, 400, []string{`"ValidationError"`}},
		{"unknown api path", "GET", "/api/nope", "", true, 404, []string{`"error_type":"NotFoundError"`}},
		{"metrics", "GET", "/metrics", "", true, 200, []string{"costpilot_http_requests_total", "costpilot_http_request_duration_seconds_bucket", "costpilot_cache_hits_total"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.do(req{method: tt.method, path: tt.path, body: tt.body, cookie: ck})
			want := tt.want
			status := tt.status
			if !tt.implemented {
				status, want = http.StatusNotImplemented, []string{`"error_type":"NotImplementedError"`}
			}
			if res.status != status {
				t.Fatalf("status %s, want %d", fmtRes(res), status)
			}
			for _, w := range want {
				if !strings.Contains(res.body, w) {
					t.Fatalf("body lacks %s: %s", w, fmtRes(res))
				}
			}
			if res.status >= 400 {
				if _, ok := res.errorShape(); !ok {
					t.Fatalf("not the error shape: %s", res.body)
				}
			}
		})
	}
}

// TestLoggedOut: /api/* is 401 with the error shape; pages go to /login.
func TestLoggedOut(t *testing.T) {
	e := newEnv(t, nil)
	tests := []struct {
		name     string
		method   string
		path     string
		cookie   string
		status   int
		location string
	}{
		{"costs", "GET", "/api/costs", "", 401, ""},
		{"status", "GET", "/api/status", "", 401, ""},
		{"optimize", "POST", "/api/optimize", "", 401, ""},
		{"sync", "POST", "/api/sync", "", 401, ""},
		{"session", "GET", "/api/session", "", 401, ""},
		{"unknown api", "GET", "/api/nope", "", 401, ""},
		{"metrics", "GET", "/metrics", "", 401, ""},
		{"forged cookie", "GET", "/api/costs", "abc.def", 401, ""},
		{"home page", "GET", "/", "", 303, "/login"},
		{"spa page", "GET", "/recommendations", "", 303, "/login?next=%2Frecommendations"},
		{"login page", "GET", "/login", "", 200, ""},
		{"healthz", "GET", "/healthz", "", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := req{method: tt.method, path: tt.path}
			if tt.cookie != "" {
				q.cookie = &http.Cookie{Name: cookieName, Value: tt.cookie}
			}
			res := e.do(q)
			if res.status != tt.status {
				t.Fatalf("status %s, want %d", fmtRes(res), tt.status)
			}
			if tt.location != "" && res.header.Get("Location") != tt.location {
				t.Fatalf("Location %q", res.header.Get("Location"))
			}
			if tt.status == 401 {
				m, ok := res.errorShape()
				if !ok || m["error_type"] != "AuthenticationError" {
					t.Fatalf("not the error shape: %s", res.body)
				}
			}
		})
	}
	// The public health answer hides the checks (paths, errors, providers).
	if res := e.do(req{path: "/healthz"}); strings.Contains(res.body, "costpilot.db") || strings.Contains(res.body, `"database"`) {
		t.Fatalf("healthz: %s", res.body)
	}
}
