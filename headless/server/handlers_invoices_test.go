package server

import (
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestInvoiceHandlers: after an import, GET /api/invoices lists the
// billed cost per invoice; an editor enters a total that matches it
// (audited); bad filters and totals are refused naming the field; a
// viewer may only read.
func TestInvoiceHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	sample := filepath.Join("..", "..", "testdata", "real", "aws-cur-legacy-sample.csv")
	if _, err := se.svc.ImportFiles(adminCtx(), []string{sample}, service.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	invs, err := se.svc.Invoices(adminCtx(), service.InvoiceRequest{Provider: "aws"})
	if err != nil || len(invs) != 1 {
		t.Fatalf("%+v %v", invs, err)
	}
	billed := invs[0].BilledExact
	editor, viewer := model.RoleEditor, model.RoleViewer
	se.run(t, []scenario{
		{name: "listed", path: "/api/invoices?provider=aws&period=2023-11", role: viewer, wantStatus: 200,
			wantJSON: []any{map[string]any{"provider": "aws", "billing_account": "123412340534", "period": "2023-11",
				"billed_exact": billed, "status": "no_total", "invoice_total": nil}}},
		{name: "another period", path: "/api/invoices?period=2024-01", role: viewer, wantStatus: 200, wantJSON: count(0)},
		{name: "a bad period", path: "/api/invoices?period=November", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "period"})},
		{name: "a bad provider", path: "/api/invoices?provider=ibm", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "provider"})},
		{name: "a viewer may not set totals", method: "POST", path: "/api/invoices/totals", role: viewer,
			body: `[{"provider":"aws","billing_account":"123412340534","period":"2023-11","total":1}]`, wantStatus: 403,
			wantJSON: errorJSON("SecurityError", nil), wantAudit: []auditWant{}},
		{name: "a total without a period", method: "POST", path: "/api/invoices/totals", role: editor,
			body: `[{"provider":"aws","billing_account":"123412340534","total":1}]`, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "totals[0].period"}), wantAudit: []auditWant{}},
		{name: "the total", method: "POST", path: "/api/invoices/totals", role: editor,
			body:       `[{"provider":"aws","billing_account":"123412340534","period":"2023-11","total_exact":"` + billed + `","currency":"USD"}]`,
			wantStatus: 200, wantJSON: []any{map[string]any{"status": "matched", "difference": 0}},
			wantAudit: []auditWant{{event: service.AuditInvoiceTotals, username: "s-editor", details: map[string]any{"count": 1}}}},
	})
}
