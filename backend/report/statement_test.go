package report

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestStatementPDFs: one PDF per statement, named after its period, kind
// and name (made safe for a file name); writing again never replaces a
// file; read back with pdftotext, each names its department, period and
// amount, and the period's allocated and total cost.
func TestStatementPDFs(t *testing.T) {
	set := model.StatementSet{RuleSet: "finance", Period: "2026-05", By: "department", Start: "2026-05-01", End: "2026-05-31",
		Currency: "EUR", Total: 1500.25, Unallocated: 250.25, Allocated: 1250, GeneratedAt: "2026-06-02T08:00:00Z",
		Statements: []model.Statement{{Name: "R&D / Ops", Amount: 1000, Share: 0.8}, {Name: "Données", Amount: 250, Share: 0.2}}}
	dir := t.TempDir()
	paths, err := WriteStatementPDFs(dir, set)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"statement-2026-05-department-r-d---ops.pdf", "statement-2026-05-department-donn-es.pdf"}
	if len(paths) != 2 || filepath.Base(paths[0]) != want[0] || filepath.Base(paths[1]) != want[1] {
		t.Fatalf("paths %v, want %v", paths, want)
	}
	again, err := WriteStatementPDFs(dir, set)
	if err != nil || filepath.Base(again[0]) != "statement-2026-05-department-r-d---ops-2.pdf" {
		t.Fatalf("second run %v: %v", again, err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed (Debian: poppler-utils): the PDFs are not read back")
		return
	}
	for i, st := range set.Statements {
		out, err := exec.Command("pdftotext", paths[i], "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		text := strings.Join(strings.Fields(string(out)), " ")
		for _, w := range []string{"Department: " + st.Name, "Billing period 2026-05 (2026-05-01 to 2026-05-31)", formatMoney(st.Amount, "EUR"),
			formatPercent(st.Share), formatMoney(1250, "EUR"), formatMoney(250.25, "EUR"), formatMoney(1500.25, "EUR"), "finance"} {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q in\n%s", st.Name, w, text)
			}
		}
	}
}

// TestBudgetOnCostPerUnitInReports: a budget on cost per unit shows its
// limit, actual and projection with the decimals a cost per unit needs,
// a budget on spend with cents.
func TestBudgetOnCostPerUnitInReports(t *testing.T) {
	d := sampleData(model.ReportComprehensive, 3)
	d.Budgets = []Budget{
		{Name: "per order", Scope: "cost per orders · all providers", Period: "2026-05", Amount: 0.05, Actual: 0.04123, Projected: 0.04456, HasForecast: true, Currency: "USD", Per: "orders"},
		{Name: "spend", Scope: "all providers", Period: "2026-05", Amount: 1000, Actual: 812.345, Currency: "USD"},
	}
	html, err := renderHTML(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"$0.0500", "$0.0412", "$0.0446", "$1,000.00", "$812.35"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report has no %s", want)
		}
	}
}
