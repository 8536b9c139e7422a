package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestCommitmentHandlers: the commitments and tag coverage reads answer
// the period asked for (by kind, days or range) with their measures, and
// name a bad parameter.
func TestCommitmentHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	viewer := model.RoleViewer
	ratio := func(v any) string {
		if f, ok := v.(float64); !ok || f < 0 || f > 1 {
			return "want a share from 0 to 1"
		}
		return ""
	}
	se.run(t, []scenario{
		{name: "commitments of last month", path: "/api/commitments?period=last_month", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"period": map[string]any{"start_date": "2026-05-01", "end_date": "2026-05-31"}, "currency": "USD",
				"providers": some(map[string]any{"provider": "aws", "source": "demo", "type": "", "reported": true, "coverage": matcher(ratio),
					"utilization": matcher(ratio), "eligible_on_demand_cost": positive, "commitments": positive}),
				"expiring": present}},
		{name: "commitments of a range", path: "/api/commitments?start=2026-06-01&end=2026-06-07", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"period": map[string]any{"start_date": "2026-06-01", "end_date": "2026-06-07"}}},
		{name: "commitments of days", path: "/api/commitments?days=x", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "days"})},
		{name: "an unknown period", path: "/api/commitments?period=forever", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "period"})},
		{name: "tag coverage of 30 days", path: "/api/allocation/coverage?days=30", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"from": "2026-05-11", "to": "2026-06-09", "currency": "USD",
				"owner_keys": []any{"team", "owner", "project", "department"}, "total_cost": positive, "allocatable_share": matcher(ratio),
				"providers": []any{map[string]any{"provider": "aws", "total_cost": positive}}, "accounts": present, "months": present}},
		{name: "tag coverage of last month", path: "/api/allocation/coverage?period=last_month", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"from": "2026-05-01", "to": "2026-05-31", "months": []any{map[string]any{"month": "2026-05"}}}},
	})
}
