package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestContractsHandlers: an editor uploads a contract commitment dataset,
// audited under the editor's name; a bad row is a 400 naming its line and
// column; a viewer may list but not upload.
func TestContractsHandlers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "backend", "contracts", "testdata", "commitments.csv"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(data)
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	csvHeader := map[string]string{"Content-Type": "text/csv"}
	se.run(t, []scenario{
		{name: "none yet", path: "/api/contracts", role: viewer, wantStatus: 200, wantJSON: count(0)},
		{name: "a viewer may not upload", method: "POST", path: "/api/contracts", role: viewer, body: body, header: csvHeader,
			wantStatus: 403, wantJSON: errorJSON("SecurityError", map[string]any{"permission": "change"}), wantAudit: []auditWant{}},
		{name: "a bad row", method: "POST", path: "/api/contracts?name=c.csv", role: editor, header: csvHeader,
			body: body + "USD,Spend,lots,x,cc-x,2027-01-01T00:00:00Z,2026-01-01T00:00:00Z,,EDP,,contract-1,,,AWS\n", wantStatus: 400,
			wantJSON:  errorJSON("ValidationError", map[string]any{"file": "c.csv", "line": 5, "column": "ContractCommitmentCost"}),
			wantAudit: []auditWant{}},
		{name: "upload", method: "POST", path: "/api/contracts?name=c.csv", role: editor, body: body, header: csvHeader,
			wantStatus: 200, wantJSON: count(3),
			wantAudit: []auditWant{{event: service.AuditContracts, username: "s-editor", details: map[string]any{"file": "c.csv", "commitments": 3}}}},
		{name: "listed", path: "/api/contracts", role: viewer, wantStatus: 200, wantJSON: []any{
			map[string]any{"provider": "anthropic", "id": "cc-anthropic", "category": "Spend", "committed": 300},
			map[string]any{"provider": "aws", "id": "cc-hours-q2", "category": "Usage", "committed_quantity": 500, "unit": "Hours"},
			map[string]any{"provider": "aws", "id": "cc-spend-2026", "category": "Spend", "committed": 1000, "end": "2026-12-31"},
		}},
	})
}
