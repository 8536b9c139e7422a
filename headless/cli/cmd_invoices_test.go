package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestInvoicesCommand: after importing the published CUR sample,
// invoices lists its invoice, -o json in the API's shape; invoices set
// with the billed total matches it; a bad period exits non-zero.
func TestInvoicesCommand(t *testing.T) {
	sample, err := filepath.Abs(filepath.Join("..", "..", "testdata", "real", "aws-cur-legacy-sample.csv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	if code, _, errs := run(t, "import", sample, "--data-dir", data); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	code, out, errs := run(t, "invoices", "--period", "2023-11", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("invoices: %d %s", code, errs)
	}
	var invs []model.Invoice
	if err := json.Unmarshal([]byte(out), &invs); err != nil || len(invs) != 1 || invs[0].Status != model.InvoiceNoTotal {
		t.Fatalf("%s %v", out, err)
	}
	code, out, errs = run(t, "invoices", "set", "--provider", "aws", "--account", invs[0].BillingAccount, "--period", "2023-11",
		"--total", invs[0].BilledExact, "--data-dir", data)
	if code != 0 || !strings.Contains(out, "matched") {
		t.Fatalf("set: %d %s %s", code, out, errs)
	}
	if code, out, _ := run(t, "invoices", "--data-dir", data); code != 0 || !strings.Contains(out, "tax") || !strings.Contains(out, "2023-11") {
		t.Fatalf("table: %s", out)
	}
	if code, _, errs := run(t, "invoices", "--period", "Nov", "--data-dir", data); code == 0 || !strings.Contains(errs, "YYYY-MM") {
		t.Fatalf("a bad period: %d %s", code, errs)
	}
}
