package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestBudgetHandlers: an editor makes, lists, changes and deletes a
// budget; each change is audited under the editor's name; bad ids and
// bodies are refused naming the field; a viewer may only read.
func TestBudgetHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	budget := map[string]any{"name": "compute", "amount": 5000.0, "period": "monthly", "scope": map[string]any{"provider": "aws"}}
	se.run(t, []scenario{
		{name: "none yet", path: "/api/budgets", role: viewer, wantStatus: 200, wantJSON: count(0)},
		{name: "create", method: "POST", path: "/api/budgets", role: editor,
			body: `{"name":"compute","amount":5000,"period":"monthly","scope":{"provider":"aws"}}`, wantStatus: 200,
			wantJSON: map[string]any{"id": 1, "source": "dashboard", "changed_by": "s-editor", "measured": true,
				"status": map[string]any{"budget": budget, "currency": "USD", "period_start": "2026-06-01", "actual": positive}},
			wantAudit: []auditWant{{event: service.AuditBudgetSave, username: "s-editor",
				details: map[string]any{"id": 1, "name": "compute", "amount": 5000, "period": "monthly"}}}},
		{name: "listed", path: "/api/budgets", role: viewer, wantStatus: 200,
			wantJSON: []any{map[string]any{"id": 1, "status": map[string]any{"budget": budget}}}},
		{name: "the same name again", method: "POST", path: "/api/budgets", role: editor,
			body: `{"name":"compute","amount":1,"period":"monthly"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "name"}), wantAudit: []auditWant{}},
		{name: "a negative amount", method: "POST", path: "/api/budgets", role: editor,
			body: `{"name":"x","amount":-5,"period":"monthly"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "amount"}), wantAudit: []auditWant{}},
		{name: "an amount that is not a number", method: "POST", path: "/api/budgets", role: editor,
			body: `{"name":"x","amount":"lots"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "amount"}), wantAudit: []auditWant{}},
		{name: "change", method: "PUT", path: "/api/budgets/1", role: editor,
			body: `{"name":"compute","amount":7000,"period":"quarterly"}`, wantStatus: 200,
			wantJSON: map[string]any{"id": 1, "status": map[string]any{"budget": map[string]any{"amount": 7000, "period": "quarterly"},
				"period_start": "2026-04-01"}},
			wantAudit: []auditWant{{event: service.AuditBudgetSave, username: "s-editor", details: map[string]any{"id": 1, "amount": 7000}}}},
		{name: "change a missing one", method: "PUT", path: "/api/budgets/99", role: editor,
			body: `{"name":"other","amount":1,"period":"monthly"}`, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", map[string]any{"field": "id"}), wantAudit: []auditWant{}},
		{name: "a bad id", method: "PUT", path: "/api/budgets/first", role: editor, body: `{}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "id"})},
		{name: "a viewer may not delete", method: "DELETE", path: "/api/budgets/1", role: viewer, wantStatus: 403,
			wantJSON: errorJSON("SecurityError", map[string]any{"permission": "change", "role": "viewer"}), wantAudit: []auditWant{}},
		{name: "delete", method: "DELETE", path: "/api/budgets/1", role: editor, wantStatus: 200,
			wantJSON:  map[string]any{"deleted": true},
			wantAudit: []auditWant{{event: service.AuditBudgetDelete, username: "s-editor", details: map[string]any{"id": 1}}}},
		{name: "gone", method: "DELETE", path: "/api/budgets/1", role: editor, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil), wantAudit: []auditWant{}},
		{name: "none left", path: "/api/budgets", role: viewer, wantStatus: 200, wantJSON: count(0)},
	})
}
