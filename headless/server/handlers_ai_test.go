package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestAICostHandler: GET /api/ai/costs reads the cost parameters (the
// demo bills Bedrock, Azure OpenAI and Vertex AI tokens: the period's
// models, narrowed by a provider filter; a provider without any is an
// empty answer) and names a bad one.
func TestAICostHandler(t *testing.T) {
	se := newScenarioEnv(t, nil)
	viewer := model.RoleViewer
	se.run(t, []scenario{
		{name: "30 days", path: "/api/ai/costs?days=30", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"from": "2026-05-11", "to": "2026-06-09", "currency": "USD", "total_cost": positive,
				"tokens": positive, "cost_per_million_tokens": positive, "models": some(map[string]any{"model": "novapro", "provider_name": "AWS"})}},
		{name: "a provider filter", path: "/api/ai/costs?period=last_month&provider=aws", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"from": "2026-05-01", "to": "2026-05-31", "models": some(map[string]any{"provider": "aws", "model": "novapro",
				"kinds": count(2)})}},
		{name: "no AI usage", path: "/api/ai/costs?days=30&provider=oci", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"total_cost": 0.0, "models": []any{}}},
		{name: "a malformed provider", path: "/api/ai/costs?provider=Not%20A%20Key", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "provider"})},
		{name: "a bad metric", path: "/api/ai/costs?metric=gross", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", nil)},
		{name: "no credentials", path: "/api/ai/costs", wantStatus: 401},
	})
}
