package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestCostHandlers: the cost, tag, forecast and status reads answer the
// period, grouping and figures asked for over the demo history (the
// server's clock is 2026-06-10, so the last complete day is 2026-06-09),
// and bad parameters are named.
func TestCostHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	viewer := model.RoleViewer
	se.run(t, []scenario{
		{name: "the last 7 days by service", path: "/api/costs?days=7&group_by=service", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"summary": map[string]any{"total_cost": positive, "currency": "USD", "metric": "billed",
				"providers_analyzed": []any{"aws"}, "group_by": "service",
				"analysis_period": map[string]any{"start_date": "2026-06-03T00:00:00", "end_date": "2026-06-09T23:59:59"},
				"period":          map[string]any{"kind": "days", "days": 7, "label": "Last 7 days", "start": "2026-06-03", "end": "2026-06-09"},
				"previous":        map[string]any{"start": "2026-05-27", "end": "2026-06-02", "days": 7},
				"series":          count(7),
				"groups":          some(map[string]any{"key": "AmazonCloudWatch", "cost": positive, "series": count(7)})},
				"aws": map[string]any{"total_cost": positive, "service_breakdown": map[string]any{"AmazonCloudWatch": positive}}}},
		{name: "last month by week in list prices", path: "/api/costs?period=last_month&granularity=week&metric=list", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"summary": map[string]any{"metric": "list",
				"period": map[string]any{"kind": "last_month", "granularity": "week", "start": "2026-05-01", "end": "2026-05-31"}}}},
		{name: "filtered to a cloud that is off", path: "/api/costs?days=7&provider=gcp", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"summary": map[string]any{"total_cost": 0}}},
		{name: "an unknown grouping", path: "/api/costs?group_by=colour", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "group_by"})},
		{name: "days and a period together", path: "/api/costs?days=7&period=last_month", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", nil)},
		{name: "days that are not a number", path: "/api/costs?days=week", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "days"})},
		{name: "tag keys and values", path: "/api/tags?days=7", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"team": some("payments"), "environment": []any{"dev", "prod", "staging"}}},
		{name: "a 14-day forecast", path: "/api/forecast?days=14", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"forecast_period": 14, "total_forecast": positive, "confidence_level": 0.95, "confidence_interval": count(2),
				"daily_forecast": count(14), "provider_forecasts": map[string]any{"aws": map[string]any{"total_forecast": positive}}}},
		{name: "a forecast without recommendations", path: "/api/forecast?days=14&include_recommendations=false", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"forecast_period": 14, "recommendations_impact": absent}},
		{name: "a forecast of one service by region", path: "/api/forecast?days=14&service=AmazonCloudWatch&group_by=region", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"forecast_period": 14, "total_forecast": positive, "group_by": "region", "reconciliation": "top_down_proportions",
				"filters": []any{map[string]any{"dim": "service", "values": []any{"AmazonCloudWatch"}}},
				"groups":  some(map[string]any{"total_forecast": positive, "confidence_interval": count(2), "daily_forecast": count(14)})}},
		{name: "a forecast grouped by nothing known", path: "/api/forecast?group_by=colour", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "group_by"})},
		{name: "a forecast flag that is not one", path: "/api/forecast?include_recommendations=perhaps", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "include_recommendations"})},
		{name: "the model's accuracy over 7 days", path: "/api/forecast/evaluate?days=7", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"horizon": 7, "origins": positive, "mape": positive}},
		{name: "provider status", path: "/api/status", role: viewer, wantStatus: 200, wantJSON: map[string]any{"aws": true}},
		{name: "provider details", path: "/api/status/detailed", role: viewer, wantStatus: 200,
			wantJSON: some(map[string]any{"provider": "aws", "enabled": true, "source": "demo", "first_day": "2025-05-06", "last_day": "2026-06-09"})},
		{name: "health", path: "/api/health", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"status": "healthy", "checks": some(map[string]any{"name": "database", "status": "ok"})}},
		{name: "runs, bounded", path: "/api/runs?limit=x", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "limit"})},
		{name: "the session of a token", path: "/api/session", role: viewer, token: true, wantStatus: 200,
			wantJSON: map[string]any{"username": "token:s-viewer", "auth": "token", "role": "viewer", "permissions": []any{"read"}, "currency": "USD"}},
		{name: "the session of an admin", path: "/api/session", role: model.RoleAdmin, wantStatus: 200,
			wantJSON: map[string]any{"username": "alice", "auth": "session", "role": "admin", "permissions": []any{"read", "change", "admin"}}},
	})
}

// TestViewAndRecommendationHandlers: saved views are made, used by a cost
// query, replaced and deleted; a recommendation is dismissed and leaves
// the open list; each change is audited under the editor's name.
func TestViewAndRecommendationHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	se.run(t, []scenario{
		{name: "save a view", method: "POST", path: "/api/views", role: editor,
			body: `{"name":"by-region","spec":{"days":14,"group_by":"region","filters":{"provider":["aws"]}}}`, wantStatus: 200,
			wantJSON: map[string]any{"name": "by-region", "created_by": "s-editor",
				"spec": map[string]any{"days": 14, "group_by": "region", "filters": map[string]any{"provider": []any{"aws"}}}},
			wantAudit: []auditWant{{event: service.AuditViewSave, username: "s-editor", details: map[string]any{"name": "by-region", "replace": false}}}},
		{name: "the same name again", method: "POST", path: "/api/views", role: editor,
			body: `{"name":"by-region","spec":{"days":7}}`, wantStatus: 400, wantJSON: errorJSON("ValidationError", nil), wantAudit: []auditWant{}},
		{name: "a view fills the query", path: "/api/costs?view=by-region", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"summary": map[string]any{"group_by": "region", "period": map[string]any{"days": 14}}}},
		{name: "replace it", method: "PUT", path: "/api/views/by-region", role: editor, body: `{"spec":{"days":3,"group_by":"service"}}`,
			wantStatus: 200, wantJSON: map[string]any{"name": "by-region", "spec": map[string]any{"days": 3, "group_by": "service"}},
			wantAudit: []auditWant{{event: service.AuditViewSave, username: "s-editor", details: map[string]any{"name": "by-region", "replace": true}}}},
		{name: "listed", path: "/api/views", role: viewer, wantStatus: 200,
			wantJSON: []any{map[string]any{"name": "by-region", "spec": map[string]any{"days": 3}}}},
		{name: "delete it", method: "DELETE", path: "/api/views/by-region", role: editor, wantStatus: 200,
			wantAudit: []auditWant{{event: service.AuditViewDelete, username: "s-editor", details: map[string]any{"name": "by-region"}}}},
		{name: "a deleted view is not found", path: "/api/costs?view=by-region", role: viewer, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil)},
		{name: "open recommendations", path: "/api/recommendations?state=open", role: viewer, wantStatus: 200,
			wantJSON: every(map[string]any{"id": present, "potential_savings": present, "provider": "aws"})},
		{name: "dismiss the first", method: "POST", path: "/api/recommendations/{prev.0.id}/state", role: editor,
			body: `{"state":"dismissed","reason":"not ours"}`, wantStatus: 200,
			wantJSON: map[string]any{"lifecycle": map[string]any{"state": "dismissed", "reason": "not ours", "by": "s-editor"}},
			wantAudit: []auditWant{{event: service.AuditRecState, username: "s-editor",
				details: map[string]any{"state": "dismissed", "reason": "not ours", "provider": "aws"}}}},
		{name: "it is one", path: "/api/recommendations/{prev.id}", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"recommendation": map[string]any{"lifecycle": map[string]any{"state": "dismissed"}}, "currency": "USD",
				"daily_cost": count(90)}},
		{name: "dismissed list", path: "/api/recommendations?state=dismissed", role: viewer, wantStatus: 200,
			wantJSON: every(map[string]any{"lifecycle": map[string]any{"state": "dismissed", "reason": "not ours"}})},
		{name: "dismissing needs a reason", method: "POST", path: "/api/recommendations/{prev.0.id}/state", role: editor,
			body: `{"state":"dismissed"}`, wantStatus: 400, wantJSON: errorJSON("ValidationError", nil), wantAudit: []auditWant{}},
		{name: "an unknown state", method: "POST", path: "/api/recommendations/x/state", role: editor,
			body: `{"state":"gone"}`, wantStatus: 400, wantJSON: errorJSON("ValidationError", map[string]any{"field": "state"})},
		{name: "an unknown recommendation", path: "/api/recommendations/no-such-id", role: viewer, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil)},
		{name: "save a rule set", method: "POST", path: "/api/allocation/rules", role: editor,
			body: `{"name":"teams","rules":{"method":"tag_based","tags":["team"]}}`, wantStatus: 200,
			wantJSON:  map[string]any{"name": "teams", "rules": map[string]any{"method": "tag_based", "tags": []any{"team"}}},
			wantAudit: []auditWant{{event: service.AuditRuleSetSave, username: "s-editor", details: map[string]any{"name": "teams", "method": "tag_based"}}}},
		{name: "rule sets", path: "/api/allocation/rules", role: viewer, wantStatus: 200, wantJSON: []any{map[string]any{"name": "teams"}}},
		{name: "allocate by team", method: "POST", path: "/api/allocate", role: viewer, body: `{"method":"tag_based","tags":["team"]}`,
			wantStatus: 200, wantJSON: map[string]any{"currency": "USD"}, wantAudit: []auditWant{}},
	})
}
