package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestSyncHandler: POST /api/sync regenerates the demo history an editor
// asks for and answers what it did; its two ways to give the days are
// exclusive, an unknown field is refused naming it, and a viewer may not.
func TestSyncHandler(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	se.run(t, []scenario{
		{name: "a viewer may not", method: "POST", path: "/api/sync", role: viewer, body: `{}`, wantStatus: 403,
			wantJSON: errorJSON("SecurityError", map[string]any{"permission": "change", "role": "viewer"})},
		{name: "the demo of one provider", method: "POST", path: "/api/sync", role: editor, body: `{"provider":"aws"}`, wantStatus: 200,
			wantJSON: []any{map[string]any{"provider": "aws", "source": "demo", "from": "2025-05-06", "to": "2026-06-09", "lines": positive, "resources": positive}}},
		{name: "days and start", method: "POST", path: "/api/sync", role: editor, body: `{"days":3,"start":"2026-06-01"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "days"})},
		{name: "an end after yesterday", method: "POST", path: "/api/sync", role: editor, body: `{"start":"2026-06-01","end":"2026-06-12"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "end"})},
		{name: "an unknown field", method: "POST", path: "/api/sync", role: editor, body: `{"since":"2026-06-01"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "since"})},
		{name: "a provider that is not enabled", method: "POST", path: "/api/sync", role: editor, body: `{"provider":"oci"}`, wantStatus: 400},
	})
}
