package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestScheduleHandlers: an admin makes, changes and deletes a report
// schedule; the answers carry the defaults filled in and the next due
// time from the server's clock (Wednesday 2026-06-10 12:00 UTC); each
// change is audited; an editor may read but not change.
func TestScheduleHandlers(t *testing.T) {
	se := newScenarioEnv(t, func(c *config.Config) { c.Alerts.WebhookURL = "http://127.0.0.1:1/hook" })
	admin, editor := model.RoleAdmin, model.RoleEditor
	se.run(t, []scenario{
		{name: "none", path: "/api/schedules", role: editor, wantStatus: 200, wantJSON: count(0)},
		{name: "weekly, defaults filled in", method: "POST", path: "/api/schedules", role: admin,
			body: `{"name":"weekly","frequency":"weekly","hour":7,"webhook":true}`, wantStatus: 200,
			wantJSON: map[string]any{"id": 1, "source": "dashboard", "changed_by": "alice", "next_due": "2026-06-15T07:00:00Z",
				"schedule": map[string]any{"name": "weekly", "frequency": "weekly", "weekday": "monday", "hour": 7, "type": "summary",
					"format": "pdf", "webhook": true}},
			wantAudit: []auditWant{{event: service.AuditScheduleSave, username: "alice",
				details: map[string]any{"id": 1, "name": "weekly", "frequency": "weekly", "recipients": 0, "webhook": true}}}},
		{name: "an editor may not make one", method: "POST", path: "/api/schedules", role: editor,
			body: `{"name":"mine","frequency":"daily","webhook":true}`, wantStatus: 403,
			wantJSON: errorJSON("SecurityError", map[string]any{"permission": "admin", "role": "editor"}), wantAudit: []auditWant{}},
		{name: "an hour out of range", method: "POST", path: "/api/schedules", role: admin,
			body: `{"name":"late","frequency":"daily","hour":24,"webhook":true}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "hour"}), wantAudit: []auditWant{}},
		{name: "monthly on the 3rd", method: "PUT", path: "/api/schedules/1", role: admin,
			body: `{"name":"weekly","frequency":"monthly","day":3,"hour":0,"webhook":true}`, wantStatus: 200,
			wantJSON: map[string]any{"id": 1, "next_due": "2026-07-03T00:00:00Z",
				"schedule": map[string]any{"frequency": "monthly", "day": 3, "period": "last_month"}},
			wantAudit: []auditWant{{event: service.AuditScheduleSave, username: "alice", details: map[string]any{"id": 1, "frequency": "monthly"}}}},
		{name: "listed", path: "/api/schedules", role: editor, wantStatus: 200,
			wantJSON: []any{map[string]any{"id": 1, "schedule": map[string]any{"name": "weekly", "day": 3}}}},
		{name: "change a missing one", method: "PUT", path: "/api/schedules/7", role: admin,
			body: `{"name":"x","frequency":"daily","webhook":true}`, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", map[string]any{"field": "id"})},
		{name: "delete", method: "DELETE", path: "/api/schedules/1", role: admin, wantStatus: 200, wantJSON: map[string]any{"deleted": true},
			wantAudit: []auditWant{{event: service.AuditScheduleDelete, username: "alice", details: map[string]any{"id": 1}}}},
		{name: "delete with a bad id", method: "DELETE", path: "/api/schedules/0", role: admin, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "id"}), wantAudit: []auditWant{}},
	})
}
