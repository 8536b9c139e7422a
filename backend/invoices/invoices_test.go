package invoices

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// realDir holds the published samples (testdata/real/LICENSES.md).
const realDir = "../../testdata/real"

// refSum is the test's own reading of a sample: encoding/csv and exact
// rationals, summing column amount by the key a row's cells give.
func refSum(t *testing.T, data []byte, amount string, key func(get func(string) string) string) map[string]*big.Rat {
	t.Helper()
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, h := range recs[0] {
		idx[h] = i
	}
	out := map[string]*big.Rat{}
	for _, rec := range recs[1:] {
		get := func(c string) string { return rec[idx[c]] }
		v := get(amount)
		if v == "" || v == "NULL" {
			v = "0"
		}
		r, ok := new(big.Rat).SetString(v)
		if !ok {
			t.Fatalf("amount %q", v)
		}
		k := key(get)
		if out[k] == nil {
			out[k] = new(big.Rat)
		}
		out[k].Add(out[k], r)
	}
	return out
}

// scanned sums a Result by the key of its Keys.
func scanned(res Result, key func(Key) string) map[string]*big.Rat {
	out := map[string]*big.Rat{}
	for k, s := range res.Sums {
		kk := key(k)
		if out[kk] == nil {
			out[kk] = new(big.Rat)
		}
		out[kk].Add(out[kk], big.NewRat(int64(s.Billed), model.NanosPerUnit))
	}
	return out
}

func sameSums(t *testing.T, got, want map[string]*big.Rat) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d groups, want %d: %v vs %v", len(got), len(want), got, want)
	}
	for k, w := range want {
		g := got[k]
		// Nanos round beyond nine decimals: at most half a nano per row.
		if g == nil || new(big.Rat).Abs(new(big.Rat).Sub(g, w)).Cmp(big.NewRat(1, 1_000_000)) > 0 {
			t.Errorf("%s: %v, want %v", k, g, w.FloatString(9))
		}
	}
}

// TestBilledCostPerInvoiceOnRealSamples: on each published sample the
// billed cost per provider, billing account, billing period and invoice
// id, and per charge kind, equals the test's own sum of the rows.
func TestBilledCostPerInvoiceOnRealSamples(t *testing.T) {
	tests := []struct {
		file, format, amount string
		want                 func(get func(string) string) string
		got                  func(Key) string
	}{
		{"focus-1.0-sample-aws-azure-oci.csv", "focus", "BilledCost",
			func(get func(string) string) string {
				return string(model.ProviderOfName(get("ProviderName"))) + "|" + get("BillingAccountId") + "|" + get("BillingPeriodStart")[:10] + "|" + get("ChargeCategory")
			},
			func(k Key) string {
				cat := map[string]string{KindUsage: "Usage", KindMarketplace: "Usage", KindCredit: "Credit", KindAdjustment: "Adjustment"}[k.Kind]
				return string(k.Provider) + "|" + k.BillingAccount + "|" + k.Period + "|" + cat
			}},
		{"aws-cur-legacy-sample.csv", "aws-cur", "lineItem/UnblendedCost",
			func(get func(string) string) string {
				return get("bill/PayerAccountId") + "|" + get("bill/InvoiceId") + "|" + get("bill/BillingPeriodStartDate")[:10] + "|" + get("lineItem/LineItemType")
			},
			func(k Key) string {
				return k.BillingAccount + "|" + k.InvoiceID + "|" + k.Period + "|" + map[string]string{KindUsage: "Usage", KindTax: "Tax"}[k.Kind]
			}},
		{"azure-ea-export-sample.csv", "azure", "CostInBillingCurrency",
			func(get func(string) string) string {
				return get("BillingAccountId") + "|" + get("InvoiceSectionId") + "|" + get("BillingCurrencyCode")
			},
			func(k Key) string { return k.BillingAccount + "|" + k.InvoiceID + "|" + k.Currency }},
		{"oci-cost-report-sample.csv", "oci", "cost/myCost",
			func(get func(string) string) string {
				return get("lineItem/tenantId") + "|" + get("lineItem/intervalUsageStart")[:7] + "-01"
			},
			func(k Key) string { return k.BillingAccount + "|" + k.Period }},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(realDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Scan(bytes.NewReader(data), tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != tt.format {
				t.Fatalf("format %s", res.Format)
			}
			sameSums(t, scanned(res, tt.got), refSum(t, data, tt.amount, tt.want))
			var rows int64
			for _, s := range res.Sums {
				rows += s.Rows
			}
			if want := int64(bytes.Count(data, []byte("\n")) - 1); rows != want && tt.format != "focus" {
				t.Errorf("%d rows summed, the file has %d", rows, want)
			}
		})
	}
}

// TestMarketplaceAndTaxAreTheirOwnKinds: the FOCUS sample's Red Hat row
// (a publisher that is no cloud) is marketplace, the CUR sample's Tax
// rows are tax, and reconciling a total that leaves the tax out names
// it.
func TestMarketplaceAndTaxAreTheirOwnKinds(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(realDir, "focus-1.0-sample-aws-azure-oci.csv"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Scan(bytes.NewReader(data), "focus.csv")
	if err != nil {
		t.Fatal(err)
	}
	var market int64
	for k, s := range res.Sums {
		if k.Kind == KindMarketplace {
			market += s.Rows
		}
	}
	if market != 1 {
		t.Errorf("%d marketplace rows, want the Red Hat one", market)
	}
	data, err = os.ReadFile(filepath.Join(realDir, "aws-cur-legacy-sample.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if res, err = Scan(bytes.NewReader(data), "cur.csv"); err != nil {
		t.Fatal(err)
	}
	lines := linesOf(res)
	invs := Reconcile(lines, nil)
	if len(invs) != 1 || invs[0].Status != model.InvoiceNoTotal {
		t.Fatalf("%+v", invs)
	}
	var tax, usage model.Nanos
	for _, l := range lines {
		switch l.Kind {
		case KindTax:
			tax += l.Billed
		case KindUsage:
			usage += l.Billed
		}
	}
	if tax == 0 || usage == 0 {
		t.Fatalf("tax %s, usage %s", tax, usage)
	}
	inv := invs[0]
	invs = Reconcile(lines, []Total{{Provider: model.AWS, BillingAccount: inv.BillingAccount, Period: inv.Period + "-01", Currency: "USD", Amount: usage}})
	if got := invs[0]; got.Status != model.InvoiceDiffers || !strings.Contains(got.Explanation, "tax") ||
		*got.Difference != (-tax).Float64() {
		t.Fatalf("a total before tax: %+v", got)
	}
	invs = Reconcile(lines, []Total{{Provider: model.AWS, BillingAccount: inv.BillingAccount, Period: inv.Period + "-01", Amount: usage + tax}})
	if invs[0].Status != model.InvoiceMatched {
		t.Fatalf("the whole total: %+v", invs[0])
	}
}

func linesOf(res Result) []Line {
	var out []Line
	for k, s := range res.Sums {
		out = append(out, Line{Key: k, Sum: *s})
	}
	return out
}

// TestCorrectionAfterClose: a FOCUS correction row billed in October for
// a charge of September (a closed period) is shown as a correction on
// October's invoice, counted late, and explains the difference with a
// total that leaves it out.
func TestCorrectionAfterClose(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(realDir, "focus-1.0-sample-aws-azure-oci.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, h := range recs[0] {
		idx[strings.TrimPrefix(h, "\ufeff")] = i
	}
	// The sample's own October rows, and those of them charged before
	// October (the test's reading).
	var oracle []string
	var lateBefore int64
	lateBilled := new(big.Rat)
	for _, r := range recs[1:] {
		if r[idx["ProviderName"]] == "Oracle" && strings.HasPrefix(r[idx["BillingPeriodStart"]], "2024-10") {
			oracle = append([]string(nil), r...)
			if r[idx["ChargePeriodStart"]][:10] < "2024-10-01" {
				lateBefore++
				v, _ := new(big.Rat).SetString(r[idx["BilledCost"]])
				lateBilled.Add(lateBilled, v)
			}
		}
	}
	if oracle == nil {
		t.Fatal("no Oracle October row in the sample")
	}
	fix := append([]string(nil), oracle...)
	fix[idx["ChargeClass"]] = "Correction"
	fix[idx["ChargeCategory"]] = "Adjustment"
	fix[idx["ChargePeriodStart"]] = "2024-09-15 00:00:00"
	fix[idx["ChargePeriodEnd"]] = "2024-09-16 00:00:00"
	fix[idx["BilledCost"]] = "-1.25"
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(append(recs, fix)); err != nil {
		t.Fatal(err)
	}
	res, err := Scan(&buf, "focus.csv")
	if err != nil {
		t.Fatal(err)
	}
	account := oracle[idx["BillingAccountId"]]
	var oct *model.Invoice
	invs := Reconcile(linesOf(res), nil)
	for i := range invs {
		if invs[i].Provider == model.OCI && invs[i].Period == "2024-10" {
			oct = &invs[i]
		}
	}
	wantLate, _ := new(big.Rat).Add(lateBilled, big.NewRat(-125, 100)).Float64()
	if oct == nil || oct.Corrections != -1.25 || oct.LateRows != lateBefore+1 || oct.LateBilled != wantLate {
		t.Fatalf("October: %+v, want %d late rows of %v", oct, lateBefore+1, wantLate)
	}
	var found bool
	for _, p := range oct.Parts {
		if p.ChargeClass == ClassCorrection {
			found = p.Kind == KindAdjustment && p.Billed == -1.25 && p.Rows == 1 && p.LateRows == 1
		}
	}
	if !found {
		t.Fatalf("no correction part: %+v", oct.Parts)
	}
	before := model.NanosFromFloat(oct.Billed + 1.25) // the invoice as closed, without the correction
	invs = Reconcile(linesOf(res), []Total{{Provider: model.OCI, BillingAccount: account, Period: "2024-10-01", Amount: before}})
	for _, inv := range invs {
		if inv.Provider == model.OCI && inv.Period == "2024-10" {
			if inv.Status != model.InvoiceDiffers || !strings.Contains(inv.Explanation, "corrections of a closed period") {
				t.Fatalf("explained: %+v", inv)
			}
			return
		}
	}
	t.Fatal("October's invoice is gone")
}

// TestScanRefusals: a bad amount names its line and column; Parquet and
// JSON are not read.
func TestScanRefusals(t *testing.T) {
	_, err := Scan(strings.NewReader("BilledCost,ChargePeriodStart,ProviderName\n1,2024-01-01,AWS\nlots,2024-01-02,AWS\n"), "f.csv")
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Details["line"] != int64(3) || !strings.Contains(ae.Message, "BilledCost") {
		t.Fatalf("bad amount: %v", err)
	}
	for _, data := range []string{"PAR1xxxx", `{"billing_account_id":"x"}`, "a,b,c\n1,2,3\n"} {
		if _, err := Scan(strings.NewReader(data), "x"); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%q: %v", data, err)
		}
	}
}
