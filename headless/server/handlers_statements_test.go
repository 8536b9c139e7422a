package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestStatementHandlers: GET /api/statements answers the statements of a
// saved rule set and period for any role; a missing rule set or a bad
// period is refused naming the field.
func TestStatementHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	if _, err := se.svc.SaveRuleSet(adminCtx(), "finance", model.AllocationRules{Method: "tag_based", Tags: []string{"department"}}); err != nil {
		t.Fatal(err)
	}
	viewer := model.RoleViewer
	se.run(t, []scenario{
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
