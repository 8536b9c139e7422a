package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestAnomalyHandlers: the demo history's data-transfer spike of
// 2025-11-13 is listed with its driver, read alone, acknowledged by an
// editor (audited) and taken back; bad decisions are refused.
func TestAnomalyHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	const spike = "/api/anomalies/anomaly:aws:2025-11-13"
	se.run(t, []scenario{
		{name: "listed with its driver", path: "/api/anomalies", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"currency": "USD", "from": "2025-05-06", "to": "2026-06-09",
				"anomalies": some(map[string]any{"id": "anomaly:aws:2025-11-13", "scope": "provider", "provider": "aws", "day": "2025-11-13",
					"actual": positive, "suppressed": false, "drivers": some(map[string]any{"service": "AWS Data Transfer", "excess": positive})})}},
		{name: "one", path: spike, role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"anomaly": map[string]any{"id": "anomaly:aws:2025-11-13", "day": "2025-11-13", "decision": absent},
				"currency": "USD", "resources": present}},
		{name: "one, without its prefix", path: "/api/anomalies/aws:2025-11-13", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"anomaly": map[string]any{"id": "anomaly:aws:2025-11-13"}}},
		{name: "no such anomaly", path: "/api/anomalies/anomaly:aws:1999-01-01", role: viewer, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil)},
		{name: "acknowledge", method: "POST", path: spike + "/decision", role: editor,
			body: `{"action":"acknowledged","reason":"the backfill job"}`, wantStatus: 200,
			wantJSON: map[string]any{"id": "anomaly:aws:2025-11-13",
				"decision": map[string]any{"action": "acknowledged", "reason": "the backfill job", "by": "s-editor"}},
			wantAudit: []auditWant{{event: service.AuditAnomaly, username: "s-editor",
				details: map[string]any{"id": "anomaly:aws:2025-11-13", "action": "acknowledged", "reason": "the backfill job"}}}},
		{name: "decided", path: spike, role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"anomaly": map[string]any{"decision": map[string]any{"action": "acknowledged"}}}},
		{name: "no reason", method: "POST", path: spike + "/decision", role: editor, body: `{"action":"ignored"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "reason"}), wantAudit: []auditWant{}},
		{name: "an unknown action", method: "POST", path: spike + "/decision", role: editor, body: `{"action":"deleted","reason":"x"}`,
			wantStatus: 400, wantJSON: errorJSON("ValidationError", map[string]any{"field": "action"}), wantAudit: []auditWant{}},
		{name: "a viewer may not decide", method: "POST", path: spike + "/decision", role: viewer, body: `{"action":"open","reason":"x"}`,
			wantStatus: 403, wantJSON: errorJSON("SecurityError", nil), wantAudit: []auditWant{}},
		{name: "take it back", method: "POST", path: spike + "/decision", role: editor, body: `{"action":"open","reason":"not the job"}`,
			wantStatus: 200, wantJSON: map[string]any{"decision": absent},
			wantAudit: []auditWant{{event: service.AuditAnomaly, username: "s-editor", details: map[string]any{"action": "open"}}}},
	})
}
