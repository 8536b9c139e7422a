package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/moneyfmt"
)

// TestStatementsCommand: a rule set saved with allocate --save gives
// statements for a month whose amounts add up to the allocated total,
// in JSON and in the CSV file; --format pdf writes one PDF each holding
// the department, period and amount (read back with pdftotext); an
// unknown rule set or format exits non-zero.
func TestStatementsCommand(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	rules := filepath.Join(dir, "rules.yaml")
	if err := os.WriteFile(rules, []byte("method: tag_based\ntags: [department]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "allocate", "--rules", rules, "--save", "finance", "--data-dir", data); code != 0 {
		t.Fatalf("allocate: %d %s", code, errs)
	}
	// Last month: whole, and inside the demo history whenever this runs.
	now := time.Now().UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0).Format("2006-01")
	code, out, errs := run(t, "statements", "--rules", "finance", "--period", month, "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("statements: %d %s", code, errs)
	}
	var set model.StatementSet
	if err := json.Unmarshal([]byte(out), &set); err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, st := range set.Statements {
		sum += st.Amount
	}
	if len(set.Statements) < 2 || set.Allocated <= 0 || math.Abs(sum-set.Allocated) > 1e-6 {
		t.Fatalf("%+v", set)
	}
	file := filepath.Join(dir, "may.csv")
	if code, out, errs := run(t, "statements", "--rules", "finance", "--period", month, "--csv", file, "--data-dir", data); code != 0 ||
		!strings.Contains(out, "statements written") {
		t.Fatalf("csv: %d %s %s", code, out, errs)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != len(set.Statements)+1 {
		t.Fatalf("%v %v", rows, err)
	}
	var csvSum float64
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		csvSum += v
	}
	if math.Abs(csvSum-set.Allocated) > 0.005*float64(len(rows)) {
		t.Errorf("csv %v, allocated %v", csvSum, set.Allocated)
	}
	if code, _, _ := run(t, "statements", "--rules", "ops", "--period", month, "--data-dir", data); code == 0 {
		t.Fatal("an unknown rule set succeeded")
	}

	// --format pdf: one PDF per statement, each holding its department,
	// the period and its amount as the JSON gives them.
	pdfs := filepath.Join(dir, "pdf")
	if code, out, errs := run(t, "statements", "--rules", "finance", "--period", month, "--format", "pdf", "--out", pdfs, "--data-dir", data); code != 0 ||
		!strings.Contains(out, fmt.Sprintf("%d statements of finance", len(set.Statements))) {
		t.Fatalf("pdf: %d %s %s", code, out, errs)
	}
	files, err := filepath.Glob(filepath.Join(pdfs, "statement-"+month+"-department-*.pdf"))
	if err != nil || len(files) != len(set.Statements) {
		t.Fatalf("%d PDFs for %d statements: %v", len(files), len(set.Statements), err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed (Debian: poppler-utils): the PDFs are not read back")
		return
	}
	for _, st := range set.Statements {
		var found bool
		for _, f := range files {
			b, err := exec.Command("pdftotext", f, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext %s: %v", f, err)
			}
			text := strings.Join(strings.Fields(string(b)), " ")
			if !strings.Contains(text, "Department: "+st.Name+" ") {
				continue
			}
			found = true
			for _, want := range []string{"Billing period " + month, moneyfmt.Format(st.Amount, set.Currency), moneyfmt.Format(set.Allocated, set.Currency)} {
				if !strings.Contains(text, want) {
					t.Errorf("%s: the PDF has no %q:\n%s", st.Name, want, text)
				}
			}
		}
		if !found {
			t.Errorf("no PDF names the department %q", st.Name)
		}
	}
	if code, _, _ := run(t, "statements", "--rules", "finance", "--period", month, "--format", "docx", "--data-dir", data); code == 0 {
		t.Fatal("--format docx succeeded")
	}
}
