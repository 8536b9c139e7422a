package server

import (
	"net/url"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestStatementHandlers: GET /api/statements answers the statements of a
// saved rule set and period for any role, and GET /api/statements.pdf
// one of them as a PDF download; a missing rule set, statement or a bad
// period is refused naming the field.
func TestStatementHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	if _, err := se.svc.SaveRuleSet(adminCtx(), "finance", model.AllocationRules{Method: "tag_based", Tags: []string{"department"}}); err != nil {
		t.Fatal(err)
	}
	viewer := model.RoleViewer
	set, err := se.svc.Statements(adminCtx(), service.StatementRequest{RuleSet: "finance", Period: "2026-05"})
	if err != nil || len(set.Statements) == 0 {
		t.Fatalf("statements %+v: %v", set, err)
	}
	first := set.Statements[0].Name
	se.run(t, []scenario{
		{name: "one statement as PDF", path: "/api/statements.pdf?rule_set=finance&period=2026-05&name=" + url.QueryEscape(first), role: viewer,
			wantStatus: 200, wantHeader: map[string]string{"Content-Type": "application/pdf", "Content-Disposition": "statement-2026-05-department-"},
			wantText: []string{"%PDF-"}},
		{name: "a PDF of no such statement", path: "/api/statements.pdf?rule_set=finance&period=2026-05&name=nobody", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "name"})},
		{name: "a PDF of no rule set", path: "/api/statements.pdf?period=2026-05&name=x", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "rule_set"})},
		{name: "statements", path: "/api/statements?rule_set=finance&period=2026-05", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"rule_set": "finance", "period": "2026-05", "by": "department", "start": "2026-05-01",
				"end": "2026-05-31", "allocated": positive}},
		{name: "by project", path: "/api/statements?rule_set=finance&period=2026-05&by=project", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"by": "project"}},
		{name: "no such rule set", path: "/api/statements?rule_set=ops&period=2026-05", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "rule_set"})},
		{name: "a bad period", path: "/api/statements?rule_set=finance&period=05-2026", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "period"})},
	})
}
