package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestMetricsHandlers: /metrics counts the requests served by route and
// status in Prometheus text; /healthz tells a stranger only ok or
// degraded and a caller every check.
func TestMetricsHandlers(t *testing.T) {
	se := newScenarioEnv(t, func(c *config.Config) { c.Monitoring.Metrics.Enabled = true })
	viewer := model.RoleViewer
	se.run(t, []scenario{
		{name: "a request to count", path: "/api/status", role: viewer, token: true, wantStatus: 200, wantJSON: map[string]any{"aws": true}},
		{name: "a refusal to count", path: "/api/users", role: viewer, token: true, wantStatus: 403},
		{name: "metrics", path: "/metrics", role: viewer, token: true, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/plain; version=0.0.4", "Cache-Control": "no-store"},
			wantText: []string{"# TYPE costpilot_http_requests_total counter\n",
				`costpilot_http_requests_total{route="GET /api/status",code="200"} 1` + "\n",
				`costpilot_http_requests_total{route="GET /api/users",code="403"} 1` + "\n"}},
		{name: "metrics need credentials", path: "/metrics", wantStatus: 401, wantJSON: errorJSON("AuthenticationError", nil)},
		{name: "health for a stranger", path: "/healthz", wantStatus: 200, wantJSON: map[string]any{"status": "ok", "checks": absent}},
		{name: "health for a caller", path: "/healthz", role: viewer, token: true, wantStatus: 200,
			wantJSON: map[string]any{"status": "healthy", "checks": some(map[string]any{"name": "provider_aws", "status": "ok", "message": "demo data"})}},
	})
	off := newScenarioEnv(t, func(c *config.Config) { c.Monitoring.Metrics.Enabled = false })
	off.run(t, []scenario{
		{name: "metrics off", path: "/metrics", role: viewer, token: true, wantStatus: 404, wantJSON: errorJSON("NotFoundError", nil)},
	})
}
