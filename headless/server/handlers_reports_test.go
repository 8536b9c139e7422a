package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// focusUpload is a multipart body holding a one-row FOCUS file.
const focusUpload = "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"may.csv\"\r\nContent-Type: text/csv\r\n\r\n" +
	"BilledCost,BillingCurrency,ChargePeriodStart,ProviderName,ServiceName,BillingAccountId\r\n" +
	"1.5,USD,2026-05-01T00:00:00Z,AWS,AmazonEC2,111\r\n\r\n--XX--\r\n"

var multipartXX = map[string]string{"Content-Type": "multipart/form-data; boundary=XX"}

// TestReportHandlers: a report is written, listed and downloaded as an
// attachment; bad names and types are refused; an import is checked dry,
// then made, and audited.
func TestReportHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	se.run(t, []scenario{
		{name: "write a summary of last month", method: "POST", path: "/api/reports", role: editor,
			body: `{"type":"summary","format":"json","period":"last_month"}`, wantStatus: 200,
			wantJSON: map[string]any{"report_path": "costpilot-summary-2026-05-01_2026-05-31-all-20260610T120000Z.json"}},
		{name: "listed", path: "/api/reports", role: viewer, wantStatus: 200,
			wantJSON: []any{map[string]any{"name": "costpilot-summary-2026-05-01_2026-05-31-all-20260610T120000Z.json", "type": "summary", "format": "json", "size": positive,
				"start": "2026-05-01", "end": "2026-05-31", "providers": []any{}}}},
		{name: "downloaded as an attachment", path: "/api/reports/{prev.0.name}", role: viewer, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "application/json", "Content-Disposition": `attachment; filename=costpilot-summary-2026-05-01_2026-05-31-all-20260610T120000Z.json`},
			wantJSON:   present},
		{name: "a name with a separator", path: "/api/reports/..%2Fcostpilot.db", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "name"})},
		{name: "a missing report", path: "/api/reports/costpilot-none.pdf", role: viewer, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil)},
		{name: "an unknown report type", method: "POST", path: "/api/reports", role: editor, body: `{"type":"poem"}`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "type", "value": "poem", "allowed": some("summary")})},
		{name: "an import checked dry", method: "POST", path: "/api/import?dry_run=true", role: editor, header: multipartXX, body: focusUpload,
			wantStatus: 200, wantAudit: []auditWant{},
			wantJSON: map[string]any{"dry_run": true, "files": []any{map[string]any{"path": "may.csv", "format": "focus", "rows": 1,
				"providers": []any{"aws"}, "from": "2026-05-01", "to": "2026-05-01",
				"totals": map[string]any{"aws": []any{map[string]any{"currency": "USD", "billed": 1.5, "billed_exact": "1.500000000"}}}}}}},
		{name: "the import made", method: "POST", path: "/api/import?format=focus", role: editor, header: multipartXX, body: focusUpload,
			wantStatus: 200, wantJSON: map[string]any{"dry_run": false, "files": []any{map[string]any{"rows": 1}}},
			wantAudit: []auditWant{{event: service.AuditImport, username: "s-editor", details: map[string]any{"file": "may.csv", "format": "focus", "rows": 1}}}},
		{name: "an import format that is not one", method: "POST", path: "/api/import?format=xlsx", role: editor, header: multipartXX,
			body: focusUpload, wantStatus: 400, wantJSON: errorJSON("ValidationError", map[string]any{"field": "format"}), wantAudit: []auditWant{}},
	})
}
