package server

import (
	"path/filepath"
	"strings"
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

// TestUploadRecordsInvoices: an export uploaded to POST /api/import is
// read once for the history and the invoice sums; a dry run stores none.
func TestUploadRecordsInvoices(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor := model.RoleEditor
	upload := strings.Replace(focusUpload, "BillingAccountId\r\n", "BillingAccountId,InvoiceId,ChargeCategory\r\n", 1)
	upload = strings.Replace(upload, "AmazonEC2,111\r\n", "AmazonEC2,111,INV-7,Usage\r\n1.25,USD,2026-05-02T00:00:00Z,AWS,Tax,111,INV-7,Tax\r\n", 1)
	se.run(t, []scenario{
		{name: "dry", method: "POST", path: "/api/import?dry_run=true", role: editor, header: multipartXX, body: upload, wantStatus: 200},
		{name: "nothing stored", path: "/api/invoices", role: editor, wantStatus: 200, wantJSON: count(0)},
		{name: "imported", method: "POST", path: "/api/import", role: editor, header: multipartXX, body: upload, wantStatus: 200,
			wantJSON: map[string]any{"files": []any{map[string]any{"rows": 2}}}},
		{name: "its invoice", path: "/api/invoices", role: editor, wantStatus: 200,
			wantJSON: []any{map[string]any{"provider": "aws", "billing_account": "111", "period": "2026-05", "invoice_id": "INV-7",
				"billed_exact": "2.750000000", "rows": 2,
				"parts": []any{map[string]any{"kind": "tax", "billed": 1.25}, map[string]any{"kind": "usage", "billed": 1.5}}}}},
	})
}
