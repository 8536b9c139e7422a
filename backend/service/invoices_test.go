package service

import (
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// TestInvoicesFromImports: importing the published FOCUS and CUR samples
// stores their billed cost per invoice; each provider's invoice equals
// the test's own sum of the rows (focusTotals); importing a file again
// replaces rather than adds; a total entered is matched or its
// difference named; a bad totals row names its line and stores nothing.
func TestInvoicesFromImports(t *testing.T) {
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	focus := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	for range 2 {
		if _, err := s.ImportFiles(ctx, []string{focus, sharedFile(t, "aws-cur-legacy-sample.csv")}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	want := focusTotals(t, focus)
	invs, err := s.Invoices(ctx, InvoiceRequest{Period: "2024-09"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[model.ProviderKey]*big.Rat{}
	for _, inv := range invs {
		r, ok := new(big.Rat).SetString(inv.BilledExact)
		if !ok || inv.Period != "2024-09" || inv.Status != model.InvoiceNoTotal {
			t.Fatalf("%+v", inv)
		}
		if got[inv.Provider] == nil {
			got[inv.Provider] = new(big.Rat)
		}
		got[inv.Provider].Add(got[inv.Provider], r)
	}
	// Oracle also bills a row in October: its September invoice is the rest.
	oct, err := s.Invoices(ctx, InvoiceRequest{Provider: "oci", Period: "2024-10"})
	if err != nil || len(oct) != 1 || oct[0].LateRows != 1 {
		t.Fatalf("October: %+v %v", oct, err)
	}
	octBilled, _ := new(big.Rat).SetString(oct[0].BilledExact)
	got[model.OCI].Add(got[model.OCI], octBilled)
	for _, k := range []model.ProviderKey{model.AWS, model.Azure, model.OCI} {
		// Each row's amount is rounded to a nano: a thousand rows are
		// within a millionth.
		if got[k] == nil || new(big.Rat).Abs(new(big.Rat).Sub(got[k], want[k])).Cmp(big.NewRat(1, 1_000_000)) > 0 {
			t.Errorf("%s: billed %v, the rows sum to %v", k, got[k], want[k].FloatString(9))
		}
	}
	cur, err := s.Invoices(ctx, InvoiceRequest{Provider: "aws", Period: "2023-11"})
	if err != nil || len(cur) != 1 || cur[0].BillingAccount != "123412340534" {
		t.Fatalf("the CUR's invoice: %+v %v", cur, err)
	}
	var aws model.Invoice
	for _, inv := range invs {
		if inv.Provider == model.AWS {
			aws = inv
		}
	}
	res, err := s.SetInvoiceTotals(ctx, []model.InvoiceTotal{{Provider: model.AWS, BillingAccount: aws.BillingAccount, Period: "2024-09",
		Currency: "USD", TotalExact: aws.BilledExact}})
	if err != nil || len(res) != 1 || res[0].Status != model.InvoiceMatched || *res[0].Difference != 0 {
		t.Fatalf("matched: %+v %v", res, err)
	}
	// The CUR's total before tax: the difference is its tax.
	var tax float64
	for _, p := range cur[0].Parts {
		if p.Kind == "tax" {
			tax += p.Billed
		}
	}
	dir := t.TempDir()
	totals := filepath.Join(dir, "totals.csv")
	body := "provider,billing_account,period,total\naws,123412340534,2023-11," + big.NewRat(0, 1).SetFloat64(cur[0].Billed-tax).FloatString(9) + "\n"
	if err := os.WriteFile(totals, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(totals)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err = s.ImportInvoiceTotals(ctx, "totals.csv", f)
	if err != nil || len(res) != 1 || res[0].Status != model.InvoiceDiffers || !strings.Contains(res[0].Explanation, "tax") {
		t.Fatalf("before tax: %+v %v", res, err)
	}
	_, err = s.ImportInvoiceTotals(ctx, "bad.csv", strings.NewReader("provider,billing_account,period,total\naws,1,2023-11,5\naws,1,November,5\n"))
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Details["line"] != 3 || ae.Details["column"] != "period" {
		t.Fatalf("bad row: %v", err)
	}
	if invs, _ := s.Invoices(ctx, InvoiceRequest{Account: "1"}); len(invs) != 0 {
		t.Fatalf("stored after a refused file: %+v", invs)
	}
}

// TestInvoicesFromEveryContainer: the invoice sums are read in the
// import's own pass, so a Parquet or JSON-lines export gives the same
// invoices as the same export in CSV, and an upload the same as a file.
func TestInvoicesFromEveryContainer(t *testing.T) {
	dir := filepath.Join("..", "billing", "testdata")
	for _, pair := range [][2]string{{"cur2.csv", "cur2.parquet"}, {"focus-1.3.csv", "focus-1.3.parquet"}, {"gcp.jsonl", "gcp.jsonl.gz"}} {
		t.Run(pair[1], func(t *testing.T) {
			ctx := adminCtx()
			invoicesOf := func(name string, upload bool) []model.Invoice {
				s := openFresh(t, exportConfig(t))
				path := filepath.Join(dir, name)
				var err error
				if upload {
					f, oerr := os.Open(path)
					if oerr != nil {
						t.Fatal(oerr)
					}
					defer f.Close()
					_, err = s.Import(ctx, name, f, ImportOptions{})
				} else {
					_, err = s.ImportFiles(ctx, []string{path}, ImportOptions{})
				}
				if err != nil {
					t.Fatal(err)
				}
				invs, err := s.Invoices(ctx, InvoiceRequest{})
				if err != nil {
					t.Fatal(err)
				}
				return invs
			}
			csv := invoicesOf(pair[0], false)
			if len(csv) == 0 {
				t.Fatalf("%s: no invoices", pair[0])
			}
			if strings.HasSuffix(pair[0], ".jsonl") {
				if got, want := csv[0].BilledExact, jsonlBilled(t, filepath.Join(dir, pair[0])); len(csv) != 1 || got != want {
					t.Fatalf("%s: billed %s, its lines' cost and credits sum to %s", pair[0], got, want)
				}
			}
			for _, got := range [][]model.Invoice{invoicesOf(pair[1], false), invoicesOf(pair[1], true)} {
				if len(got) != len(csv) {
					t.Fatalf("%d invoices, the CSV has %d: %+v", len(got), len(csv), got)
				}
				for i := range got {
					if got[i].InvoiceID != csv[i].InvoiceID || got[i].BilledExact != csv[i].BilledExact || got[i].Rows != csv[i].Rows {
						t.Errorf("invoice %d: %+v, the CSV's %+v", i, got[i], csv[i])
					}
				}
			}
		})
	}
}

// jsonlBilled sums cost and credit amounts of the Google Cloud export's
// JSON lines, for one invoice.
func jsonlBilled(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := new(big.Rat)
	add := func(n json.Number) {
		r, ok := new(big.Rat).SetString(n.String())
		if !ok {
			t.Fatalf("amount %q", n)
		}
		sum.Add(sum, r)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var row struct {
			Cost    json.Number `json:"cost"`
			Credits []struct {
				Amount json.Number `json:"amount"`
			} `json:"credits"`
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&row); err != nil {
			t.Fatal(err)
		}
		add(row.Cost)
		for _, c := range row.Credits {
			add(c.Amount)
		}
	}
	return strings.TrimRight(strings.TrimRight(sum.FloatString(9), "0"), ".")
}
